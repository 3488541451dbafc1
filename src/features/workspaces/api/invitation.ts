/** The invitation link's calls: what it offers (GET) and accepting it (POST …/accept). */
import type { InvitationOffer } from '@contract/workspace-members';
import { queryOptions } from '@tanstack/react-query';
import { api } from '@/api';

export type { InvitationOffer } from '@contract/workspace-members';

export const INVITATION_FALLBACK = 'Failed to load the invitation';
export const ACCEPT_FALLBACK = 'Failed to accept the invitation';

const path = (token: string) => `/app/invitations/${encodeURIComponent(token)}`;

export const invitationQueryOptions = (token: string) =>
  queryOptions({
    queryKey: ['workspaces', 'invitation', token] as const,
    queryFn: ({ signal }) =>
      api.get<InvitationOffer>(path(token), { signal, fallbackMessage: INVITATION_FALLBACK }),
    // The page shows the failure itself.
    meta: { silent: true },
    retry: false,
  });

export function acceptInvitation(token: string): Promise<InvitationOffer> {
  return api.post<InvitationOffer>(`${path(token)}/accept`, undefined, {
    fallbackMessage: ACCEPT_FALLBACK,
  });
}
