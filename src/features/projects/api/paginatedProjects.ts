/** GET /v1/project/paginated: a page of projects with the total count. */
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { api } from '@/api';
import { stableKey } from '@/offline/offlineCache';
import { withOfflineCopy } from '@/offline/instance';
import {
  FETCH_PROJECTS_FALLBACK,
  type ProjectList,
  type ProjectListParams,
} from '../model/projectList';

export async function fetchPaginatedProjects(
  params: ProjectListParams,
  signal?: AbortSignal,
): Promise<ProjectList> {
  // Saved for offline use; offline, the copy saved last is shown.
  return withOfflineCopy(stableKey('projects', params), async () => {
    return api.get<ProjectList>('/v1/project/paginated', {
      query: { ...params },
      signal,
      fallbackMessage: FETCH_PROJECTS_FALLBACK,
    });
  });
}

export const paginatedProjectsQueryOptions = (params: ProjectListParams) =>
  queryOptions({
    queryKey: ['projects', 'paginated', params] as const,
    queryFn: ({ signal }) => fetchPaginatedProjects(params, signal),
    placeholderData: keepPreviousData,
    staleTime: 30_000,
    // Runs offline too: the saved copy answers (or says it was never saved).
    networkMode: 'always',
  });
