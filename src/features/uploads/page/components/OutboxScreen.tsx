import { Button, Group, Paper, Progress, Stack, Text } from '@mantine/core';
import { useEffect } from 'react';
import { relativeTime } from '@/lib/time';
import { notifyError } from '@/lib/notify';
import { cancelUpload, dismissUpload, retryUpload, startUploadEngine, useUploads } from '../engine';
import { describeChanges, describeProgress, isActive, percentOf } from '../../model/progressText';
import { CANCEL_UPLOAD, DISMISS, RETRY, canRetryFailure } from '../../model/texts';
import { OUTBOX_EMPTY, OUTBOX_INTRO, queuedWhen } from '../../model/outboxTexts';
import type { UploadProgress } from '../../model/types';

/** One upload of the outbox: project, what it changes, its state, when it was queued. */
function OutboxItem({ upload }: { upload: UploadProgress }) {
  const failed = upload.phase === 'failed';
  const retry = () =>
    void retryUpload(upload.id).catch((error: unknown) =>
      notifyError(error instanceof Error ? error.message : String(error)),
    );
  return (
    <Paper withBorder p="md" component="li" aria-label={upload.projectPath}>
      <Group justify="space-between" wrap="nowrap" mb={4}>
        <Text fw={600} truncate="end">
          {upload.projectPath}
        </Text>
        {upload.queuedAt !== undefined && (
          <Text size="xs" c="dimmed">
            {queuedWhen(relativeTime(upload.queuedAt))}
          </Text>
        )}
      </Group>
      <Text size="sm">{describeChanges(upload)}</Text>
      <Progress
        value={percentOf(upload)}
        aria-label={`Upload of ${upload.projectPath}`}
        color={failed ? 'red' : undefined}
        striped={upload.phase === 'waiting-network' || upload.phase === 'retrying'}
        my={6}
      />
      <Group justify="space-between" wrap="wrap" gap="xs">
        <Text size="sm" c={failed ? 'red.8' : undefined}>
          {describeProgress(upload)}
        </Text>
        <Group gap="xs">
          {failed && canRetryFailure(upload.error) && (
            <Button size="compact-sm" onClick={retry}>
              {RETRY}
            </Button>
          )}
          <Button
            size="compact-sm"
            variant="default"
            aria-label={`${failed ? DISMISS : CANCEL_UPLOAD} ${upload.projectPath}`}
            onClick={() => void (failed ? dismissUpload(upload.id) : cancelUpload(upload.id))}
          >
            {failed ? DISMISS : CANCEL_UPLOAD}
          </Button>
        </Group>
      </Group>
    </Paper>
  );
}

/**
 * The Outbox (issue 18, /outbox): every upload of this browser that is queued, running or
 * failed, across projects, oldest first (the order they are sent in), with Retry and Cancel.
 * It reads the engine's list, which comes from IndexedDB: it lasts across reloads.
 */
export function OutboxScreen({ othersWaiting = false }: { othersWaiting?: boolean } = {}) {
  const uploads = useUploads().filter((u) => isActive(u) || u.phase === 'failed');
  useEffect(() => {
    if (typeof Worker !== 'undefined') startUploadEngine();
  }, []);
  return (
    <Stack gap="md">
      <Text size="sm" c="dimmed">
        {OUTBOX_INTRO}
      </Text>
      {uploads.length === 0 ? (
        // Field edits waiting (issue 34) are listed beside: nothing to say then.
        !othersWaiting && <Text>{OUTBOX_EMPTY}</Text>
      ) : (
        <Stack component="ul" gap="sm" p={0} m={0} style={{ listStyle: 'none' }}>
          {uploads.map((upload) => (
            <OutboxItem key={upload.id} upload={upload} />
          ))}
        </Stack>
      )}
    </Stack>
  );
}
