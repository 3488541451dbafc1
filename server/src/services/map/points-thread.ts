/**
 * Builds point indexes (points.ts) in a worker thread (lib/worker-thread.ts), so the build
 * of a large layer never holds up the server's requests. The worker opens the file copy
 * read-only itself; the index comes back as typed arrays. Without a worker thread the build
 * runs here.
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

const run = threadRunner<PointIndexRequest, PointIndex>({
  url: new URL('./points.worker.mjs', import.meta.url),
  label: 'The point index worker',
  runHere: buildPointIndexOfFile,
  reviveError: () => null,
});

/**
 * Starts the worker ahead of the first index (the server does at start): loading it takes
 * a few tenths of a second, which the first map a user opens should not wait for.
 */
export function startPointIndexWorker(): void {
  run.start();
}

/** The layer's point index, built in the worker thread. */
export function buildPointIndexInThread(request: PointIndexRequest): Promise<PointIndex> {
  return run(request);
}
