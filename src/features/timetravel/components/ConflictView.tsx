import type { ConflictFile } from '@contract/conflicts';
import type { NewVersion } from '@contract/restore';
import { Alert, Group, Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { IconCheck, IconTrash } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { LoadingIndicator } from '@/components/LoadingIndicator';
import { formatFileSize } from '@/lib/fileSize';
import { formatDateTime } from '@/lib/time';
import { isVersionedFile } from '@contract/protocol';
import type { ProjectFile } from '@contract/projects';
import { FileIcon, fileName } from '@/features/projects';
import { conflictRowsQueryOptions, conflictsQueryOptions } from '../api/conflicts';
import {
  CONFLICTED_COPY,
  DISCARD_COPY,
  KEEP_COPY,
  NOT_A_CONFLICT,
  ORIGINAL,
  ORIGINAL_GONE,
  conflictSummary,
  conflictTitle,
  keepCopyConfirm,
  rowsKeepingChanges,
} from '../model/texts';
import { EditConflictTable } from './EditConflictTable';
import { NewVersionButton } from './NewVersionButton';
import { RowChanges } from './RowChanges';

export interface ConflictViewProps {
  namespace: string;
  projectName: string;
  /** The project's latest version and its files. */
  version: string;
  files: readonly ProjectFile[];
  /** The conflict file. */
  path: string;
  /** Writers and above resolve (the project's `upload` permission). */
  canResolve: boolean;
  onResolved: (made: NewVersion) => void;
  /**
   * A file's preview where one exists (the composition hands in the projects feature's, so
   * its code stays out of the feature's public index and the first screens).
   */
  preview?: (file: ProjectFile) => ReactNode;
}

/**
 * One conflict file (issue 20): a conflicted copy side by side with the file it copies (sizes,
 * dates, previews; for a GeoPackage the rows that keeping the copy would change in the
 * original), an edit conflict as base, ours and theirs per field; 'Keep this copy' (after a
 * confirmation naming what it overwrites) and 'Discard copy' each make a new version.
 */
export function ConflictView({
  namespace,
  projectName,
  version,
  files,
  path,
  canResolve,
  onResolved,
  preview,
}: ConflictViewProps) {
  const query = useQuery(conflictsQueryOptions(namespace, projectName, version));
  if (query.isPending) return <LoadingIndicator label="Loading conflicts" size="md" />;
  if (query.isError) {
    return (
      <Alert color="red" role="alert">
        {query.error.message}
      </Alert>
    );
  }
  const conflict = query.data.conflicts.find((item) => item.path === path);
  if (!conflict) return <Text c="dimmed">{NOT_A_CONFLICT}</Text>;
  const file = (at: string | null) => (at ? files.find((item) => item.path === at) : undefined);
  return (
    <Stack gap="md">
      <div>
        <Title order={2} fz="h4" style={{ wordBreak: 'break-all' }}>
          {conflictTitle(conflict.path)}
        </Title>
        <Text size="sm" c="dimmed">
          {conflictSummary(conflict)}
        </Text>
      </div>
      {canResolve && (
        <Group gap="xs">
          <NewVersionButton
            namespace={namespace}
            projectName={projectName}
            action={{ kind: 'resolve-conflict', body: { path, action: 'keep' } }}
            label={KEEP_COPY}
            variant="filled"
            leftSection={<IconCheck size={16} aria-hidden />}
            confirm={keepCopyConfirm(conflict)}
            onDone={onResolved}
          />
          <NewVersionButton
            namespace={namespace}
            projectName={projectName}
            action={{ kind: 'resolve-conflict', body: { path, action: 'discard' } }}
            label={DISCARD_COPY}
            color="red"
            leftSection={<IconTrash size={16} aria-hidden />}
            onDone={onResolved}
          />
        </Group>
      )}
      {conflict.kind === 'conflicted_copy' ? (
        <CopyBesideOriginal
          namespace={namespace}
          projectName={projectName}
          latest={version}
          conflict={conflict}
          original={file(conflict.original)}
          copy={file(conflict.path)}
          preview={preview}
        />
      ) : (
        <EditConflictTable namespace={namespace} projectName={projectName} path={path} />
      )}
    </Stack>
  );
}

function CopyBesideOriginal({
  namespace,
  projectName,
  latest,
  conflict,
  original,
  copy,
  preview,
}: {
  namespace: string;
  projectName: string;
  /** The project's latest version (the rows are asked again for a new one). */
  latest: string;
  conflict: ConflictFile;
  original: ProjectFile | undefined;
  copy: ProjectFile | undefined;
  preview: ConflictViewProps['preview'];
}) {
  // A GeoPackage's copy: the rows keeping it would change in the original (even a missing one).
  const rows = isVersionedFile(conflict.original ?? conflict.path);
  return (
    <>
      <SimpleGrid cols={{ base: 1, md: 2 }}>
        <FileSide
          title={ORIGINAL}
          file={original}
          missing={conflict.original ?? ''}
          preview={preview}
        />
        <FileSide title={CONFLICTED_COPY} file={copy} missing={conflict.path} preview={preview} />
      </SimpleGrid>
      {rows && (
        <Paper
          component="section"
          aria-label={rowsKeepingChanges(conflict.original ?? '')}
          withBorder
          radius="md"
          p="md"
        >
          <Title order={3} fz="h5" mb="sm">
            {rowsKeepingChanges(conflict.original ?? '')}
          </Title>
          <RowChanges
            path={conflict.path}
            rows={(page) =>
              conflictRowsQueryOptions(namespace, projectName, latest, conflict.path, page)
            }
          />
        </Paper>
      )}
    </>
  );
}

function FileSide({
  title,
  file,
  missing,
  preview,
}: {
  title: string;
  file: ProjectFile | undefined;
  preview: ConflictViewProps['preview'];
  /** The path shown when the file is not in the project. */
  missing: string;
}) {
  return (
    <Paper component="section" aria-label={title} withBorder radius="md" p="md">
      <Title order={3} fz="h5" mb="xs">
        {title}
      </Title>
      <Group gap="xs" wrap="nowrap" mb="xs">
        <FileIcon entry={{ type: 'file', name: fileName(file?.path ?? missing) }} />
        <Text size="sm" style={{ wordBreak: 'break-all' }}>
          {file?.path ?? missing}
        </Text>
      </Group>
      {file ? (
        <Stack gap="xs">
          <Text size="sm">
            <Text span c="dimmed" size="xs">
              Size{' '}
            </Text>
            {formatFileSize(file.size)}
          </Text>
          {/* A time the server does not know (null) is not shown. */}
          {file.mtime !== null && (
            <Text size="sm">
              <Text span c="dimmed" size="xs">
                Modified{' '}
              </Text>
              {formatDateTime(file.mtime)}
            </Text>
          )}
          {preview?.(file)}
        </Stack>
      ) : (
        <Text size="sm" c="dimmed">
          {ORIGINAL_GONE}
        </Text>
      )}
    </Paper>
  );
}
