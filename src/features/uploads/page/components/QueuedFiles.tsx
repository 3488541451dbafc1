import { Text } from '@mantine/core';
import type { QueuedFile } from '../../model/queued';
import { QUEUED_FILE_LABELS } from '../../model/outboxTexts';

/** Files listed at most; the rest are counted. */
const MAX_LISTED = 8;

/** The files a queued upload adds, updates and removes (issue 31), under its counts. */
export function QueuedFiles({ files }: { files?: readonly QueuedFile[] }) {
  if (!files?.length) return null;
  return (
    <>
      <ul aria-label="Files" style={{ margin: '4px 0 0', paddingLeft: '1.2em' }}>
        {files.slice(0, MAX_LISTED).map((file) => (
          <Text component="li" size="sm" key={`${file.kind}:${file.path}`}>
            {file.path}{' '}
            <Text span size="xs" c="dimmed">
              ({QUEUED_FILE_LABELS[file.kind]})
            </Text>
          </Text>
        ))}
      </ul>
      {files.length > MAX_LISTED && (
        <Text size="xs" c="dimmed">
          +{files.length - MAX_LISTED}
        </Text>
      )}
    </>
  );
}
