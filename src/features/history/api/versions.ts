/** GET /v1/project/versions/paginated/{namespace}/{name}: a page of versions with the count. */
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { api } from '@/api';
import { stableKey } from '@/offline/offlineCache';
import { withOfflineCopy } from '@/offline/instance';
import {
  FETCH_VERSIONS_FALLBACK,
  type VersionList,
  type VersionListParams,
} from '../model/version';

export async function fetchVersions(
  namespace: string,
  name: string,
  params: VersionListParams,
  signal?: AbortSignal,
): Promise<VersionList> {
  return withOfflineCopy(stableKey('versions', namespace, name, params), async () => {
    return api.get<VersionList>(
      `/v1/project/versions/paginated/${encodeURIComponent(namespace)}/${encodeURIComponent(name)}`,
      { query: { ...params }, signal, fallbackMessage: FETCH_VERSIONS_FALLBACK },
    );
  });
}

export const versionsQueryKey = (namespace: string, name: string) =>
  ['history', 'versions', namespace, name] as const;

export const versionsQueryOptions = (namespace: string, name: string, params: VersionListParams) =>
  queryOptions({
    queryKey: [...versionsQueryKey(namespace, name), params] as const,
    queryFn: ({ signal }) => fetchVersions(namespace, name, params, signal),
    placeholderData: keepPreviousData,
    staleTime: 30_000,
    networkMode: 'always',
  });
