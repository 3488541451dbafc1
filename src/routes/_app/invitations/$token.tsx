import { Box } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { createFileRoute, useNavigate, useRouterState } from '@tanstack/react-router';
import { initQueryOptions } from '@/features/auth/api/init';
import { profileQueryOptions } from '@/features/auth/api/profile';
import { initialiseSession } from '@/features/auth/model/session';
import type { InvitationOffer } from '@/features/workspaces/api/invitation';
import { AcceptInvitation } from '@/features/workspaces/components/AcceptInvitation';
import { useCurrentWorkspace } from '@/features/workspaces/hooks/useCurrentWorkspace';
import { useJoinWorkspace } from '@/features/workspaces/hooks/useJoinWorkspace';
import { notifySuccess } from '@/lib/notify';
import { ONBOARDING_MAX_WIDTH } from '@/features/shell/components/OnboardingLayout';

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

  const joinWorkspace = useJoinWorkspace(setCurrentWorkspace);

  // The onboarding column (spec 000 §2: at most 480px), not the whole width (issue 31).
  return (
    <Box maw={ONBOARDING_MAX_WIDTH} mx="auto">
      <AcceptInvitation
        token={token}
        loggedIn={loggedIn}
        signInRedirect={href}
        onAccepted={joinWorkspace}
        onRegistered={async (offer: InvitationOffer) => {
          // The new account's preferred workspace is the one it joined: it becomes current.
          await initialiseSession(queryClient);
          notifySuccess(`You joined ${offer.workspace}`);
          await navigate({ to: '/dashboard' });
        }}
      />
    </Box>
  );
}
