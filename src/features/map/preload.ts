/**
 * Getting the Map tab ready before it opens (issue 19: the first frame with features counts
 * from the click on the tab): the project view preloads the map's code (OpenLayers) in an idle
 * moment once it has shown a project with a GeoPackage, and at once when the tab is about to
 * be opened (pointer over it, focus, press).
 *
 * This module is imported by the project view's route, so it must share no module with the
 * map's own chunk: a module both import becomes a chunk of its own, whose name lands in the
 * first screens' code (the bundle budget has no byte to spare). So the layers are not
 * prefetched here; `MapPage` asks for them as it renders.
 */
import { afterFirstScreen } from '@/db/afterFirstScreen';

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
