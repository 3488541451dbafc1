import type { CompareFile } from '@contract/compare';
import { Alert, Badge, Button, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { useQuery } from '@tanstack/react-query';
import { LoadingIndicator } from '@/components/LoadingIndicator';
import { formatFileSize } from '@/lib/fileSize';
import { FILE_GROUPS, FileLine } from '@/features/history';
import { compareQueryOptions, compareRowsQueryOptions } from '../api/compare';
import {
  COMPARE_VERSIONS,
  HIDE_ROWS,
  NO_DIFFERENCES,
  PICK_TWO_VERSIONS,
  SAME_VERSION,
  SHOW_ROWS,
  compareTitle,
} from '../model/texts';
import { ComparePicker } from './ComparePicker';
import { RowChanges } from './RowChanges';

export interface CompareViewProps {
  namespace: string;
  projectName: string;
  /** The project's latest version (the versions offered are v1 … latest). */
  latest: string;
  from: string | undefined;
  to: string | undefined;
  onChange: (search: { from?: string; to?: string }) => void;
}

/**
 * Compare two versions (issue 20): pick `from` and `to` (either order; 'Swap versions' turns
 * the comparison round), then the files added, edited and removed going from one to the
 * other, and for each GeoPackage its net row changes.
 */
export function CompareView({
  namespace,
  projectName,
  latest,
  from,
  to,
  onChange,
}: CompareViewProps) {
  let body;
  if (!from || !to) body = <Text c="dimmed">{PICK_TWO_VERSIONS}</Text>;
  else if (from === to) body = <Text c="dimmed">{SAME_VERSION}</Text>;
  else body = <Comparison namespace={namespace} projectName={projectName} from={from} to={to} />;
  return (
    <Stack gap={0}>
      <Title order={2} fz="h4" mb="sm">
        {from && to ? compareTitle(from, to) : COMPARE_VERSIONS}
      </Title>
      <ComparePicker latest={latest} from={from} to={to} onChange={onChange} />
      {body}
    </Stack>
  );
}

function Comparison({
  namespace,
  projectName,
  from,
  to,
}: {
  namespace: string;
  projectName: string;
  from: string;
  to: string;
}) {
  const query = useQuery(compareQueryOptions(namespace, projectName, from, to));
  if (query.isPending) return <LoadingIndicator label="Comparing versions" size="md" />;
  if (query.isError) {
    return (
      <Alert color="red" role="alert">
        {query.error.message}
      </Alert>
    );
  }
  const files = query.data.files;
  if (files.length === 0) return <Text c="dimmed">{NO_DIFFERENCES}</Text>;
  return (
    <Stack gap="md">
      {FILE_GROUPS.map(({ key, label }) => {
        const group = files.filter((file) => file.change === key);
        return (
          <Paper key={key} component="section" aria-label={label} withBorder radius="md" p="md">
            <Group gap="xs" mb="sm">
              <Title order={3} fz="h5">
                {label}
              </Title>
              <Badge size="sm" variant="light">
                {group.length}
              </Badge>
            </Group>
            {group.length === 0 ? (
              <Text size="sm" c="dimmed">
                No files
              </Text>
            ) : (
              <Stack gap="md">
                {group.map((file) => (
                  <ComparedFile
                    key={file.path}
                    namespace={namespace}
                    projectName={projectName}
                    from={from}
                    to={to}
                    file={file}
                  />
                ))}
              </Stack>
            )}
          </Paper>
        );
      })}
    </Stack>
  );
}

/** 'size (vK)' of one side of a compared file. */
function sideText(side: CompareFile['from']): string {
  return side ? `${formatFileSize(side.size)} (${side.version})` : '';
}

function ComparedFile({
  namespace,
  projectName,
  from,
  to,
  file,
}: {
  namespace: string;
  projectName: string;
  from: string;
  to: string;
  file: CompareFile;
}) {
  // An edited GeoPackage shows its rows at once; one added or removed (every row inserted or
  // deleted) on request.
  const [rows, { toggle }] = useDisclosure(file.change === 'updated');
  const sides = [sideText(file.from), sideText(file.to)].filter(Boolean).join(' → ');
  return (
    <div role="group" aria-label={file.path}>
      <FileLine path={file.path} detail={sides}>
        {file.versioned && file.change !== 'updated' && (
          <Button size="compact-xs" variant="subtle" onClick={toggle}>
            {rows ? HIDE_ROWS : SHOW_ROWS}
          </Button>
        )}
      </FileLine>
      {file.versioned && rows && (
        <Stack mt="xs" pl={26}>
          <RowChanges
            path={file.path}
            rows={(page) =>
              compareRowsQueryOptions(namespace, projectName, { from, to, path: file.path, page })
            }
          />
        </Stack>
      )}
    </div>
  );
}
