import { createFileRoute, useNavigate } from '@tanstack/react-router';
import { validateProjectListSearch } from '@/lib/search';
import { useViewer } from '@/app/useViewer';
import { LoadingIndicator } from '@/components/LoadingIndicator';
import { ProjectsList } from '@/features/projects/components/ProjectsList';

/**
 * /projects (projects, public, title Projects): 'My projects' of the current workspace for users
 * who may see them; anonymous and email-less users see public projects (spec 001 §5).
 */
export const Route = createFileRoute('/_app/projects/')({
  validateSearch: validateProjectListSearch,
  component: ProjectsPage,
});

function ProjectsPage() {
  const viewer = useViewer();
  const navigate = useNavigate();
  const open = (namespace: string, projectName: string) =>
    void navigate({ to: '/projects/$namespace/$projectName', params: { namespace, projectName } });

  if (viewer.isLoading) return <LoadingIndicator label="Loading projects" size="md" />;
  const own = viewer.loggedIn && Boolean(viewer.profile?.email) && viewer.workspace !== null;
  if (own && viewer.workspace) {
    return (
      <ProjectsList
        key={viewer.workspace.name}
        title="My projects"
        scope={{ kind: 'mine', workspaceName: viewer.workspace.name }}
        createNamespace={viewer.workspace.name}
        canCreate={viewer.canCreate}
        onOpenProject={open}
      />
    );
  }
  return (
    <ProjectsList
      title="Public projects"
      scope={{ kind: 'public' }}
      showNamespace
      onOpenProject={open}
    />
  );
}
