import { Table } from '@mantine/core';
import { visibleSummary } from '../model/changeset';
import type { TableChangeCounts } from '@contract/changesets';

export interface ChangesetSummaryTableProps {
  summary: readonly TableChangeCounts[] | undefined;
  /** Accessible name of the table. */
  label: string;
}

/**
 * Per table counts of a GeoPackage's changes (spec 001 §2): id, table, insert, update, delete;
 * gpkg_contents is hidden. Renders nothing when no table is left.
 */
export function ChangesetSummaryTable({ summary, label }: ChangesetSummaryTableProps) {
  const rows = visibleSummary(summary);
  if (rows.length === 0) return null;
  return (
    <Table.ScrollContainer minWidth={280}>
      <Table aria-label={label} verticalSpacing={4} horizontalSpacing="xs" fz="sm">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>ID</Table.Th>
            <Table.Th>Table</Table.Th>
            <Table.Th ta="right">Insert</Table.Th>
            <Table.Th ta="right">Update</Table.Th>
            <Table.Th ta="right">Delete</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.map((row, index) => (
            <Table.Tr key={row.table}>
              <Table.Td>{index + 1}</Table.Td>
              <Table.Td style={{ wordBreak: 'break-all' }}>{row.table}</Table.Td>
              <Table.Td ta="right">{row.insert}</Table.Td>
              <Table.Td ta="right">{row.update}</Table.Td>
              <Table.Td ta="right">{row.delete}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
