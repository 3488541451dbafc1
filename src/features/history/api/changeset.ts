/**
 * GET /v1/resource/changesets/{namespace}/{name}/{version}?path=: the row-level changes of one
 * GeoPackage in one version, geometries as WKT; kept for offline use as the other reads are.
 */
import { queryOptions } from '@tanstack/react-query';
import { api } from '@/api';
import { stableKey } from '@/offline/offlineCache';
import { withOfflineCopy } from '@/offline/instance';
import type { Changeset, ChangesetEntry } from '@contract/changesets';
import type { ChangesetPending } from '@contract/history';
import { DISPLAY_CHANGESET_FALLBACK } from '../model/changeset';
import { CHANGESET_POLL_LIMIT, CHANGESET_POLL_MS } from '../model/version';

export interface ChangesetAnswer {
  /** The server is still calculating it (202 `{"status": "pending"}`). */
  pending: boolean;
  entries: ChangesetEntry[];
}

export async function fetchChangeset(
  namespace: string,
  name: string,
  version: string,
  path: string,
  signal?: AbortSignal,
): Promise<ChangesetAnswer> {
  // Saved for offline use (issue 31): offline, a changeset opened before shows as it was; one
  // never opened says so (NOT_SAVED_OFFLINE), not that it cannot be calculated.
  return withOfflineCopy(stableKey('changeset', namespace, name, version, path), async () => {
    const data = await api.get<Changeset | ChangesetPending>(
      `/v1/resource/changesets/${encodeURIComponent(namespace)}/${encodeURIComponent(name)}/${encodeURIComponent(version)}`,
      { query: { path }, signal, fallbackMessage: DISPLAY_CHANGESET_FALLBACK },
    );
    // 200: the entries; 202: still being calculated (`{"status": "pending"}`).
    return Array.isArray(data) ? { pending: false, entries: data } : { pending: true, entries: [] };
  });
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
    // A version's changes never change once calculated.
    staleTime: Infinity,
    // Runs offline too, so the saved copy is read (withOfflineCopy): paused while offline, a
    // changeset opened before said 'Loading changes' for good.
    networkMode: 'always',
    refetchInterval: (query) =>
      query.state.data?.pending && query.state.dataUpdateCount < CHANGESET_POLL_LIMIT
        ? CHANGESET_POLL_MS
        : false,
  });
