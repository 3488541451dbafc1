import { Button, Stack, Text } from '@mantine/core';
import { useMutation, useQuery } from '@tanstack/react-query';
import { errorMessage } from '@/api';
import { LoadingIndicator } from '@/components/LoadingIndicator';
import { PageTitle } from '@/components/PageTitle';
import { notifyError } from '@/lib/notify';
import { ButtonLink } from '@/lib/routerLinks';
import {
  ACCEPT_FALLBACK,
  INVITATION_FALLBACK,
  acceptInvitation,
  invitationQueryOptions,
  type InvitationOffer,
} from '../api/invitation';
import { WORKSPACE_ROLE_LABELS } from '../model/members';
import { RegisterFromInvitation } from './RegisterFromInvitation';

export interface AcceptInvitationProps {
  token: string;
  /** Signed in: 'Accept invitation'; otherwise sign in or create the account. */
  loggedIn: boolean;
  /** Where 'Sign in' returns to (this page). */
  signInRedirect: string;
  /** Called once the invitation is accepted (the user is a member now). */
  onAccepted: (offer: InvitationOffer) => void;
  /** Called once a new account joined and was signed in. */
  onRegistered: (offer: InvitationOffer) => void;
}

/**
 * The invitation link's page: what it offers, then 'Accept invitation' (signed in), 'Sign in'
 * (an account with the invited email exists) or the form creating that account.
 */
export function AcceptInvitation({
  token,
  loggedIn,
  signInRedirect,
  onAccepted,
  onRegistered,
}: AcceptInvitationProps) {
  const offer = useQuery(invitationQueryOptions(token));
  const accept = useMutation({
    mutationFn: () => acceptInvitation(token),
    onSuccess: (offer) => onAccepted(offer),
    onError: (error) => notifyError(errorMessage(error, ACCEPT_FALLBACK)),
  });

  if (offer.isPending) return <LoadingIndicator label="Loading the invitation" size="md" />;
  return (
    <>
      <PageTitle>Workspace invitation</PageTitle>
      {offer.isError ? (
        <Text role="alert">{errorMessage(offer.error, INVITATION_FALLBACK)}</Text>
      ) : (
        <Stack align="flex-start">
          <Text>
            You are invited to join the workspace <strong>{offer.data.workspace}</strong> as{' '}
            {WORKSPACE_ROLE_LABELS[offer.data.role].toLowerCase()}.
          </Text>
          {loggedIn ? (
            <Button loading={accept.isPending} onClick={() => accept.mutate()}>
              Accept invitation
            </Button>
          ) : offer.data.account_exists ? (
            <>
              <Text>Sign in as {offer.data.email} to accept it.</Text>
              <ButtonLink
                to="/login/{-$reset}"
                params={{ reset: undefined }}
                search={{ redirect: signInRedirect }}
              >
                Sign in
              </ButtonLink>
            </>
          ) : (
            <>
              <Text>Create your account to accept it.</Text>
              <RegisterFromInvitation
                token={token}
                email={offer.data.email}
                onRegistered={onRegistered}
              />
            </>
          )}
        </Stack>
      )}
    </>
  );
}
