import { AnchorLink } from '@/lib/routerLinks';

/**
 * 'Show on map' (issue 19): the map at this version with the GeoPackage's changes drawn in
 * three colours and its attribute tables filtered to them.
 */
export function ShowOnMap({
  params,
}: {
  params: { namespace: string; projectName: string; version_id: string; _splat: string };
}) {
  return (
    <AnchorLink
      to="/projects/$namespace/$projectName/map"
      params={{ namespace: params.namespace, projectName: params.projectName }}
      search={{ version: params.version_id, file: params._splat, changes: 'true' }}
      size="sm"
    >
      Show on map
    </AnchorLink>
  );
}
