import { useQuery } from '@tanstack/react-query';
import { createFileRoute, useNavigate } from '@tanstack/react-router';
import { useViewer } from '@/app/useViewer';
import { projectQueryOptions } from '@/features/projects/api/project';
import { FilePreview } from '@/features/projects/components/FilePreview';
import { ConflictView } from '@/features/timetravel/components/ConflictView';
import { canUpload } from '@/lib/permissions';

/**
 * .../conflicts/:path (issue 20, as public as the project): one conflict file beside its
 * original, with 'Keep this copy' and 'Discard copy' for writers and above. Breadcrumbs:
 * project name, 'Conflicts', path.
 */
export const Route = createFileRoute('/_app/projects/$namespace/$projectName/conflicts/$')({
  staticData: {
    // 'Conflicts' leads to the project's files, where the notice lists them.
    crumb: ({ params }) => [
      {
        label: 'Conflicts',
        to: `/projects/${encodeURIComponent(params.namespace ?? '')}/${encodeURIComponent(params.projectName ?? '')}/tree`,
      },
      { label: params._splat ?? '' },
    ],
  },
  component: ConflictPage,
});

function ConflictPage() {
  const { namespace, projectName, _splat } = Route.useParams();
  const viewer = useViewer();
  const navigate = useNavigate();
  // The project layout loads it; this reads the same cache entry.
  const project = useQuery(projectQueryOptions(namespace, projectName, viewer.loggedIn));
  if (!project.data || !_splat) return null;
  return (
    <ConflictView
      key={_splat}
      namespace={namespace}
      projectName={projectName}
      version={project.data.version}
      files={project.data.files}
      path={_splat}
      canResolve={viewer.loggedIn && canUpload(project.data)}
      preview={(file) => (
        <FilePreview file={{ namespace, name: projectName, path: file.path }} size={file.size} />
      )}
      onResolved={() =>
        void navigate({
          to: '/projects/$namespace/$projectName/tree/$',
          params: { namespace, projectName, _splat: '' },
        })
      }
    />
  );
}
