import { Outlet, createFileRoute, useNavigate, useRouter } from '@tanstack/react-router';
import { useCallback } from 'react';
import { useViewer } from '@/app/useViewer';
import { LoadingIndicator } from '@/components/LoadingIndicator';
import { ProjectView } from '@/features/projects/components/ProjectView';

/**
 * The project view around files, history, collaborators and settings (spec 001 §2). Public:
 * each child route declares whether it needs a login.
 */
export const Route = createFileRoute('/_app/projects/$namespace/$projectName')({
  staticData: { crumb: ({ params }) => params.projectName ?? null },
  component: ProjectLayout,
});

function ProjectLayout() {
  const { namespace, projectName } = Route.useParams();
  const viewer = useViewer();
  const navigate = useNavigate();
  const router = useRouter();
  // Reads the location when called: the redirect is the project page, never the login page.
  const toLogin = useCallback(
    () =>
      void navigate({
        to: '/login/{-$reset}',
        params: { reset: undefined },
        search: { redirect: router.state.location.href },
        replace: true,
      }),
    [navigate, router],
  );
  if (viewer.isLoading) return <LoadingIndicator label="Loading project" size="md" />;
  return (
    <ProjectView
      key={`${namespace}/${projectName}`}
      namespace={namespace}
      projectName={projectName}
      loggedIn={viewer.loggedIn}
      workspace={viewer.workspace}
      canCreate={viewer.canCreate}
      onLoginNeeded={toLogin}
    >
      <Outlet />
    </ProjectView>
  );
}
