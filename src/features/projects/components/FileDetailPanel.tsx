import { Button, Group, Stack, Text, Title } from '@mantine/core';
import { IconDownload, IconTrash } from '@tabler/icons-react';
import { errorMessage } from '@/api';
import { SidePanel } from '@/components/SidePanel';
import { formatFileSize } from '@/lib/fileSize';
import { notifyError } from '@/lib/notify';
import { formatDateTime } from '@/lib/time';
import { DOWNLOAD_FILE_FALLBACK, useDownloadRawFileMutation } from '../api/rawFile';
import { DELETE_FILE, fileName, type FileChangeKind, type ListedFile } from '../model/files';
import { ChangeBadge } from './FileBrowser';
import { FilePreview } from './FilePreview';
import { OfflineReason } from '@/offline/components/OfflineReason';
import { useOnline } from '@/offline/useOnline';

export interface FileDetailPanelProps {
  namespace: string;
  projectName: string;
  /** The file; undefined closes the panel (or the path is not in the project). */
  file: ListedFile | undefined;
  onClose: () => void;
  /** The file's pending change (state badge). */
  change?: FileChangeKind;
  /** Size of the chosen file when the change updates it. */
  newSize?: number;
  /** Stages the file's deletion; shown with upload permission when the file is not removed. */
  onDelete?: () => void;
}

export const NEW_SIZE = 'New size';

/**
 * The file detail sidebar (spec 001 §2): name, state badge, modified time, size (plus the new
 * size when updated), download, 'Delete file' and a preview. A file only chosen for upload
 * (New file) is not on the server yet: it has no download and no preview.
 */
export function FileDetailPanel({
  namespace,
  projectName,
  file,
  onClose,
  change,
  newSize,
  onDelete,
}: FileDetailPanelProps) {
  const download = useDownloadRawFileMutation();
  const online = useOnline();
  const name = file ? fileName(file.path) : '';
  const onServer = change !== 'added';
  const ref = file && onServer ? { namespace, name: projectName, path: file.path } : null;
  const canDelete = onDelete !== undefined && change !== 'removed';
  return (
    <SidePanel
      opened={file !== undefined}
      onClose={onClose}
      title={name}
      header={
        <Stack gap={4} align="flex-start">
          <Title order={2} fz="h4" style={{ wordBreak: 'break-all' }}>
            {name}
          </Title>
          {change && <ChangeBadge change={change} />}
        </Stack>
      }
      footer={
        (ref || canDelete) && (
          <Group gap="xs">
            {ref && (
              <OfflineReason offline={!online}>
                <Button
                  leftSection={<IconDownload size={16} aria-hidden />}
                  loading={download.isPending}
                  disabled={!online}
                  onClick={() =>
                    download.mutate(ref, {
                      onError: (error) => notifyError(errorMessage(error, DOWNLOAD_FILE_FALLBACK)),
                    })
                  }
                >
                  Download
                </Button>
              </OfflineReason>
            )}
            {canDelete && (
              <Button
                variant="default"
                color="red"
                leftSection={<IconTrash size={16} aria-hidden />}
                onClick={onDelete}
              >
                {DELETE_FILE}
              </Button>
            )}
          </Group>
        )
      }
    >
      {file && (
        <Stack gap="sm">
          {/* A time the server does not know (null) is not shown. */}
          {file.mtime !== null && (
            <div>
              <Text size="xs" c="dimmed">
                Modified
              </Text>
              <Text size="sm">{formatDateTime(file.mtime)}</Text>
            </div>
          )}
          <div>
            <Text size="xs" c="dimmed">
              Size
            </Text>
            <Text size="sm">{formatFileSize(file.size)}</Text>
          </div>
          {change === 'updated' && newSize !== undefined && (
            <div>
              <Text size="xs" c="dimmed">
                {NEW_SIZE}
              </Text>
              <Text size="sm">{formatFileSize(newSize)}</Text>
            </div>
          )}
          {ref && <FilePreview key={file.path} file={ref} size={file.size} />}
        </Stack>
      )}
    </SidePanel>
  );
}
