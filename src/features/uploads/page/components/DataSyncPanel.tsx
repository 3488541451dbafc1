import { ActionIcon, Button, Group, Paper, Progress, Stack, Text, Title } from '@mantine/core';
import { useElementSize } from '@mantine/hooks';
import { IconChevronDown, IconChevronUp, IconX } from '@tabler/icons-react';
import { useId, useState } from 'react';
import { ConfirmDialog } from '@/components/ConfirmDialog';
import { formatFileSize } from '@/lib/fileSize';
import { fileName } from '@/features/projects';
import { computeDiff, summarize, unanalysed } from '../../model/pending';
import { describeProgress, percentOf } from '../../model/progressText';
import {
  ANALYSING_FILES,
  CANCEL_UPLOAD_TEXT,
  CANCEL_UPLOAD_TITLE,
  CLOSE_DATA_SYNC,
  DISCARD,
  DISCARD_TITLE,
  KEEP_CHANGES,
  discardText,
  COLLAPSE_DATA_SYNC,
  COUNT_LABELS,
  DATA_SYNC_TITLE,
  IGNORED_FILES,
  PENDING_SIZE,
  UPDATE_CHANGES,
} from '../../model/texts';
import type { UploadProgress } from '../../model/types';
import type { PendingUpload } from '../state/pendingUploads';

/** Analysed files listed at most; the rest are counted. */
const MAX_LISTED = 5;

export interface DataSyncPanelProps {
  upload: PendingUpload;
  /** The engine's progress of this upload once started. */
  progress?: UploadProgress;
  onUpdate: () => void;
  onClose: () => void;
  /** Why nothing can be sent now (maintenance): 'Update Changes' is disabled, this said. */
  blocked?: string | null;
  /**
   * In the column beside the files (wide screens). Otherwise it floats at the bottom right,
   * collapsed to its title at first, and the page leaves room below its content for it.
   */
  docked?: boolean;
}

/**
 * The 'Data Sync' panel (spec 001 §2): size of the pending upload, counts of added, updated and
 * removed files, per-file analysis progress, and 'Update Changes', disabled while files are
 * analysed or the upload runs. Beside the files on wide screens; floating bottom-right on narrow
 * ones (not top-left: it covered the title, tabs and offline notice there; issue 31).
 */
