import { createFileRoute, redirect } from '@tanstack/react-router';

/** .../history/:version_id (project-versions-detail, public): redirects to the history route. */
export const Route = createFileRoute('/_app/projects/$namespace/$projectName/history/$version_id/')(
  {
    beforeLoad: ({ params }) => {
      throw redirect({
        to: '/projects/$namespace/$projectName/history',
        params: { namespace: params.namespace, projectName: params.projectName },
        search: { version_id: params.version_id },
        replace: true,
      });
    },
  },
);
