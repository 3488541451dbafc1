/**
 * GET /app/project/conflicts/{namespace}/{name}: the conflict files the desktop and mobile
 * clients left in the project; GET …/edit?path=: one edit-conflict file, field by field;
 * GET …/rows?path=: the rows a conflicted copy of a GeoPackage differs in from its original.
 */
import type { ConflictList, ConflictRows, EditConflict } from '@contract/conflicts';
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { api } from '@/api';
import { CONFLICTS_FALLBACK, CONFLICT_ROWS_FALLBACK, EDIT_CONFLICT_FALLBACK } from '../model/texts';
import { ROWS_PER_PAGE } from './compare';
import { conflictRowsPath, conflictsPath, editConflictPath } from './paths';

export const conflictsQueryKey = (namespace: string, name: string) =>
  ['timetravel', 'conflicts', namespace, name] as const;

/** The list of one version of the project (the key holds it: a new version asks again). */
export const conflictsQueryOptions = (namespace: string, name: string, version: string) =>
  queryOptions({
    queryKey: [...conflictsQueryKey(namespace, name), version] as const,
    queryFn: ({ signal }) =>
      api.get<ConflictList>(conflictsPath(namespace, name), {
        signal,
        fallbackMessage: CONFLICTS_FALLBACK,
      }),
    staleTime: 30_000,
    meta: { silent: true },
  });

export const editConflictQueryOptions = (namespace: string, name: string, path: string) =>
  queryOptions({
    queryKey: [...conflictsQueryKey(namespace, name), 'edit', path] as const,
    queryFn: ({ signal }) =>
      api.get<EditConflict>(editConflictPath(namespace, name), {
        query: { path },
        signal,
        fallbackMessage: EDIT_CONFLICT_FALLBACK,
      }),
    staleTime: 30_000,
    meta: { silent: true },
  });

/** A page of the rows 'Keep this copy' would change (old: the original, new: the copy). */
export const conflictRowsQueryOptions = (
  namespace: string,
  name: string,
  version: string,
  path: string,
  page: number,
) =>
  queryOptions({
    queryKey: [...conflictsQueryKey(namespace, name), version, 'rows', path, page] as const,
    queryFn: ({ signal }) =>
      api.get<ConflictRows>(conflictRowsPath(namespace, name), {
        query: { path, page, per_page: ROWS_PER_PAGE },
        signal,
        fallbackMessage: CONFLICT_ROWS_FALLBACK,
      }),
    staleTime: 30_000,
    placeholderData: keepPreviousData,
    meta: { silent: true },
  });