export function DataSyncPanel({
  upload,
  progress,
  onUpdate,
  onClose,
  blocked,
  docked = false,
}: DataSyncPanelProps) {
  const summary = summarize(computeDiff(upload.baseFiles, upload.files));
  const waiting = unanalysed(upload.files);
  const analysing = waiting.length > 0;
  const running = upload.uploadId !== null || upload.starting;
  const changed = summary.added + summary.updated + summary.removed > 0;
  // Floating (narrow screens), it starts collapsed to its title, in the bottom right corner:
  // at the top left it covered the project's title, its tabs and the offline notice (issue 31).
  const [collapsed, setCollapsed] = useState(!docked);
  const { ref, height } = useElementSize();
  const [closing, setClosing] = useState(false);
  const contentId = useId();
  const counts = (['added', 'updated', 'removed'] as const)
    .filter((kind) => summary[kind] > 0)
    .map((kind) => `${summary[kind]} ${kind === 'removed' ? 'deleted' : kind}`)
    .join(', ');

  return (
    <>
      {!docked && (
        // Room below the page's content, so its last rows scroll out from under the panel.
        <div aria-hidden data-testid="data-sync-room" style={{ height: height + 32 }} />
      )}
      <Paper
        ref={ref}
        role="region"
        aria-label={DATA_SYNC_TITLE}
        shadow={docked ? undefined : 'md'}
        withBorder
        p="md"
        style={
          docked
            ? undefined
            : {
                position: 'fixed',
                zIndex: 4,
                width: 'min(22rem, calc(100% - 2rem))',
                bottom: 16,
                right: 16,
              }
        }
      >
        <Group justify="space-between" mb={collapsed ? 0 : 'xs'} wrap="nowrap">
          <Title order={2} fz="h4">
            {DATA_SYNC_TITLE}
          </Title>
          <Group gap={4} wrap="nowrap">
            <ActionIcon
              variant="subtle"
              color="gray"
              aria-label={COLLAPSE_DATA_SYNC}
              aria-expanded={!collapsed}
              aria-controls={contentId}
              onClick={() => setCollapsed((value) => !value)}
            >
              {collapsed ? (
                <IconChevronDown size={18} aria-hidden />
              ) : (
                <IconChevronUp size={18} aria-hidden />
              )}
            </ActionIcon>
            <ActionIcon
              variant="subtle"
              color="gray"
              aria-label={CLOSE_DATA_SYNC}
              // It discards every pending change (or stops the upload): it asks first (issue 31).
              onClick={() => (changed || running ? setClosing(true) : onClose())}
            >
              <IconX size={18} aria-hidden />
            </ActionIcon>
          </Group>
        </Group>
        <Stack gap="xs" id={contentId} display={collapsed ? 'none' : undefined}>
          <Group justify="space-between">
            <Text size="sm">{PENDING_SIZE}</Text>
            <Text size="sm" fw={600} data-testid="pending-size">
              {formatFileSize(summary.size)}
            </Text>
          </Group>
          <Group gap="md" aria-label="Changes" role="group">
            {(['added', 'updated', 'removed'] as const).map((kind) => (
              <Text key={kind} size="sm">
                {COUNT_LABELS[kind]}: <strong>{summary[kind]}</strong>
              </Text>
            ))}
          </Group>
          {upload.ignored.length > 0 && (
            <Text size="xs" c="dimmed">
              {IGNORED_FILES(upload.ignored.length)}
            </Text>
          )}
          {analysing && (
            <Stack gap={4} role="group" aria-label={ANALYSING_FILES}>
              <Text size="sm" fw={600}>
                {ANALYSING_FILES} ({waiting.length})
              </Text>
              {waiting.slice(0, MAX_LISTED).map((file) => {
                const step = upload.analysing[file.path];
                const value = step && step.total > 0 ? (step.loaded / step.total) * 100 : 0;
                return (
                  <div key={file.path}>
                    <Text size="xs" truncate="end">
                      {fileName(file.path)}
                    </Text>
                    <Progress
                      value={value}
                      size="sm"
                      aria-label={`Analysing ${file.path}`}
                      transitionDuration={0}
                    />
                  </div>
                );
              })}
              {waiting.length > MAX_LISTED && (
                <Text size="xs" c="dimmed">
                  +{waiting.length - MAX_LISTED}
                </Text>
              )}
            </Stack>
          )}
          {progress && (
            <Stack gap={4}>
              <Progress
                value={percentOf(progress)}
                aria-label={`Upload of ${upload.key}`}
                color={progress.phase === 'failed' ? 'red' : undefined}
              />
              <Text size="xs">{describeProgress(progress)}</Text>
            </Stack>
          )}
          {blocked && (
            <Text size="xs" c="dimmed">
              {blocked}
            </Text>
          )}
          <Button
            onClick={onUpdate}
            disabled={analysing || running || !changed || Boolean(blocked)}
            loading={upload.starting}
            fullWidth
            size="md"
          >
            {UPDATE_CHANGES}
          </Button>
        </Stack>
        <ConfirmDialog
          opened={closing}
          onClose={() => setClosing(false)}
          onConfirm={() => {
            setClosing(false);
            onClose();
          }}
          title={running ? CANCEL_UPLOAD_TITLE : DISCARD_TITLE}
          confirmText={DISCARD}
          cancelText={KEEP_CHANGES}
          danger
        >
          {running ? CANCEL_UPLOAD_TEXT : discardText(`The pending changes (${counts})`)}
        </ConfirmDialog>
      </Paper>
    </>
  );
}
