import { Button, Stack, Text } from '@mantine/core';
import { useMutation, useQuery } from '@tanstack/react-query';
import { errorMessage } from '@/api';
import { LoadingIndicator } from '@/components/LoadingIndicator';
import { PageTitle } from '@/components/PageTitle';
import { notifyError } from '@/lib/notify';
import {
  ACCEPT_FALLBACK,
  INVITATION_FALLBACK,
  acceptInvitation,
  invitationQueryOptions,
  type InvitationOffer,
} from '../api/invitation';
import { WORKSPACE_ROLE_LABELS } from '../model/members';

export interface AcceptInvitationProps {
  token: string;
  /** Called once the invitation is accepted (the user is a member now). */
  onAccepted: (offer: InvitationOffer) => void;
}

/** The invitation link's page for the signed-in user: what it offers and 'Accept invitation'. */
export function AcceptInvitation({ token, onAccepted }: AcceptInvitationProps) {
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
          <Button loading={accept.isPending} onClick={() => accept.mutate()}>
            Accept invitation
          </Button>
        </Stack>
      )}
    </>
  );
}
