/**
 * GET /v1/project/version/{project id}/{version}: one version with its changed files and the
 * changeset summaries of its GeoPackages. The server calculates changesets in the background,
 * so while one is missing the detail is asked again every few seconds.
 */
import { queryOptions } from '@tanstack/react-query';
import { api } from '@/api';
import { stableKey } from '@/offline/offlineCache';
import { withOfflineCopy } from '@/offline/instance';
import {
  CHANGESET_POLL_LIMIT,
  CHANGESET_POLL_MS,
  FETCH_VERSION_FALLBACK,
  pendingChangesets,
  type VersionDetail,
} from '../model/version';

export async function fetchVersion(
  projectId: string,
  version: string,
  signal?: AbortSignal,
): Promise<VersionDetail> {
  return withOfflineCopy(stableKey('version', projectId, version), async () => {
    return api.get<VersionDetail>(
      `/v1/project/version/${encodeURIComponent(projectId)}/${encodeURIComponent(version)}`,
      { signal, fallbackMessage: FETCH_VERSION_FALLBACK },
    );
  });
}

export const versionQueryKey = (projectId: string, version: string) =>
  ['history', 'version', projectId, version] as const;

export const versionQueryOptions = (projectId: string, version: string) =>
  queryOptions({
    queryKey: versionQueryKey(projectId, version),
    queryFn: ({ signal }) => fetchVersion(projectId, version, signal),
    staleTime: 30_000,
    networkMode: 'always',
    refetchInterval: (query) => {
      const data = query.state.data;
      if (!data || pendingChangesets(data).length === 0) return false;
      return query.state.dataUpdateCount < CHANGESET_POLL_LIMIT ? CHANGESET_POLL_MS : false;
    },
    // The views show the failure themselves.
    meta: { silent: true },
  });
