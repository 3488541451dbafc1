import { createFileRoute } from '@tanstack/react-router';
import { pathCrumbs } from '../../../../../../app/breadcrumbs';
import { validateProjectTreeSearch } from '../../../../../../app/search';

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
});
