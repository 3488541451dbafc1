/** GET /app/project/access-request/{namespace}: incoming requests for a workspace's projects. */
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { api } from '../../../api';
import {
  ACCESS_REQUESTS_KEY,
  FETCH_ACCESS_REQUESTS_FALLBACK,
  accessRequestListQuery,
  toAccessRequestList,
  type AccessRequestList,
} from '../model/accessRequest';

export async function fetchWorkspaceAccessRequests(
  namespace: string,
  page: number,
  signal?: AbortSignal,
): Promise<AccessRequestList> {
  const data = await api.get(`/app/project/access-request/${encodeURIComponent(namespace)}`, {
    query: accessRequestListQuery(page),
    signal,
    fallbackMessage: FETCH_ACCESS_REQUESTS_FALLBACK,
  });
  return toAccessRequestList(data);
}

export const workspaceAccessRequestsQueryOptions = (namespace: string, page: number) =>
  queryOptions({
    queryKey: [...ACCESS_REQUESTS_KEY, 'workspace', namespace, page] as const,
    queryFn: ({ signal }) => fetchWorkspaceAccessRequests(namespace, page, signal),
    placeholderData: keepPreviousData,
    staleTime: 30_000,
  });
