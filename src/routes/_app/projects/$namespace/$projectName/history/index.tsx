import { useQuery } from '@tanstack/react-query';
import { createFileRoute, useNavigate } from '@tanstack/react-router';
import { requireLogin } from '@/app/guards';
import { validateVersionsSearch } from '@/lib/search';
import { canUpload } from '@/lib/permissions';
import { useViewer } from '@/app/useViewer';
import { VersionDetailPanel } from '@/features/history/components/VersionDetailPanel';
import { VersionsView } from '@/features/history/components/VersionsView';
import { projectQueryOptions } from '@/features/projects/api/project';
import { RestoreFileButton, VersionActions } from '@/features/timetravel/components/RestoreButtons';
import { compareSearchOf } from '@/features/timetravel/model/comparePair';

/** .../history (project-versions, for logged-in users); `version_id` opens a version's details. */
export const Route = createFileRoute('/_app/projects/$namespace/$projectName/history/')({
  beforeLoad: requireLogin,
  validateSearch: validateVersionsSearch,
  staticData: { crumb: 'History' },
  component: HistoryPage,
});

function HistoryPage() {
  const { namespace, projectName } = Route.useParams();
  const { version_id: versionId } = Route.useSearch();
  const viewer = useViewer();
  const navigate = useNavigate();
  // The project layout loads it; this reads the same cache entry (for the project id).
  const project = useQuery(projectQueryOptions(namespace, projectName, viewer.loggedIn));
  if (!project.data) return null;
  const params = { namespace, projectName };
  const canRestore = canUpload(project.data);
  const open = (version: string) =>
    void navigate({
      to: '/projects/$namespace/$projectName/history',
      params,
      search: { version_id: version },
    });
  return (
    <>
      <VersionsView
        namespace={namespace}
        projectName={projectName}
        selected={versionId}
        onOpen={open}
        onCompare={(a, b) =>
          void navigate({
            to: '/projects/$namespace/$projectName/compare',
            params,
            search: compareSearchOf(a, b),
          })
        }
      />
      <VersionDetailPanel
        namespace={namespace}
        projectName={projectName}
        projectId={project.data.id}
        version={versionId}
        onClose={() =>
          void navigate({ to: '/projects/$namespace/$projectName/history', params, search: {} })
        }
        actions={
          versionId && (
            <VersionActions
              namespace={namespace}
              projectName={projectName}
              version={versionId}
              latest={project.data.version}
              canRestore={canRestore}
              onRestored={(made) => open(made.version)}
            />
          )
        }
        fileActions={
          canRestore && versionId
            ? (path) => (
                <RestoreFileButton
                  namespace={namespace}
                  projectName={projectName}
                  version={versionId}
                  path={path}
                  size="compact-xs"
                  onRestored={(made) => open(made.version)}
                />
              )
            : undefined
        }
      />
    </>
  );
}
