import { useQuery } from '@tanstack/react-query';
import { createFileRoute, useNavigate } from '@tanstack/react-router';
import { requireLogin } from '@/app/guards';
import { useViewer } from '@/app/useViewer';
import { projectQueryOptions } from '@/features/projects/api/project';
import { CompareView } from '@/features/timetravel/components/CompareView';
import { validateCompareSearch } from '@/features/timetravel/model/compareSearch';

/**
 * .../compare?from=vA&to=vB (issue 20, for logged-in users as the history): the files added,
 * updated and removed between two versions, in either order, and the net row changes of each
 * GeoPackage.
 */
export const Route = createFileRoute('/_app/projects/$namespace/$projectName/compare')({
  beforeLoad: requireLogin,
  validateSearch: validateCompareSearch,
  staticData: { crumb: 'Compare' },
  component: ComparePage,
});

function ComparePage() {
  const { namespace, projectName } = Route.useParams();
  const { from, to } = Route.useSearch();
  const viewer = useViewer();
  const navigate = useNavigate();
  // The project layout loads it; this reads the same cache entry (for the latest version).
  const project = useQuery(projectQueryOptions(namespace, projectName, viewer.loggedIn));
  if (!project.data) return null;
  return (
    <CompareView
      namespace={namespace}
      projectName={projectName}
      latest={project.data.version}
      from={from}
      to={to}
      onChange={(search) =>
        void navigate({
          to: '/projects/$namespace/$projectName/compare',
          params: { namespace, projectName },
          search,
        })
      }
    />
  );
}
