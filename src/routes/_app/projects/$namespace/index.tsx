import { createFileRoute, useNavigate } from '@tanstack/react-router';
import { validateProjectListSearch } from '@/lib/search';
import { useViewer } from '@/app/useViewer';
import { LoadingIndicator } from '@/components/LoadingIndicator';
import { ProjectsList } from '@/features/projects/components/ProjectsList';

/**
 * /projects/:namespace (namespace-projects): the projects of one namespace. Public like the other
 * project lists (spec 000 §2 "/projects and its children: public"); anonymous visitors see the
 * namespace's public projects.
 */
export const Route = createFileRoute('/_app/projects/$namespace/')({
  validateSearch: validateProjectListSearch,
  staticData: { crumb: ({ params }) => params.namespace ?? null },
  component: NamespaceProjectsPage,
});

function NamespaceProjectsPage() {
  const { namespace } = Route.useParams();
  const viewer = useViewer();
  const navigate = useNavigate();
  if (viewer.isLoading) return <LoadingIndicator label="Loading projects" size="md" />;
  // A signed-in user knows their workspaces; anonymous visitors cannot tell an unknown namespace
  // from one without public projects.
  const known = !viewer.loggedIn || viewer.workspaces.some((w) => w.name === namespace);
  const own = viewer.workspace?.name === namespace;
  return (
    <ProjectsList
      key={namespace}
      title={namespace}
      scope={{ kind: 'namespace', namespace }}
      createNamespace={own ? namespace : null}
      canCreate={own && viewer.canCreate}
      namespaceKnown={known}
      onOpenProject={(ns, projectName) =>
        void navigate({
          to: '/projects/$namespace/$projectName',
          params: { namespace: ns, projectName },
        })
      }
    />
  );
}
