import { Table, Text } from '@mantine/core';
import { useState, type CSSProperties } from 'react';
import { Paginator } from '@/components/Paginator';
import { pageOf } from '@/features/projects';
import {
  CHANGESET_ROWS_PER_PAGE,
  CHANGESET_SCROLL_HEIGHT,
  NO_CHANGESET_FOR_LAYER,
  type ChangesetTable as ChangesetTableData,
} from '../model/changeset';
import { ChangeTypeIcon } from './ChangeTypeIcon';

/** The Change column's width (px). */
const CHANGE_WIDTH = 56;
/** The key column kept in place beside the Change column when a wide table scrolls. */
const KEY_COLUMN = 'fid';

/**
 * A cell kept in place while the table scrolls sideways (issue 31: the Change and fid columns
 * scrolled away). Opaque, so the columns scrolling under it do not show through; a striped
 * row's cell keeps the stripe.
 */
export function stickyCell(left: number, striped: boolean, header = false): CSSProperties {
  return {
    position: 'sticky',
    left,
    zIndex: header ? 3 : 1,
    backgroundColor: 'var(--mantine-color-body)',
    backgroundImage: striped
      ? 'linear-gradient(var(--table-striped-color), var(--table-striped-color))'
      : undefined,
  };
}

/**
 * The changes of one database table (spec 001 §2 "File version detail"): a change-type icon
 * column and a column per field, 10 rows per page, scrolling within 400 px. A wide table shows
 * its horizontal scrollbar at all times and keeps the Change and fid columns in place.
 */
export function ChangesetTable({ table }: { table: ChangesetTableData }) {
  const [page, setPage] = useState(1);
  const rows = pageOf(table.rows, page, CHANGESET_ROWS_PER_PAGE);
  const width = CHANGE_WIDTH + table.columns.length * 140;
  const keyed = table.columns[0] === KEY_COLUMN;
  return (
    <>
      <Table.ScrollContainer
        minWidth={width}
        maxHeight={CHANGESET_SCROLL_HEIGHT}
        scrollAreaProps={{ type: 'always' }}
      >
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
              <Table.Th w={CHANGE_WIDTH} style={stickyCell(0, false, true)}>
                Change
              </Table.Th>
              {table.columns.map((column, index) => (
                <Table.Th
                  key={column}
                  style={keyed && index === 0 ? stickyCell(CHANGE_WIDTH, false, true) : undefined}
                >
                  {column}
                </Table.Th>
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
                <Table.Td w={CHANGE_WIDTH} style={stickyCell(0, index % 2 === 0)}>
                  <ChangeTypeIcon type={row.type} />
                </Table.Td>
                {table.columns.map((column, at) => (
                  <Table.Td
                    key={column}
                    style={{
                      wordBreak: 'break-word',
                      minWidth: 100,
                      ...(keyed && at === 0 ? stickyCell(CHANGE_WIDTH, index % 2 === 0) : {}),
                    }}
                  >
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
