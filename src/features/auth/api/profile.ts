/** GET /v1/user/profile: the logged user. */
import { queryOptions } from '@tanstack/react-query';
import { api } from '@/api';
import { withOfflineCopy } from '@/offline/instance';
import { rememberOfflineUser, userOwner } from '@/offline/owner';

import type { Profile } from '@contract/users';

/** One workspace of the profile. */
export type WorkspaceRef = Profile['workspaces'][number];

export const PROFILE_FALLBACK = "Failed to fetch user's profile";

/**
 * The profile also tells the offline copies whose they are (offline/model/owner.ts), and is
 * itself kept as the user's private copy (also the first answer after sign-in), so a signed-in
 * user's shell opens offline.
 */
export function fetchProfile(signal?: AbortSignal): Promise<Profile> {
  return withOfflineCopy(
    'profile',
    async () => {
      const answer = await api.get<Profile>('/v1/user/profile', {
        signal,
        fallbackMessage: PROFILE_FALLBACK,
      });
      rememberOfflineUser(answer.id);
      return answer;
    },
    // Right after sign-in the owner is known only from this answer: it is saved as the user's.
    { ownerOf: (answer) => userOwner(answer.id) },
  );
}

export const profileQueryOptions = queryOptions({
  queryKey: ['auth', 'profile'] as const,
  queryFn: ({ signal }) => fetchProfile(signal),
  networkMode: 'always',
  staleTime: 5 * 60_000,
});
