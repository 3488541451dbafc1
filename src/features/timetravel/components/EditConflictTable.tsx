import { Alert, Table, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { LoadingIndicator } from '@/components/LoadingIndicator';
import { formatChangeValue } from '@/features/history';
import { editConflictQueryOptions } from '../api/conflicts';
import { EDIT_CONFLICT_TABLE, NO_CONFLICTING_FIELDS, fieldName } from '../model/texts';

/**
 * An edit-conflict file (issue 20): per conflicting field of a feature its value in the common
 * base, ours (the value the rebase kept) and theirs (the value it overwrote).
 */
export function EditConflictTable({
  namespace,
  projectName,
  path,
}: {
  namespace: string;
  projectName: string;
  path: string;
}) {
  const query = useQuery(editConflictQueryOptions(namespace, projectName, path));
  if (query.isPending) return <LoadingIndicator label="Loading the edit conflict" size="md" />;
  if (query.isError) {
    return (
      <Alert color="red" role="alert">
        {query.error.message}
      </Alert>
    );
  }
  if (query.data.fields.length === 0) return <Text c="dimmed">{NO_CONFLICTING_FIELDS}</Text>;
  return (
    <Table.ScrollContainer minWidth={640}>
      <Table aria-label={EDIT_CONFLICT_TABLE} verticalSpacing="xs" fz="sm" striped>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Table</Table.Th>
            <Table.Th>Feature</Table.Th>
            <Table.Th>Field</Table.Th>
            <Table.Th>Base</Table.Th>
            <Table.Th>Ours</Table.Th>
            <Table.Th>Theirs</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {query.data.fields.map((field) => (
            <Table.Tr key={`${field.table}\0${field.fid}\0${field.column}`}>
              <Table.Td>{field.table}</Table.Td>
              <Table.Td>{field.fid}</Table.Td>
              <Table.Td>{fieldName(field)}</Table.Td>
              <Table.Td style={{ wordBreak: 'break-word' }}>
                {formatChangeValue(field.base)}
              </Table.Td>
              <Table.Td style={{ wordBreak: 'break-word' }}>
                {formatChangeValue(field.ours)}
              </Table.Td>
              <Table.Td style={{ wordBreak: 'break-word' }}>
                {formatChangeValue(field.theirs)}
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
