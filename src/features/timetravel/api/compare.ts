/**
 * GET /app/project/compare/{namespace}/{name}?from&to: the files changed between two versions;
 * GET …/rows: the net row changes of one GeoPackage between them, a page at a time.
 */
import type { Comparison, CompareRows, CompareRowsQuery } from '@contract/compare';
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { api } from '@/api';
import { COMPARE_FALLBACK, COMPARE_ROWS_FALLBACK } from '../model/texts';
import { comparePath, compareRowsPath } from './paths';

/** Rows asked per page, of compare's rows and a conflicted copy's (the server allows up to 500). */
export const ROWS_PER_PAGE = 500;

export const compareQueryOptions = (namespace: string, name: string, from: string, to: string) =>
  queryOptions({
    queryKey: ['timetravel', 'compare', namespace, name, from, to] as const,
    queryFn: ({ signal }) =>
      api.get<Comparison>(comparePath(namespace, name), {
        query: { from, to },
        signal,
        fallbackMessage: COMPARE_FALLBACK,
      }),
    // Versions never change: what they hold compares the same way forever.
    staleTime: Infinity,
    meta: { silent: true },
  });

export const compareRowsQueryOptions = (
  namespace: string,
  name: string,
  query: Required<Pick<CompareRowsQuery, 'from' | 'to' | 'path' | 'page'>>,
) =>
  queryOptions({
    queryKey: ['timetravel', 'compare-rows', namespace, name, query] as const,
    queryFn: ({ signal }) =>
      api.get<CompareRows>(compareRowsPath(namespace, name), {
        query: { ...query, per_page: ROWS_PER_PAGE },
        signal,
        fallbackMessage: COMPARE_ROWS_FALLBACK,
      }),
    staleTime: Infinity,
    placeholderData: keepPreviousData,
    meta: { silent: true },
  });
