/**
 * Getting the Map tab ready before it opens (issue 19: the first frame with features counts
 * from the click on the tab): the project view preloads the map's code (OpenLayers) and its
 * first layers query in an idle moment once it has shown a project with a GeoPackage, and at
 * once when the tab is about to be opened (pointer over it, focus, press). The layers query
 * is the one `MapPage` asks first (the first map file at the latest version), so the server's
 * point-index worker and the file's layers are ready when the map renders; then, unless the
 * browser asks to save data, the tiles the map asks for first are fetched ahead
 * (components/firstTiles.ts), and in the idle moment the map is drawn once out of sight
 * (components/warmUp.ts).
 */
import type { QueryClient } from '@tanstack/react-query';
import { afterFirstScreen } from '@/db/afterFirstScreen';
import { canvasLayers, layersQueryOptions } from './api/map';
import { visibleLayers } from './model/layers';
import { mapSize, NARROW_MEDIA } from './model/layout';
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

/** When the first tiles of a file version on a map size were last fetched ahead. */
const tilesAskedAt = new Map<string, number>();
/** How long until they are fetched ahead again (the tiles wait a minute: tilesAhead.ts). */
const TILES_AGAIN_MS = 60_000;

/** The browser's Save-Data wish (Chromium's Network Information API). */
const savesData = () =>
  (navigator as { connection?: { saveData?: boolean } }).connection?.saveData === true;

/** Where and when the tab is prepared. */
export interface MapTabMoment {
  /** The project view's content width (px), where the map will be; unknown: no tiles. */
  contentWidth?: number;
  /** An idle moment (not a pointer about to open the tab): the map is also drawn ahead. */
  idle: boolean;
}

/**
 * Prepares the Map tab as `MapPage` opens it first (without search params): prefetches the
 * layers of the first map file, then fetches the tiles the map asks for first ahead; in an
 * idle moment it also draws the map once out of sight (components/warmUp.ts). Nothing when the
 * project has no map file; a failure is left for the tab to show. Settles (never rejects) once
 * it has decided, and any tiles ahead are asked for.
 */
export function prepareMapTab(
  queryClient: QueryClient,
  project: MapProject,
  { contentWidth, idle }: MapTabMoment,
): Promise<void> {
  const file = geoPackagesOf(project.files)[0];
  if (file === undefined) return Promise.resolve();
  const source = { namespace: project.namespace, projectName: project.name, file };
  return queryClient
    .fetchQuery(layersQueryOptions(source))
    .then(async (answer) => {
      if (contentWidth === undefined || savesData()) return;
      const size = mapSize(
        contentWidth,
        window.innerHeight,
        window.matchMedia(NARROW_MEDIA).matches,
      );
      // Once per file version and map size a minute (the idle moment and each intent ask).
      const key = JSON.stringify([source, answer.version, size]);
      const now = Date.now();
      for (const [asked, at] of tilesAskedAt) {
        if (now - at >= TILES_AGAIN_MS) tilesAskedAt.delete(asked);
      }
      if (tilesAskedAt.has(key)) return;
      tilesAskedAt.set(key, now);
      const { prefetchFirstTiles } = await import('./components/firstTiles');
      const names = answer.layers.map((layer) => layer.name);
      const layers = canvasLayers(answer, source, visibleLayers(undefined, names));
      prefetchFirstTiles(layers, size, { warmUpWhen: idle ? whenIdle : undefined });
    })
    .catch(() => undefined);
}
