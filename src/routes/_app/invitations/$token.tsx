import { useQuery, useQueryClient } from '@tanstack/react-query';
import { createFileRoute, useNavigate, useRouterState } from '@tanstack/react-router';
import { initQueryOptions } from '@/features/auth/api/init';
import { profileQueryOptions } from '@/features/auth/api/profile';
import { initialiseSession } from '@/features/auth/model/session';
import { workspacesQueryOptions } from '@/features/workspaces/api/workspaces';
import type { InvitationOffer } from '@/features/workspaces/api/invitation';
import { AcceptInvitation } from '@/features/workspaces/components/AcceptInvitation';
import { useCurrentWorkspace } from '@/features/workspaces/hooks/useCurrentWorkspace';
import { notifySuccess } from '@/lib/notify';

/**
 * /invitations/{token} (the link of an invitation mail; allowed without a workspace): signed-in
 * users accept; others sign in, or create the account for the invited email. Either way the
 * joined workspace becomes the current one and the dashboard opens.
 */
export const Route = createFileRoute('/_app/invitations/$token')({
  staticData: { crumb: 'Invitation' },
  component: InvitationPage,
});

function InvitationPage() {
  const { token } = Route.useParams();
  const session = useQuery(initQueryOptions);
  const loggedIn = session.data?.authenticated === true;
  const profile = useQuery({ ...profileQueryOptions, enabled: loggedIn });
  const { setCurrentWorkspace } = useCurrentWorkspace(loggedIn ? profile.data : null);
  const href = useRouterState({ select: (state) => state.location.href });
  const queryClient = useQueryClient();
  const navigate = useNavigate();

  const joined = async (offer: InvitationOffer) => {
    notifySuccess(`You joined ${offer.workspace}`);
    await navigate({ to: '/dashboard' });
  };

  return (
    <AcceptInvitation
      token={token}
      loggedIn={loggedIn}
      signInRedirect={href}
      onAccepted={async (offer) => {
        // The list must hold the new workspace before it is chosen (else the memory falls back).
        await queryClient.invalidateQueries({ queryKey: workspacesQueryOptions.queryKey });
        await setCurrentWorkspace(offer.workspace_id);
        await joined(offer);
      }}
      onRegistered={async (offer) => {
        // The new account's preferred workspace is the one it joined: it becomes current.
        await initialiseSession(queryClient);
        await joined(offer);
      }}
    />
  );
}
