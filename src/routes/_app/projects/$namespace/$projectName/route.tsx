import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Outlet, createFileRoute, useNavigate, useRouter } from '@tanstack/react-router';
import { useCallback, useEffect, useRef } from 'react';
import { useViewer } from '@/app/useViewer';
import { LoadingIndicator } from '@/components/LoadingIndicator';
import { prepareMapTab, whenIdle } from '@/features/map/preload';
import { projectQueryOptions } from '@/features/projects/api/project';
import { ProjectView } from '@/features/projects/components/ProjectView';
import { hasGeoPackage, type ProjectTab } from '@/features/projects/model/project';

const MAP_ROUTE = '/_app/projects/$namespace/$projectName/map';

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
  // The Map tab's code, first layers and first tiles in an idle moment, or when the tab is
  // about to open (issue 19); the tiles for a map as wide as the tabs' content.
  const content = useRef<HTMLDivElement>(null);
  const project = useQuery(projectQueryOptions(namespace, projectName, viewer.loggedIn));
  const withMap = project.data ? hasGeoPackage(project.data.files) : false;
  const queryClient = useQueryClient();
  const prepareMap = useCallback(
    (idle: boolean) => {
      void router.loadRouteChunk(router.routesById[MAP_ROUTE])?.catch(() => undefined);
      const { queryKey } = projectQueryOptions(namespace, projectName, viewer.loggedIn);
      const shown = queryClient.getQueryData(queryKey);
      if (shown) {
        void prepareMapTab(queryClient, shown, {
          contentWidth: content.current?.clientWidth,
          idle,
        });
      }
    },
    [router, queryClient, namespace, projectName, viewer.loggedIn],
  );
  useEffect(() => (withMap ? whenIdle(() => prepareMap(true)) : undefined), [withMap, prepareMap]);
  const onTabIntent = (tab: ProjectTab) => {
    if (tab === 'map' && withMap) prepareMap(false);
  };
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
      onTabIntent={onTabIntent}
    >
      <div ref={content}>
        <Outlet />
      </div>
    </ProjectView>
  );
}
