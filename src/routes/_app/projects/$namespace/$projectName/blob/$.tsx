import { createFileRoute, redirect } from '@tanstack/react-router';
import { parentFolder } from '@/lib/paths';

/**
 * /projects/:namespace/:projectName/blob/:location (blob): redirects to the tree route with the
 * location as `file_path`; the tree opens in the file's folder so the list shows its neighbours.
 */
export const Route = createFileRoute('/_app/projects/$namespace/$projectName/blob/$')({
  beforeLoad: ({ params }) => {
    const location = params._splat ?? '';
    throw redirect({
      to: '/projects/$namespace/$projectName/tree/$',
      params: {
        namespace: params.namespace,
        projectName: params.projectName,
        _splat: parentFolder(location),
      },
      search: location ? { file_path: location } : {},
      replace: true,
    });
  },
});
