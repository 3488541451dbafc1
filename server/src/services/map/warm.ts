/**
 * Warming the map ahead of its first opening: when a push makes a version, its added and
 * updated GeoPackages are copied for the map (store.ts) and their point indexes built (in
 * the map reader, tiles.ts), in the background after the push answered. One file at a
 * time, files up to WARM_MAX_BYTES, at most WARM_QUEUE files waiting (more are skipped: the
 * first opening builds them); failures are only logged. Everything is keyed by content, so
 * a warmed file serves every version holding the same bytes. A file waiting is replaced by a
 * newer version of the same file of the same project: the map opens on the latest, and a
 * client syncing often (or 200 pushes in a row) would otherwise have every version warmed.
 */
import type { AppContext } from '../../context';
import { startMapReader } from './read';
import { mapFile } from './store';
import { pointIndexOf, pointLayers } from './tiles';
import { isVersionedFile } from '../../schemas/protocol';
import { nextTurn } from '../../lib/next-turn';

/** Largest GeoPackage warmed after a push (bytes). */
export const WARM_MAX_BYTES = 256 * 1024 ** 2;
/** Most files waiting to be warmed. */
export const WARM_QUEUE = 32;

interface Blob {
  projectId: string;
  path: string;
  key: string;
  checksum: string;
  size: number;
}

interface WarmState {
  queue: Blob[];
  running: Promise<void> | null;
}

const states = new WeakMap<AppContext, WarmState>();

function stateOf(ctx: AppContext): WarmState {
  let state = states.get(ctx);
  if (!state) {
    state = { queue: [], running: null };
    states.set(ctx, state);
  }
  return state;
}

async function warmFile(ctx: AppContext, blob: Blob): Promise<void> {
  const file = await mapFile(ctx, blob);
  await Promise.all(pointLayers(file).map((layer) => pointIndexOf(ctx, file, layer)));
}

/**
 * Queues the GeoPackages among a new version's added and updated files for warming; returns
 * at once.
 */
export function warmMapFiles(
  ctx: AppContext,
  projectId: string,
  files: { path: string; size: number; checksum: string; blobKey: string }[],
): void {
  const state = stateOf(ctx);
  for (const file of files) {
    if (!isVersionedFile(file.path) || file.size > WARM_MAX_BYTES) continue;
    // An older version of the file still waiting is not warmed: this one replaces it.
    state.queue = state.queue.filter(
      (queued) => queued.projectId !== projectId || queued.path !== file.path,
    );
    if (state.queue.length >= WARM_QUEUE) break;
    if (state.queue.some((queued) => queued.checksum === file.checksum)) continue;
    state.queue.push({
      projectId,
      path: file.path,
      key: file.blobKey,
      checksum: file.checksum,
      size: file.size,
    });
  }
  if (state.running || state.queue.length === 0) return;
  startMapReader(ctx);
  state.running = (async () => {
    await nextTurn();
    for (let blob = state.queue.shift(); blob; blob = state.queue.shift()) {
      try {
        await warmFile(ctx, blob);
      } catch (error) {
        ctx.log.warn(
          { err: error, file: blob.path },
          'The map of a pushed file could not be prepared',
        );
      }
    }
  })().finally(() => {
    state.running = null;
  });
}

/** Resolves once nothing is being warmed (shutdown, tests). */
export async function mapWarmIdle(ctx: AppContext): Promise<void> {
  const state = states.get(ctx);
  while (state?.running) await state.running;
}
