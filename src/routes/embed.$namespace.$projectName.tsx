import { useQuery } from '@tanstack/react-query';
import { createFileRoute } from '@tanstack/react-router';
import { EmbedPage } from '@/features/map/components/EmbedPage';
import { validateMapSearch } from '@/features/map/model/search';
import { projectQueryOptions } from '@/features/projects/api/project';

/**
 * /embed/:namespace/:projectName (issue 32, public): a public project's map alone, for other
 * sites' frames (the server lets EMBED_ORIGINS frame it; no app shell, no service worker).
 * The search params are the map's: version, file, visible layers and view.
 */
export const Route = createFileRoute('/embed/$namespace/$projectName')({
  validateSearch: validateMapSearch,
  component: EmbedRoute,
});

function EmbedRoute() {
  const { namespace, projectName } = Route.useParams();
  const search = Route.useSearch();
  // As a visitor: a frame on another site sends no session, and the page shows public maps only.
  const project = useQuery(projectQueryOptions(namespace, projectName, false));
  if (project.isPending) return null;
  return (
    <EmbedPage
      namespace={namespace}
      projectName={projectName}
      project={project.data ?? null}
      search={search}
    />
  );
}
