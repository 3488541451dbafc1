/**
 * Builds point indexes (points.ts) in a worker thread (lib/worker-thread.ts), so the build
 * of a large layer never holds up the server's requests. The worker opens the file copy
 * read-only itself; the index comes back as typed arrays. Without a worker thread the build
 * runs here. The worker is started when a map is first asked for (the layers of a file, a
 * push to warm) and ended after POINT_WORKER_IDLE_MS without work, so a server whose maps
 * nobody opens holds no worker.
 */
import Database from 'better-sqlite3';
import { threadRunner } from '../../lib/worker-thread';
import { readLayers } from './gpkg';
import { buildPointIndex, type PointIndex } from './points';

export interface PointIndexRequest {
  /** The read-only copy of the GeoPackage (store.ts). */
  file: string;
  layer: string;
}

/** Opens the file, builds the layer's index, closes the file. */
export async function buildPointIndexOfFile({
  file,
  layer,
}: PointIndexRequest): Promise<PointIndex> {
  const db = new Database(file, { readonly: true, fileMustExist: true });
  try {
    const info = readLayers(db).find((candidate) => candidate.name === layer);
    if (!info?.transform || info.geometryType !== 'POINT') {
      throw new Error(`Layer ${layer} is not a drawable point layer`);
    }
    return buildPointIndex(db, info);
  } finally {
    db.close();
  }
}

/** How long the worker is kept without work (ms). */
export const POINT_WORKER_IDLE_MS = 5 * 60_000;

const run = threadRunner<PointIndexRequest, PointIndex>({
  url: new URL('./points.worker.mjs', import.meta.url),
  label: 'The point index worker',
  runHere: buildPointIndexOfFile,
  reviveError: () => null,
  idleMs: POINT_WORKER_IDLE_MS,
});

/**
 * Starts the worker ahead of the first index (a file's layers asked for, a push queued for
 * warming): loading it through tsx takes a few tenths of a second, which then overlaps the
 * copying and opening of the file instead of following it.
 */
export function startPointIndexWorker(): void {
  run.start();
}

/**
 * Layers of at most this many points are indexed on the calling thread while the worker is
 * still loading (a few tens of ms; loading the worker takes 0.4-0.8 s): the first opening of
 * a small file that no push warmed does not wait for the worker.
 */
export const HERE_MAX_POINTS = 10_000;

/** The layer's point index, built in the worker thread (small layers: see HERE_MAX_POINTS). */
export function buildPointIndexInThread(
  request: PointIndexRequest,
  points: number,
): Promise<PointIndex> {
  if (points <= HERE_MAX_POINTS && !run.ready()) return buildPointIndexOfFile(request);
  return run(request);
}
