/** GET /v1/user/profile: the logged user. */
import { queryOptions } from '@tanstack/react-query';
import { api } from '../../../api';

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

export function fetchProfile(signal?: AbortSignal): Promise<UserProfile> {
  return api.get<UserProfile>('/v1/user/profile', { signal, fallbackMessage: PROFILE_FALLBACK });
}

export const profileQueryOptions = queryOptions({
  queryKey: ['auth', 'profile'] as const,
  queryFn: ({ signal }) => fetchProfile(signal),
  staleTime: 5 * 60_000,
});
