import type { CompareRows } from '@contract/compare';
import { Alert, Stack, Text } from '@mantine/core';
import { useQuery, type UseQueryOptions } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { LoadingIndicator } from '@/components/LoadingIndicator';
import { Paginator } from '@/components/Paginator';
import { ChangesetSummaryTable, ChangesetTable, changesetTables } from '@/features/history';
import { ROWS_PER_PAGE } from '../api/compare';
import { NO_ROW_CHANGES, rowsCannotBeCompared } from '../model/texts';

/** What a page of row changes answers (compare's rows and a conflicted copy's rows alike). */
export type RowsPage = Pick<CompareRows, 'status' | 'error' | 'summary' | 'count' | 'entries'>;

export interface RowChangesProps<T extends RowsPage, K extends readonly unknown[]> {
  /** The GeoPackage or SQLite file (names the tables and the loading state). */
  path: string;
  /** The query of one page of rows (pages count from 1). */
  rows: (page: number) => UseQueryOptions<T, Error, T, K>;
}

/**
 * The row changes between two states of one GeoPackage, as the server works them out (each
 * changed row once, from its old to its new value): the per-table counts and a table of rows
 * per database table. Long lists come from the server a page at a time.
 */
export function RowChanges<T extends RowsPage, K extends readonly unknown[]>({
  path,
  rows,
}: RowChangesProps<T, K>) {
  const [page, setPage] = useState(1);
  const query = useQuery(rows(page));
  const data = query.data;
  const tables = useMemo(
    () => (data && data.status === 'done' ? changesetTables(data.entries, data.summary) : []),
    [data],
  );
  if (query.isPending) return <LoadingIndicator label={`Loading the rows of ${path}`} size="sm" />;
  if (query.isError) {
    return (
      <Alert color="red" role="alert">
        {query.error.message}
      </Alert>
    );
  }
  if (query.data.status === 'error') {
    return (
      <Text size="sm" c="red.8">
        {rowsCannotBeCompared(query.data.error)}
      </Text>
    );
  }
  if (tables.length === 0) {
    return (
      <Text size="sm" c="dimmed">
        {NO_ROW_CHANGES}
      </Text>
    );
  }
  return (
    <Stack gap="sm">
      <ChangesetSummaryTable summary={query.data.summary} label={`Row changes of ${path}`} />
      {tables.map((table) => (
        <div key={`${page}/${table.name}`}>
          <Text size="sm" fw={600} mb={4}>
            {table.name}
          </Text>
          <ChangesetTable table={table} />
        </div>
      ))}
      <Paginator
        page={page}
        count={query.data.count}
        perPage={ROWS_PER_PAGE}
        onChange={setPage}
        label={`Row pages of ${path}`}
      />
    </Stack>
  );
}
