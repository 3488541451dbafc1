import { Button, Stack, Text, Title } from '@mantine/core';
import { IconDownload } from '@tabler/icons-react';
import { errorMessage } from '../../../api';
import { SidePanel } from '../../../components/SidePanel';
import { formatFileSize } from '../../../lib/fileSize';
import { notifyError } from '../../../lib/notify';
import { formatDateTime } from '../../../lib/time';
import { DOWNLOAD_FILE_FALLBACK, useDownloadRawFileMutation } from '../api/rawFile';
import { fileName } from '../model/files';
import type { ProjectFile } from '../model/project';
import { FilePreview } from './FilePreview';

export interface FileDetailPanelProps {
  namespace: string;
  projectName: string;
  /** The file; undefined closes the panel (or the path is not in the project). */
  file: ProjectFile | undefined;
  onClose: () => void;
}

/** The file detail sidebar (spec 001 §2): name, modified time, size, download and preview. */
export function FileDetailPanel({ namespace, projectName, file, onClose }: FileDetailPanelProps) {
  const download = useDownloadRawFileMutation();
  const name = file ? fileName(file.path) : '';
  const ref = file ? { namespace, name: projectName, path: file.path } : null;
  return (
    <SidePanel
      opened={file !== undefined}
      onClose={onClose}
      title={name}
      header={
        <Title order={2} fz="h4" style={{ wordBreak: 'break-all' }}>
          {name}
        </Title>
      }
      footer={
        ref && (
          <Button
            leftSection={<IconDownload size={16} aria-hidden />}
            loading={download.isPending}
            onClick={() =>
              download.mutate(ref, {
                onError: (error) => notifyError(errorMessage(error, DOWNLOAD_FILE_FALLBACK)),
              })
            }
          >
            Download
          </Button>
        )
      }
    >
      {file && ref && (
        <Stack gap="sm">
          <div>
            <Text size="xs" c="dimmed">
              Modified
            </Text>
            <Text size="sm">{formatDateTime(file.mtime)}</Text>
          </div>
          <div>
            <Text size="xs" c="dimmed">
              Size
            </Text>
            <Text size="sm">{formatFileSize(file.size)}</Text>
          </div>
          <FilePreview key={file.path} file={ref} size={file.size} />
        </Stack>
      )}
    </SidePanel>
  );
}
