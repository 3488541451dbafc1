import { useQuery } from '@tanstack/react-query';
import { createFileRoute, useNavigate } from '@tanstack/react-router';
import { useViewer } from '@/app/useViewer';
import { FileVersionDetail } from '@/features/history/components/FileVersionDetail';
import { projectQueryOptions } from '@/features/projects/api/project';
import { RestoreFileButton } from '@/features/timetravel/components/RestoreButtons';
import { canUpload } from '@/lib/permissions';

/**
 * .../history/:version_id/:path (file-version-detail, public): the changes of one file in one
 * version. Breadcrumbs: project name, version id, path.
 */
export const Route = createFileRoute(
  '/_app/projects/$namespace/$projectName/history/$version_id/$',
)({
  staticData: {
    crumb: ({ params }) => {
      const base = `/projects/${encodeURIComponent(params.namespace ?? '')}/${encodeURIComponent(params.projectName ?? '')}`;
      return [
        {
          label: params.version_id ?? '',
          to: `${base}/history?version_id=${encodeURIComponent(params.version_id ?? '')}`,
        },
        { label: params._splat ?? '' },
      ];
    },
  },
  component: FileVersionDetailPage,
});

function FileVersionDetailPage() {
  const { namespace, projectName, version_id: version, _splat } = Route.useParams();
  const viewer = useViewer();
  const navigate = useNavigate();
  // The project layout loads it; this reads the same cache entry (for the project id).
  const project = useQuery(projectQueryOptions(namespace, projectName, viewer.loggedIn));
  if (!project.data || !_splat) return null;
  return (
    <FileVersionDetail
      key={`${version}/${_splat}`}
      namespace={namespace}
      projectName={projectName}
      projectId={project.data.id}
      version={version}
      path={_splat}
      actions={
        viewer.loggedIn &&
        canUpload(project.data) && (
          <RestoreFileButton
            namespace={namespace}
            projectName={projectName}
            version={version}
            path={_splat}
            onRestored={(made) =>
              void navigate({
                to: '/projects/$namespace/$projectName/history',
                params: { namespace, projectName },
                search: { version_id: made.version },
              })
            }
          />
        )
      }
    />
  );
}
