/**
 * The invitation link's calls: what it offers (GET, with the link alone), accepting it (signed
 * in) and registering from it (no account yet).
 */
import type { InvitationOffer, InvitationRegister } from '@contract/workspace-members';
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

export const REGISTER_FALLBACK = 'Failed to create the account';

/** Creates the account for the invited email from the link; the server signs it in. */
export function registerFromInvitation(
  token: string,
  body: InvitationRegister,
): Promise<InvitationOffer> {
  return api.post<InvitationOffer>(`${path(token)}/register`, body, {
    fallbackMessage: REGISTER_FALLBACK,
  });
}

export const DECLINE_FALLBACK = 'Failed to decline the invitation';

const ownPath = (uuid: string) => `/app/user/invitations/${encodeURIComponent(uuid)}`;

/** Accepts one of the profile's `invitations` (the signed-in user's own), without the link. */
export function acceptOwnInvitation(uuid: string): Promise<InvitationOffer> {
  return api.post<InvitationOffer>(`${ownPath(uuid)}/accept`, undefined, {
    fallbackMessage: ACCEPT_FALLBACK,
  });
}

/** Declines one of the profile's `invitations`: the invitation is deleted. */
export async function declineOwnInvitation(uuid: string): Promise<void> {
  await api.delete(ownPath(uuid), { fallbackMessage: DECLINE_FALLBACK });
}
