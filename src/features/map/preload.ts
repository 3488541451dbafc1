/**
 * Getting the Map tab ready before it opens (issue 19: the first frame with features counts
 * from the click on the tab). The project view preloads the map's code (OpenLayers) in an idle
 * moment once it has shown a project with a GeoPackage, and asks for the layers the tab shows
 * first as soon as the tab is about to be opened (pointer over it, focus, press). Both are
 * what the tab asks for itself, so it finds them in the caches (the browser's, TanStack
 * Query's).
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

/** Starts the layers request of what the Map tab opens on (the first GeoPackage, latest). */
export function prefetchMapLayers(
  queryClient: QueryClient,
  project: { namespace: string; name: string; files: readonly { path: string }[] },
): void {
  const [file] = geoPackagesOf(project.files);
  if (!file) return;
  void queryClient.prefetchQuery(
    layersQueryOptions({ namespace: project.namespace, projectName: project.name, file }),
  );
}
