/**
 * Getting the Map tab ready before it opens (issue 19: the first frame with features counts
 * from the click on the tab): the project view preloads the map's code (OpenLayers) and its
 * first layers query in an idle moment once it has shown a project with a GeoPackage, and at
 * once when the tab is about to be opened (pointer over it, focus, press). The layers query
 * is the one `MapPage` asks first (the first map file at the latest version), so the server's
 * point-index worker and the file's layers are ready when the map renders.
 */
import type { QueryClient } from '@tanstack/react-query';
import { afterFirstScreen } from '@/db/afterFirstScreen';
import { layersQueryOptions } from './api/map';
import { geoPackagesOf } from './model/project';

/** How long the preload waits for an idle moment at most (ms). */
const IDLE_TIMEOUT_MS = 2000;

/**
 * Runs `load` once the first screen has shown and the page is idle (the map's code must not
 * compete with what the project view is loading); the returned function cancels it.
 */
export function whenIdle(load: () => void): () => void {
  let cancelled = false;
  void afterFirstScreen(async () => {
    if (cancelled) return;
    const request = (globalThis as { requestIdleCallback?: typeof requestIdleCallback })
      .requestIdleCallback;
    const run = () => {
      if (!cancelled) load();
    };
    if (request) request(run, { timeout: IDLE_TIMEOUT_MS });
    else setTimeout(run, 0);
  });
  return () => {
    cancelled = true;
  };
}

/** What the prefetch reads of the project shown. */
export interface MapProject {
  namespace: string;
  name: string;
  files: readonly { path: string }[];
}

/**
 * Prefetches the layers of the file the Map tab shows first (as `MapPage` chooses it, without
 * search params); nothing when the project has no map file. A failure is left for the tab to
 * show (the query is silent).
 */
export function prefetchMapLayers(queryClient: QueryClient, project: MapProject): void {
  const file = geoPackagesOf(project.files)[0];
  if (file === undefined) return;
  void queryClient.prefetchQuery(
    layersQueryOptions({ namespace: project.namespace, projectName: project.name, file }),
  );
}
