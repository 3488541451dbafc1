import { useQuery } from '@tanstack/react-query';
import { createFileRoute } from '@tanstack/react-router';
import { useViewer } from '@/app/useViewer';
import { MapPage } from '@/features/map/components/MapPage';
import { validateMapSearch } from '@/features/map/model/search';
import { projectQueryOptions } from '@/features/projects/api/project';

/**
 * .../map (issue 19, public like the files): the project's GeoPackage layers on a map and in
 * attribute tables, at any version. The search params (version, file, visible layers, view,
 * changes, open table) make a link reproduce what was seen. The map code (OpenLayers) is in
 * this route's lazily loaded component only.
 */
export const Route = createFileRoute('/_app/projects/$namespace/$projectName/map')({
  validateSearch: validateMapSearch,
  staticData: { crumb: 'Map' },
  component: MapRoute,
});

function MapRoute() {
  const { namespace, projectName } = Route.useParams();
  const search = Route.useSearch();
  const navigate = Route.useNavigate();
  const viewer = useViewer();
  // The project layout loads it; this reads the same cache entry.
  const project = useQuery(projectQueryOptions(namespace, projectName, viewer.loggedIn));
  if (!project.data) return null;
  return (
    <MapPage
      project={project.data}
      search={search}
      user={viewer.profile}
      onSearch={(change, replace) =>
        // The same page with other parameters: where the page was scrolled stays (issue 31:
        // a reset to the top took away the attribute table just brought into view).
        void navigate({
          search: (previous) => ({ ...previous, ...change }),
          replace,
          resetScroll: false,
        })
      }
    />
  );
}
