/** GET /app/project/access-requests: the logged user's own requests. */
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { api } from '@/api';
import {
  ACCESS_REQUESTS_KEY,
  FETCH_ACCESS_REQUESTS_FALLBACK,
  accessRequestListQuery,
  type AccessRequestList,
} from '../model/accessRequest';

export async function fetchMyAccessRequests(
  page: number,
  signal?: AbortSignal,
): Promise<AccessRequestList> {
  return api.get<AccessRequestList>('/app/project/access-requests', {
    query: accessRequestListQuery(page),
    signal,
    fallbackMessage: FETCH_ACCESS_REQUESTS_FALLBACK,
  });
}

export const myAccessRequestsQueryOptions = (page: number) =>
  queryOptions({
    queryKey: [...ACCESS_REQUESTS_KEY, 'mine', page] as const,
    queryFn: ({ signal }) => fetchMyAccessRequests(page, signal),
    placeholderData: keepPreviousData,
    staleTime: 30_000,
  });
