/** GET /v1/user/profile: the logged user. */
import { queryOptions } from '@tanstack/react-query';
import { api } from '@/api';
import { withOfflineCopy } from '@/offline/instance';
import { rememberOfflineUser } from '@/offline/owner';

export interface WorkspaceRef {
  id: number;
  name: string;
  role: string;
}

export interface UserProfile {
  id: number;
  username: string;
  email: string;
  name: string;
  first_name: string | null;
  last_name: string | null;
  verified_email: boolean;
  registration_date: string;
  receive_notifications: boolean;
  can_edit_profile?: boolean;
  preferred_workspace: number | null;
  workspaces: WorkspaceRef[];
  invitations?: unknown[];
}

export const PROFILE_FALLBACK = "Failed to fetch user's profile";

/**
 * The profile also tells the offline copies whose they are (offline/model/owner.ts), and is
 * itself kept as the user's private copy, so a signed-in user's shell opens offline.
 */
export async function fetchProfile(signal?: AbortSignal): Promise<UserProfile> {
  const profile = await withOfflineCopy('profile', async () => {
    const answer = await api.get<UserProfile>('/v1/user/profile', {
      signal,
      fallbackMessage: PROFILE_FALLBACK,
    });
    if (typeof answer?.id === 'number') rememberOfflineUser(answer.id);
    return answer;
  });
  return profile;
}

export const profileQueryOptions = queryOptions({
  queryKey: ['auth', 'profile'] as const,
  queryFn: ({ signal }) => fetchProfile(signal),
  networkMode: 'always',
  staleTime: 5 * 60_000,
});
