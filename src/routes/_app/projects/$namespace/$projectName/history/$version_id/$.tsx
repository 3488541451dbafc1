import { createFileRoute } from '@tanstack/react-router';

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
});
