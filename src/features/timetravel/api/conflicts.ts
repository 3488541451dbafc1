/**
 * GET /app/project/conflicts/{namespace}/{name}: the conflict files the desktop and mobile
 * clients left in the project; GET …/edit?path=: one edit-conflict file, field by field.
 */
import type { ConflictList, EditConflict } from '@contract/conflicts';
import { queryOptions } from '@tanstack/react-query';
import { api } from '@/api';
import { CONFLICTS_FALLBACK, EDIT_CONFLICT_FALLBACK } from '../model/texts';
import { conflictsPath, editConflictPath } from './paths';

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
