import { useQuery, useQueryClient } from '@tanstack/react-query';
import { createFileRoute, useNavigate } from '@tanstack/react-router';
import { requireLogin } from '@/app/guards';
import { profileQueryOptions } from '@/features/auth/api/profile';
import { notifySuccess } from '@/lib/notify';
import { workspacesQueryOptions } from '@/features/workspaces/api/workspaces';
import { AcceptInvitation } from '@/features/workspaces/components/AcceptInvitation';
import { useCurrentWorkspace } from '@/features/workspaces/hooks/useCurrentWorkspace';

/**
 * /invitations/{token} (login needed; allowed without a workspace): the link of an invitation
 * mail. Accepting makes the joined workspace the current one and opens the dashboard.
 */
export const Route = createFileRoute('/_app/invitations/$token')({
  beforeLoad: requireLogin,
  staticData: { crumb: 'Invitation' },
  component: InvitationPage,
});

function InvitationPage() {
  const { token } = Route.useParams();
  const profile = useQuery(profileQueryOptions);
  const { setCurrentWorkspace } = useCurrentWorkspace(profile.data);
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  return (
    <AcceptInvitation
      token={token}
      onAccepted={async (offer) => {
        // The list must hold the new workspace before it is chosen (else the memory falls back).
        await queryClient.invalidateQueries({ queryKey: workspacesQueryOptions.queryKey });
        await setCurrentWorkspace(offer.workspace_id);
        notifySuccess(`You joined ${offer.workspace}`);
        await navigate({ to: '/dashboard' });
      }}
    />
  );
}
