/**
 * GET /v1/resource/changesets/{namespace}/{name}/{version}?path=: the row-level changes of one
 * GeoPackage in one version, geometries as WKT.
 */
import { queryOptions } from '@tanstack/react-query';
import { api } from '../../../api';
import { DISPLAY_CHANGESET_FALLBACK, toChangeset, type ChangesetEntry } from '../model/changeset';

export async function fetchChangeset(
  namespace: string,
  name: string,
  version: string,
  path: string,
  signal?: AbortSignal,
): Promise<ChangesetEntry[]> {
  const data = await api.get(
    `/v1/resource/changesets/${encodeURIComponent(namespace)}/${encodeURIComponent(name)}/${encodeURIComponent(version)}`,
    { query: { path }, signal, fallbackMessage: DISPLAY_CHANGESET_FALLBACK },
  );
  return toChangeset(data);
}

export const changesetQueryOptions = (
  namespace: string,
  name: string,
  version: string,
  path: string,
) =>
  queryOptions({
    queryKey: ['history', 'changeset', namespace, name, version, path] as const,
    queryFn: ({ signal }) => fetchChangeset(namespace, name, version, path, signal),
    // A version's changes never change.
    staleTime: Infinity,
  });
