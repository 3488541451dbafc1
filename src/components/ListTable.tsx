/**
 * A list read from the server as a table: the loading indicator while it comes, its error, a
 * dimmed line when it is empty, else a scrollable table with one header row. `row` renders
 * one item's `<Table.Tr>`.
 */
import { Table, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import { ErrorAlert } from './ErrorAlert';
import { LoadingIndicator } from './LoadingIndicator';

interface ListTableProps<T> {
  /** The table's accessible name. */
  label: string;
  loadingLabel: string;
  emptyText: string;
  /** The list query: pending, its error and its items once loaded. */
  pending: boolean;
  error: Error | null;
  items: readonly T[] | undefined;
  /** Header cells; an empty string leaves the cell empty (e.g. above row actions). */
  headers: readonly string[];
  minWidth: number;
  row: (item: T) => ReactNode;
}

export function ListTable<T>(props: ListTableProps<T>) {
  const { items } = props;
  return (
    <>
      {props.pending && <LoadingIndicator label={props.loadingLabel} size="sm" />}
      <ErrorAlert error={props.error} />
      {items && items.length === 0 && (
        <Text size="sm" c="dimmed">
          {props.emptyText}
        </Text>
      )}
      {items && items.length > 0 && (
        <Table.ScrollContainer minWidth={props.minWidth}>
          <Table fz="sm" aria-label={props.label}>
            <Table.Thead>
              <Table.Tr>
                {props.headers.map((header, index) => (
                  <Table.Th key={index}>{header}</Table.Th>
                ))}
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>{items.map(props.row)}</Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
    </>
  );
}
