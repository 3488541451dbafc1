import { Table, Text } from '@mantine/core';
import { useState } from 'react';
import { Paginator } from '@/components/Paginator';
import { pageOf } from '@/features/projects';
import {
  CHANGESET_ROWS_PER_PAGE,
  CHANGESET_SCROLL_HEIGHT,
  NO_CHANGESET_FOR_LAYER,
  type ChangesetTable as ChangesetTableData,
} from '../model/changeset';
import { ChangeTypeIcon } from './ChangeTypeIcon';

/**
 * The changes of one database table (spec 001 §2 "File version detail"): a change-type icon
 * column and a column per field, 10 rows per page, scrolling within 400 px.
 */
export function ChangesetTable({ table }: { table: ChangesetTableData }) {
  const [page, setPage] = useState(1);
  const rows = pageOf(table.rows, page, CHANGESET_ROWS_PER_PAGE);
  const width = 56 + table.columns.length * 140;
  return (
    <>
      <Table.ScrollContainer minWidth={width} maxHeight={CHANGESET_SCROLL_HEIGHT}>
        <Table
          aria-label={`Changes of ${table.name}`}
          stickyHeader
          verticalSpacing={6}
          horizontalSpacing="sm"
          fz="sm"
          striped
        >
          <Table.Thead>
            <Table.Tr>
              <Table.Th w={56}>Change</Table.Th>
              {table.columns.map((column) => (
                <Table.Th key={column}>{column}</Table.Th>
              ))}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {table.rows.length === 0 && (
              <Table.Tr>
                <Table.Td colSpan={table.columns.length + 1}>
                  <Text size="sm" c="dimmed" ta="center" py="md">
                    {NO_CHANGESET_FOR_LAYER}
                  </Text>
                </Table.Td>
              </Table.Tr>
            )}
            {rows.map((row, index) => (
              <Table.Tr key={(page - 1) * CHANGESET_ROWS_PER_PAGE + index}>
                <Table.Td>
                  <ChangeTypeIcon type={row.type} />
                </Table.Td>
                {table.columns.map((column) => (
                  <Table.Td key={column} style={{ wordBreak: 'break-word', minWidth: 100 }}>
                    {row.cells[column] ?? ''}
                  </Table.Td>
                ))}
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      <Paginator
        page={page}
        count={table.rows.length}
        perPage={CHANGESET_ROWS_PER_PAGE}
        onChange={setPage}
        label={`Pages of ${table.name}`}
      />
    </>
  );
}
