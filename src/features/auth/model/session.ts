/**
 * The logged-in session as the query cache sees it. Sign-in re-reads /app/init (who is logged
 * in, and a CSRF token bound to the new session); sign-out and a lost session keep only the
 * instance data (ping, config) and mark the visitor anonymous.
 */
import type { QueryClient } from '@tanstack/react-query';
import { ANONYMOUS, initQueryOptions } from '../api/init';
import { profileQueryOptions } from '../api/profile';
import { forgetOfflineUser, syncOfflineOwner } from '@/offline/owner';
import { rememberInit } from '@/offline/lastInit';

/** Query key roots that do not depend on who is logged in. */
const INSTANCE_KEYS = new Set<unknown>(['platform', 'device']);

export async function initialiseSession(queryClient: QueryClient): Promise<void> {
  queryClient.removeQueries({ queryKey: profileQueryOptions.queryKey });
  // Nothing is saved for offline use until the new user's profile says who it is.
  forgetOfflineUser();
  // staleTime 0: always asks the server, and every observer of init sees the answer.
  await queryClient.fetchQuery({ ...initQueryOptions, staleTime: 0 });
  syncOfflineOwner();
}

export function endSession(queryClient: QueryClient): void {
  queryClient.removeQueries({ predicate: (query) => !INSTANCE_KEYS.has(query.queryKey[0]) });
  queryClient.setQueryData(initQueryOptions.queryKey, ANONYMOUS);
  rememberInit(ANONYMOUS);
  forgetOfflineUser();
}

export function isLoggedIn(queryClient: QueryClient): boolean {
  return queryClient.getQueryData(initQueryOptions.queryKey)?.authenticated === true;
}
