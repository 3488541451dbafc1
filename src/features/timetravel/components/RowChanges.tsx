import { Alert, Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { LoadingIndicator } from '@/components/LoadingIndicator';
import { Paginator } from '@/components/Paginator';
import { ChangesetSummaryTable, ChangesetTable, changesetTables } from '@/features/history';
import { COMPARE_ROWS_PER_PAGE, compareRowsQueryOptions } from '../api/compare';
import { NO_ROW_CHANGES, rowsCannotBeCompared } from '../model/texts';

export interface RowChangesProps {
  namespace: string;
  projectName: string;
  from: string;
  to: string;
  /** A GeoPackage or SQLite file. */
  path: string;
}

/**
 * The net row changes of one GeoPackage between two versions: each changed row once, from its
 * value in `from` to its value in `to` (the server works them out), with the per-table counts
 * and a table of rows per database table. Long lists come from the server a page at a time.
 */
export function RowChanges({ namespace, projectName, from, to, path }: RowChangesProps) {
  const [page, setPage] = useState(1);
  const query = useQuery(compareRowsQueryOptions(namespace, projectName, { from, to, path, page }));
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
        perPage={COMPARE_ROWS_PER_PAGE}
        onChange={setPage}
        label={`Row pages of ${path}`}
      />
    </Stack>
  );
}
