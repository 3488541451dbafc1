import { useQuery, useQueryClient } from '@tanstack/react-query';
import {
  Outlet,
  createFileRoute,
  useMatches,
  useNavigate,
  useRouterState,
} from '@tanstack/react-router';
import { Suspense, lazy, useMemo } from 'react';
import { collectCrumbs } from '@/app/breadcrumbs';
import { loadSession } from '@/app/guards';
import { needsWorkspace } from '@/app/routeMeta';
import { initQueryOptions } from '@/features/auth/api/init';
import { useLogoutMutation } from '@/features/auth/api/logout';
import { profileQueryOptions } from '@/features/auth/api/profile';
import { configQueryOptions } from '@/platform/config';
import { useMaintenance } from '@/platform/ping';
import { AppLayout } from '@/features/shell/components/AppLayout';
import { UploadCenterHost } from '@/features/uploads/page/components/UploadCenterHost';
import { EditSyncHost } from '@/features/capture/components/EditSyncHost';
import { OnboardingLayout } from '@/features/shell/components/OnboardingLayout';
import { NO_WORKSPACE_TITLE } from '@/features/workspaces/model/noWorkspace';
import { workspacesQueryOptions } from '@/features/workspaces/api/workspaces';
import { useCurrentWorkspace } from '@/features/workspaces/hooks/useCurrentWorkspace';
import { isWorkspaceAdmin } from '@/features/workspaces/model/roles';

/** Loaded only when the user has pending invitations (issue 8's bundle budget). */
/** The onboarding of a user without a workspace: loaded only for such a user (issue 8's budget). */
const NoWorkspace = lazy(async () => ({
  default: (await import('@/features/workspaces/components/NoWorkspace')).NoWorkspace,
}));

const HeaderInvitations = lazy(async () => ({
  default: (await import('@/features/workspaces/components/HeaderInvitations')).HeaderInvitations,
}));

/**
 * The application shell around the dashboard, profile and project pages. Logged-in users get the
 * header and sidebar; anonymous visitors (public project pages) a header with 'Sign in'. Each
 * child route guards itself.
 */
export const Route = createFileRoute('/_app')({
  loader: async ({ context }) => {
    const session = await loadSession(context);
    if (session.authenticated) {
      // Render the header with the user's name at once; a failure shows as a toast.
      await context.queryClient.ensureQueryData(profileQueryOptions).catch(() => undefined);
    }
  },
  component: AppShellRoute,
});

function AppShellRoute() {
  const session = useQuery(initQueryOptions);
  const loggedIn = session.data?.authenticated === true;
  const profile = useQuery({ ...profileQueryOptions, enabled: loggedIn });
  const user = loggedIn ? (profile.data ?? null) : null;
  const current = useCurrentWorkspace(user);
  const { workspace } = current;
  const config = useQuery(configQueryOptions);
  const maintenance = useMaintenance();
  const matches = useMatches();
  const crumbs = useMemo(() => collectCrumbs(matches), [matches]);
  const href = useRouterState({ select: (state) => state.location.href });
  const logout = useLogoutMutation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();

  const signOut = () => {
    logout.mutate(undefined, {
      onSettled: () => void navigate({ to: '/login/{-$reset}', params: { reset: undefined } }),
    });
  };

  const invitations = user?.invitations ?? [];

  // The list must hold the new workspace before it is chosen (else the memory falls back).
  const chooseNewWorkspace = async (id: number) => {
    await queryClient.invalidateQueries({ queryKey: workspacesQueryOptions.queryKey });
    await current.setCurrentWorkspace(id);
  };

  // Pages that need a workspace show the onboarding layout to users who have none (the
  // profile stays available in the shell).
  const withoutWorkspace =
    user !== null && workspace === null && !current.isLoading && !current.isError;
  if (withoutWorkspace && needsWorkspace(matches)) {
    return (
      <OnboardingLayout title={NO_WORKSPACE_TITLE} maintenance={maintenance}>
        <Suspense fallback={null}>
          <NoWorkspace
            onSignOut={signOut}
            onWorkspaceCreated={
              config.data?.workspace_creation
                ? (created) => void chooseNewWorkspace(created.id)
                : undefined
            }
          />
        </Suspense>
      </OnboardingLayout>
    );
  }

  return (
    <AppLayout
      user={user}
      workspaceName={current.isLoading ? undefined : (workspace?.name ?? null)}
      workspaceSwitcher={
        user
          ? {
              workspaces: current.workspaces,
              currentId: workspace?.id ?? null,
              onSelect: (id) => void current.setCurrentWorkspace(id),
              canManageMembers: isWorkspaceAdmin(workspace?.role),
            }
          : undefined
      }
      docsUrl={config.data?.docs_url}
      communityUrl={config.data?.community_url || undefined}
      maintenance={maintenance}
      crumbs={crumbs}
      headerSlot={
        invitations.length > 0 && (
          <Suspense fallback={null}>
            <HeaderInvitations
              invitations={invitations}
              setCurrentWorkspace={current.setCurrentWorkspace}
            />
          </Suspense>
        )
      }
      signInRedirect={href}
      onSignOut={signOut}
    >
      <Outlet />
      {loggedIn && <UploadCenterHost />}
      {loggedIn && <EditSyncHost />}
    </AppLayout>
  );
}
