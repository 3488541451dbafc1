/**
 * GET /app/project/access-request/{namespace}: incoming requests for a workspace's projects,
 * or for one of them with `project_name` (the project screen).
 */
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { api } from '@/api';
import {
  ACCESS_REQUESTS_KEY,
  FETCH_ACCESS_REQUESTS_FALLBACK,
  accessRequestListQuery,
  type AccessRequestList,
} from '../model/accessRequest';

export async function fetchWorkspaceAccessRequests(
  namespace: string,
  page: number,
  projectName?: string,
  signal?: AbortSignal,
): Promise<AccessRequestList> {
  return api.get<AccessRequestList>(
    `/app/project/access-request/${encodeURIComponent(namespace)}`,
    {
      query: { ...accessRequestListQuery(page), project_name: projectName },
      signal,
      fallbackMessage: FETCH_ACCESS_REQUESTS_FALLBACK,
    },
  );
}

export const workspaceAccessRequestsQueryOptions = (
  namespace: string,
  page: number,
  projectName?: string,
) =>
  queryOptions({
    queryKey: [...ACCESS_REQUESTS_KEY, 'workspace', namespace, projectName ?? null, page] as const,
    queryFn: ({ signal }) => fetchWorkspaceAccessRequests(namespace, page, projectName, signal),
    placeholderData: keepPreviousData,
    staleTime: 30_000,
  });
