/** GET /app/auth/user/search?namespace=&like=: users to share a project with. */
import { queryOptions } from '@tanstack/react-query';
import { api } from '@/api';
import type { UserSearchResult } from '../model/collaborators';

export async function searchUsers(
  namespace: string,
  like: string,
  signal?: AbortSignal,
): Promise<UserSearchResult[]> {
  const data = await api.get<UserSearchResult[] | { data?: UserSearchResult[] } | undefined>(
    '/app/auth/user/search',
    { query: { namespace, like }, signal },
  );
  if (Array.isArray(data)) return data;
  return Array.isArray(data?.data) ? data.data : [];
}

export const userSearchQueryOptions = (namespace: string, like: string) =>
  queryOptions({
    queryKey: ['collaborators', 'user-search', namespace, like] as const,
    queryFn: ({ signal }) => searchUsers(namespace, like, signal),
    staleTime: 30_000,
    // A failed search only clears the pending state (spec 001 §8).
    meta: { silent: true },
  });
