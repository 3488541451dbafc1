import { Button, Group, Paper, Progress, Stack, Text, Title } from '@mantine/core';
import { useEffect, useSyncExternalStore } from 'react';
import { relativeTime } from '@/lib/time';
import { notifyError } from '@/lib/notify';
import { AnchorLink } from '@/lib/routerLinks';
import {
  dismissOutboxNotice,
  outboxNotices,
  subscribeOutboxNotices,
  type OutboxNotice,
} from '@/offline/outboxNotices';
import { cancelUpload, dismissUpload, retryUpload, startUploadEngine, useUploads } from '../engine';
import { computeDiff, summarize } from '../../model/pending';
import { describeFileOutcome } from '../../model/offlineRebase';
import { noVersionMade } from '../../model/landed';
import { describeChanges, describeProgress, isActive, percentOf } from '../../model/progressText';
import {
  CANCEL_UPLOAD,
  DISMISS,
  PROJECT_UPDATED,
  RETRY,
  canRetryFailure,
  uploadFinished,
} from '../../model/texts';
import {
  NOT_QUEUED_INTRO,
  NOT_QUEUED_TITLE,
  OUTBOX_EMPTY,
  OUTBOX_INTRO,
  OUTBOX_NOTICES_INTRO,
  OUTBOX_NOTICES_TITLE,
  landedWhen,
  queuedWhen,
} from '../../model/outboxTexts';
import type { UploadProgress } from '../../model/types';
import type { PendingUpload } from '../state/pendingUploads';
import { usePendingUploads } from '../state/usePendingUploads';
import { QueuedFiles } from './QueuedFiles';

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
      <QueuedFiles files={upload.files} />
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

/** A landed upload that did not do all that was asked: what happened to each file. */
function NoticeItem({ notice }: { notice: OutboxNotice }) {
  const title = !notice.versionMade
    ? noVersionMade(notice.projectPath)
    : notice.kind === 'finished'
      ? uploadFinished(notice.projectPath)
      : PROJECT_UPDATED;
  return (
    <Paper
      withBorder
      p="md"
      component="li"
      aria-label={notice.projectPath}
      style={{ borderColor: 'var(--mantine-color-yellow-6)' }}
    >
      <Group justify="space-between" wrap="nowrap" mb={4}>
        <Text fw={600}>{title}</Text>
        <Text size="xs" c="dimmed" style={{ flexShrink: 0 }}>
          {landedWhen(relativeTime(notice.at))}
        </Text>
      </Group>
      <Stack component="ul" gap={2} m={0} pl="1.2em">
        {notice.files.map((file) => (
          <Text component="li" size="sm" key={file.path}>
            {describeFileOutcome(file)}
          </Text>
        ))}
      </Stack>
      <Group justify="flex-end" mt="xs">
        <Button
          size="compact-sm"
          variant="default"
          aria-label={`${DISMISS} ${notice.projectPath}`}
          onClick={() => dismissOutboxNotice(notice.id)}
        >
          {DISMISS}
        </Button>
      </Group>
    </Paper>
  );
}

/** Changes in a project's Data Sync panel that were not handed to the outbox. */
function NotQueuedItem({ pending }: { pending: PendingUpload }) {
  const summary = summarize(computeDiff(pending.baseFiles, pending.files));
  const parts = (['added', 'updated', 'removed'] as const)
    .filter((kind) => summary[kind] > 0)
    .map((kind) => `${summary[kind]} ${kind}`);
  return (
    <Paper withBorder p="md" component="li" aria-label={pending.key}>
      <AnchorLink
        to="/projects/$namespace/$projectName/tree/$"
        params={{ namespace: pending.namespace, projectName: pending.name, _splat: '' }}
        fw={600}
      >
        {pending.key}
      </AnchorLink>
      <Text size="sm">{parts.join(' · ')}</Text>
    </Paper>
  );
}

const list = { component: 'ul', gap: 'sm', p: 0, m: 0, style: { listStyle: 'none' } } as const;

/**
 * The Outbox (issue 18, /outbox): every upload of this browser that is queued, running or
 * failed, across projects, oldest first (the order they are sent in), with Retry and Cancel,
 * each with the files it adds, updates and removes. It reads the engine's list, which comes
 * from IndexedDB: it lasts across reloads. Below (issue 31): landed uploads that did not do
 * all that was asked, until dismissed, and changes of this tab not queued yet (so the page
 * never says all is sent while a change waits in a Data Sync panel).
 */
export function OutboxScreen({ othersWaiting = false }: { othersWaiting?: boolean } = {}) {
  const uploads = useUploads().filter((u) => isActive(u) || u.phase === 'failed');
  const notices = useSyncExternalStore(subscribeOutboxNotices, outboxNotices, outboxNotices);
  const store = usePendingUploads();
  const pending = useSyncExternalStore(store.subscribe, store.getSnapshot, store.getSnapshot);
  const notQueued = [...pending.values()].filter((p) => p.uploadId === null);
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
        <Stack {...list}>
          {uploads.map((upload) => (
            <OutboxItem key={upload.id} upload={upload} />
          ))}
        </Stack>
      )}
      {notQueued.length > 0 && (
        <section aria-label={NOT_QUEUED_TITLE}>
          <Title order={2} fz="h4" mb={4}>
            {NOT_QUEUED_TITLE}
          </Title>
          <Text size="sm" c="dimmed" mb="xs">
            {NOT_QUEUED_INTRO}
          </Text>
          <Stack {...list}>
            {notQueued.map((p) => (
              <NotQueuedItem key={p.key} pending={p} />
            ))}
          </Stack>
        </section>
      )}
      {notices.length > 0 && (
        <section aria-label={OUTBOX_NOTICES_TITLE}>
          <Title order={2} fz="h4" mb={4}>
            {OUTBOX_NOTICES_TITLE}
          </Title>
          <Text size="sm" c="dimmed" mb="xs">
            {OUTBOX_NOTICES_INTRO}
          </Text>
          <Stack {...list}>
            {[...notices].reverse().map((notice) => (
              <NoticeItem key={notice.id} notice={notice} />
            ))}
          </Stack>
        </section>
      )}
    </Stack>
  );
}
