import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Navigate, createFileRoute } from '@tanstack/react-router';
import { requireLogin } from '@/app/guards';
import { useViewer } from '@/app/useViewer';
import { ProjectAccessRequests } from '@/features/access-requests/components/ProjectAccessRequests';
import { projectAccessQueryKey } from '@/features/collaborators/api/projectAccess';
import { ProjectCollaborators } from '@/features/collaborators/components/ProjectCollaborators';
import { configQueryOptions } from '@/platform/config';
import { projectQueryKey, projectQueryOptions } from '@/features/projects/api/project';
import {
  canListWorkspaceAccessRequests,
  canManageProject,
  canShareProject,
  globalRoleOf,
} from '@/lib/permissions';

/**
 * .../collaborators (project-collaborators, login needed). Only the project owner may see it
 * (spec 001 §2, §6); others are sent to /projects as from the settings tab.
 */
export const Route = createFileRoute('/_app/projects/$namespace/$projectName/collaborators')({
  beforeLoad: requireLogin,
  staticData: { crumb: 'Collaborators' },
  component: CollaboratorsPage,
});

function CollaboratorsPage() {
  const { namespace, projectName } = Route.useParams();
  const viewer = useViewer();
  const queryClient = useQueryClient();
  const project = useQuery(projectQueryOptions(namespace, projectName, viewer.loggedIn));
  const config = useQuery(configQueryOptions);
  if (!project.data || viewer.isLoading) return null;
  if (!canManageProject(project.data, viewer.workspace)) return <Navigate to="/projects" replace />;

  const data = project.data;
  const globalRole = globalRoleOf(config.data);
  const accessChanged = () => {
    void queryClient.invalidateQueries({ queryKey: projectQueryKey(namespace, projectName) });
  };
  return (
    <>
      {canListWorkspaceAccessRequests(viewer.workspace?.role) && (
        <ProjectAccessRequests
          namespace={namespace}
          projectName={projectName}
          projectRole={data.role}
          onAccepted={() => {
            void queryClient.invalidateQueries({ queryKey: projectAccessQueryKey(data.id) });
            accessChanged();
          }}
        />
      )}
      <ProjectCollaborators
        project={data}
        viewerId={viewer.profile?.id}
        viewerRole={data.role}
        globalRole={globalRole}
        canShare={canShareProject(data, viewer.workspace, globalRole)}
        docsUrl={config.data?.docs_url ?? ''}
        onAccessChanged={accessChanged}
      />
    </>
  );
}
