/**
 * Warming the map ahead of its first opening: when a push makes a version, its added and
 * updated GeoPackages are copied for the map (store.ts) and their point indexes built (in
 * the map reader, tiles.ts), in the background after the push answered. One file at a
 * time, files up to WARM_MAX_BYTES, at most WARM_QUEUE files waiting (more are skipped: the
 * first opening builds them); failures are only logged. Everything is keyed by content, so
 * a warmed file serves every version holding the same bytes. A file waiting is replaced by a
 * newer version of the same file of the same project: the map opens on the latest, and a
 * client syncing often (or 200 pushes in a row) would otherwise have every version warmed.
 * For the same reason the warming starts once no file was queued for WARM_SETTLE_MS (a burst
 * of pushes is over), or at once when someone waits for it (`mapWarmIdle`).
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
/**
 * How long no file must have been queued before the warming starts: while a client pushes
 * version after version, each would be copied and indexed only to be replaced at once.
 */
export const WARM_SETTLE_MS = 2000;

/** Files warmed by this process (tests). */
export const warmCounts = { warmed: 0 };
/** The settling in use (tests change it). */
export const warmSettings = { settleMs: WARM_SETTLE_MS };

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
  /** When a file was last queued (performance.now()). */
  queuedAt: number;
  /** Someone waits (mapWarmIdle): no settling. */
  hurry: boolean;
  /** Ends the settling's wait early. */
  wake: (() => void) | null;
}

const states = new WeakMap<AppContext, WarmState>();

function stateOf(ctx: AppContext): WarmState {
  let state = states.get(ctx);
  if (!state) {
    state = { queue: [], running: null, queuedAt: 0, hurry: false, wake: null };
    states.set(ctx, state);
  }
  return state;
}

async function warmFile(ctx: AppContext, blob: Blob): Promise<void> {
  const file = await mapFile(ctx, blob);
  await Promise.all(pointLayers(file).map((layer) => pointIndexOf(ctx, file, layer)));
  warmCounts.warmed++;
}

/** Resolves once no file was queued for WARM_SETTLE_MS, or someone waits for the warming. */
async function settled(state: WarmState): Promise<void> {
  for (;;) {
    const left = state.queuedAt + warmSettings.settleMs - performance.now();
    if (state.hurry || left <= 0) return;
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, left);
      timer.unref();
      state.wake = () => {
        clearTimeout(timer);
        resolve();
      };
    });
    state.wake = null;
  }
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
    state.queuedAt = performance.now();
  }
  if (state.running || state.queue.length === 0) return;
  startMapReader(ctx);
  state.running = (async () => {
    await nextTurn();
    for (;;) {
      await settled(state);
      const blob = state.queue.shift();
      if (!blob) break;
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
    state.hurry = false;
  });
}

/** Resolves once nothing is being warmed (shutdown, tests). */
export async function mapWarmIdle(ctx: AppContext): Promise<void> {
  const state = states.get(ctx);
  while (state?.running) {
    state.hurry = true;
    state.wake?.();
    await state.running;
  }
}
