/** GET /app/auth/user/search?namespace=&like=: users to share a project with. */
import { queryOptions } from '@tanstack/react-query';
import type { UserSearchResultList } from '@contract/collaborators';
import { api } from '@/api';

export async function searchUsers(
  namespace: string,
  like: string,
  signal?: AbortSignal,
): Promise<UserSearchResultList> {
  return api.get<UserSearchResultList>('/app/auth/user/search', {
    query: { namespace, like },
    signal,
  });
}

export const userSearchQueryOptions = (namespace: string, like: string) =>
  queryOptions({
    queryKey: ['collaborators', 'user-search', namespace, like] as const,
    queryFn: ({ signal }) => searchUsers(namespace, like, signal),
    staleTime: 30_000,
    // A failed search only clears the pending state (spec 001 §8).
    meta: { silent: true },
  });
