import { Button, Group, Paper, Progress, Stack, Text } from '@mantine/core';
import { useDebouncedValue, useElementSize } from '@mantine/hooks';
import { StorageNotice } from '@/offline/components/StorageNotice';
import { describeChanges, describeProgress, isActive, percentOf } from '../../model/progressText';
import {
  CANCEL_UPLOAD,
  DISMISS,
  RETRY,
  UPLOADING_TOAST_TITLE,
  canRetryFailure,
} from '../../model/texts';
import type { UploadProgress } from '../../model/types';

/** The toast appears and disappears debounced (spec 001 §9). */
export const UPLOAD_TOAST_DEBOUNCE_MS = 500;

export interface UploadsToastProps {
  uploads: readonly UploadProgress[];
  onCancel: (id: string) => void;
  onRetry: (id: string) => void;
  onDismiss: (id: string) => void;
}

/** Uploads the toast lists: running ones, and failed ones until retried or dismissed. */
export function shownUploads(uploads: readonly UploadProgress[]): UploadProgress[] {
  return uploads.filter((upload) => isActive(upload) || upload.phase === 'failed');
}

/**
 * 'Uploading data to projects' (spec 001 §2): a progress bar per project while any upload
 * runs, with what each one is doing; failures stay with their reason, Retry and Dismiss.
 */
export function UploadsToast({ uploads, onCancel, onRetry, onDismiss }: UploadsToastProps) {
  const shown = shownUploads(uploads);
  const [visible] = useDebouncedValue(shown.length > 0, UPLOAD_TOAST_DEBOUNCE_MS);
  const { ref, height } = useElementSize();
  if (!visible || shown.length === 0) return null;
  return (
    <>
      {/* Room below the page's content, so its last rows scroll out from under the toast. */}
      <div aria-hidden data-testid="uploads-toast-room" style={{ height: height + 48 }} />
      <Paper
        ref={ref}
        role="status"
        aria-label={UPLOADING_TOAST_TITLE}
        shadow="md"
        withBorder
        p="md"
        style={{
          position: 'fixed',
          bottom: 16,
          left: 16,
          zIndex: 400,
          width: 'min(24rem, calc(100% - 2rem))',
        }}
      >
        <Text fw={600} mb="xs">
          {UPLOADING_TOAST_TITLE}
        </Text>
        <Stack gap="sm">
          {shown.map((upload) => (
            <div key={upload.id}>
              <Text size="sm" fw={500} truncate="end">
                {upload.projectPath}
              </Text>
              {upload.changes && (
                <Text size="xs" c="dimmed">
                  {describeChanges(upload)}
                </Text>
              )}
              <Progress
                value={percentOf(upload)}
                aria-label={upload.projectPath}
                color={upload.phase === 'failed' ? 'red' : undefined}
                striped={upload.phase === 'waiting-network' || upload.phase === 'retrying'}
                my={4}
              />
              <Text size="xs" c={upload.phase === 'failed' ? 'red.8' : undefined}>
                {describeProgress(upload)}
              </Text>
              <Group gap="xs" mt={4}>
                {upload.phase === 'failed' ? (
                  <>
                    {canRetryFailure(upload.error) && (
                      <Button size="compact-sm" onClick={() => onRetry(upload.id)}>
                        {RETRY}
                      </Button>
                    )}
                    <Button
                      size="compact-sm"
                      variant="default"
                      onClick={() => onDismiss(upload.id)}
                    >
                      {DISMISS}
                    </Button>
                  </>
                ) : (
                  <Button
                    size="compact-sm"
                    variant="default"
                    aria-label={`${CANCEL_UPLOAD} ${upload.projectPath}`}
                    onClick={() => onCancel(upload.id)}
                  >
                    {CANCEL_UPLOAD}
                  </Button>
                )}
              </Group>
            </div>
          ))}
        </Stack>
        <StorageNotice trigger={shown.length} />
      </Paper>
    </>
  );
}
