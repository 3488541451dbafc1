import { useQuery } from '@tanstack/react-query';
import { createFileRoute, useNavigate } from '@tanstack/react-router';
import { pathCrumbs } from '../../../../../../app/breadcrumbs';
import { validateProjectTreeSearch } from '../../../../../../app/search';
import { useViewer } from '../../../../../../app/useViewer';
import { projectQueryOptions } from '../../../../../../features/projects/api/project';
import { FileBrowser } from '../../../../../../features/projects/components/FileBrowser';
import { FileDetailPanel } from '../../../../../../features/projects/components/FileDetailPanel';

/**
 * /projects/:namespace/:projectName/tree/:location? (project-tree, public): folder browsing. The
 * folder path may contain slashes; `file_path` opens a file's detail panel.
 */
export const Route = createFileRoute('/_app/projects/$namespace/$projectName/tree/$')({
  validateSearch: validateProjectTreeSearch,
  staticData: {
    crumb: ({ params }) =>
      pathCrumbs(
        params._splat ?? '',
        `/projects/${encodeURIComponent(params.namespace ?? '')}/${encodeURIComponent(params.projectName ?? '')}/tree`,
      ),
  },
  component: ProjectTreePage,
});

function ProjectTreePage() {
  const { namespace, projectName, _splat } = Route.useParams();
  const { file_path: filePath } = Route.useSearch();
  const viewer = useViewer();
  const navigate = useNavigate();
  // The project layout loads it; this reads the same cache entry.
  const project = useQuery(projectQueryOptions(namespace, projectName, viewer.loggedIn));
  if (!project.data) return null;
  const file = filePath ? project.data.files.find((f) => f.path === filePath) : undefined;
  return (
    <>
      <FileBrowser
        namespace={namespace}
        projectName={projectName}
        files={project.data.files}
        location={_splat ?? ''}
      />
      <FileDetailPanel
        namespace={namespace}
        projectName={projectName}
        file={file}
        onClose={() =>
          void navigate({
            to: '/projects/$namespace/$projectName/tree/$',
            params: { namespace, projectName, _splat: _splat ?? '' },
            search: {},
          })
        }
      />
    </>
  );
}
