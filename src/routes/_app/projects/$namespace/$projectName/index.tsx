import { createFileRoute, redirect } from '@tanstack/react-router';

/** /projects/:namespace/:projectName (project): redirects to the file tree. */
export const Route = createFileRoute('/_app/projects/$namespace/$projectName/')({
  beforeLoad: ({ params }) => {
    throw redirect({
      to: '/projects/$namespace/$projectName/tree/$',
      params: { namespace: params.namespace, projectName: params.projectName, _splat: '' },
      replace: true,
    });
  },
});
