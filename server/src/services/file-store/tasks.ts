/**
 * Arranging where a file's whole copies are, in the background (file_store_tasks): after a
 * version made from a diff (or any update of a GeoPackage / SQLite file) the file is queued,
 * due VERSION_COPY_DELAY later (at once when the new version's chain passes the checkpoint
 * rule's bounds). When due, one instance claims it (a lease) and:
 *
 * 1. with `convert` (admin command `storage convert`): gives the versions pushed as diffs
 *    before diffs were stored their recipes, each checked by applying its diff to the version
 *    before and comparing the SHA-1 (convert.ts);
 * 2. makes the page patches the file's versions made from diffs lack (page-patch-store.ts:
 *    made after each commit, missing after a crash in between or from before patches);
 * 3. places the whole copies by the checkpoint rule (rule.ts): writes the ones missing (the
 *    latest version, checkpoints), then drops the ones not needed.
 *
 * Every step keeps every version readable: a copy is written (and checked) before its row
 * says stored; a row says not stored before its copy is deleted (blob_deletions holds the
 * deletion until done, under the row's lock, so a copy written again meanwhile stays).
 */
import { createReadStream } from 'node:fs';
import type { AppContext } from '../../context';
import {
  addConversionProgress,
  queueDiffFileTask,
  claimFileTask,
  dropBlobDeletion,
  fileStorageHistory,
  findBlob,
  finishFileTask,
  isCurrentAnywhere,
  listBlobDeletions,
  lockBlob,
  nextFileTaskDue,
  queueBlobDeletion,
  queueFileTask,
  recipeChain,
  releaseFileTask,
  renewFileTask,
  setStored,
  type FileStoreTask,
  type HistoryStepRow,
} from '../../db/queries/file-store';
import type { Executor } from '../../db/database';
import { BlobSizeMismatchError } from '../../storage/blob-store';
import { fileCacheOf, type FileStoreContext } from './context';
import { giveRecipes } from './convert';
import { makeMissingPatches, pagePatchWorkIdle } from './page-patch-store';
import { cachedFile } from './reader';
import { MAX_CHAIN } from './rebuild';
import { DEFAULT_LIMITS, placeCopies, type FileStep, type RuleLimits } from './rule';
import { isVersionedFile } from '../../schemas/protocol';
import { nextTurn } from '../../lib/next-turn';

export const FILE_STORE_JOB = 'arrange-file-copies';
/**
 * A claim lasts this long and is renewed while the file is worked on, so the work of a
 * process that died is taken over (by another instance, or after a restart) within it.
 */
export const TASK_LEASE_MS = 60 * 1000;
/** A failed task is tried again after this long. */
export const TASK_RETRY_MS = 60 * 1000;

/** What one task did (tests, the conversion's progress). */
export interface TaskOutcome {
  recipes: number;
  written: number;
  dropped: number;
  bytesFreed: number;
}

/** The file's versions as the rule sees them (deletions cut the chain). */
async function stepsOf(ctx: FileStoreContext, rows: HistoryStepRow[]): Promise<FileStep[]> {
  const steps: FileStep[] = [];
  let previous: string | null = null;
  for (const row of rows) {
    if (row.change === 'delete' || !row.blob) {
      previous = null;
      continue;
    }
    const blob = row.blob;
    const recipe = blob.baseKey !== null && blob.diffKey !== null;
    const linear = recipe && previous !== null && blob.baseKey === previous;
    const step: FileStep = {
      key: blob.key,
      size: blob.size,
      stored: blob.stored,
      recipe,
      linearDiff: linear ? (row.diffSize ?? 0) : null,
      patch: row.patchSize ?? 0,
      shared: row.shared,
    };
    if (!blob.stored && (!linear || row.shared)) {
      const chain = await recipeChain(ctx.database.db, blob.key, MAX_CHAIN);
      step.chainBytes = chain.at(-1)?.stored
        ? chain.slice(0, -1).reduce((sum, link) => sum + (link.diffSize ?? 0), 0)
        : Infinity;
      step.chainDiffs = chain.at(-1)?.stored ? chain.length - 1 : Infinity;
    }
    steps.push(step);
    previous = blob.key;
  }
  return steps;
}

/**
 * Writes the whole file of blob `key` into the blob store under its key and marks it stored
 * (its bytes checked by size after the write, under the row's lock). False when the blob
 * went or was stored meanwhile.
 */
export async function writeWholeCopy(ctx: FileStoreContext, key: string): Promise<boolean> {
  const handle = await cachedFile(ctx, key, 'background');
  try {
    await ctx.blobStore.put(createReadStream(handle.path, { highWaterMark: 1024 * 1024 }), {
      expectedSize: handle.size,
      as: { key, sha1: handle.sha1 },
    });
  } finally {
    handle.release();
  }
  const db = ctx.database.db;
  const marked = await db.transaction(async (tx) => {
    const done = await setStored(tx, key, true, async (blob) => {
      const found = await ctx.blobStore.stat(key);
      if (found?.size !== blob.size) throw new BlobSizeMismatchError(blob.size, found?.size ?? 0);
      return true;
    });
    await dropBlobDeletion(tx, key);
    return done;
  });
  return marked;
}

/**
 * Drops the whole copy of blob `key` (it keeps its recipe): false when it must stay (another
 * file's latest version now, or it was dropped meanwhile).
 */
async function dropWholeCopy(ctx: FileStoreContext, key: string): Promise<boolean> {
  const dropped = await ctx.database.db.transaction(async (tx) => {
    const done = await setStored(tx, key, false, async () => !(await isCurrentAnywhere(tx, key)));
    if (done) await queueBlobDeletion(tx, key, ctx.now());
    return done;
  });
  if (dropped) await deleteDroppedCopy(ctx, key);
  return dropped;
}

/** Deletes the bytes of a dropped copy, unless its row says stored again (or it came back). */
export async function deleteDroppedCopy(ctx: FileStoreContext, key: string): Promise<void> {
  await ctx.database.db.transaction(async (tx: Executor) => {
    const blob = await lockBlob(tx, key);
    if (!blob || !blob.stored) await ctx.blobStore.delete(key);
    await dropBlobDeletion(tx, key);
  });
}

/** Deletes the copies whose deletion a crash interrupted. */
export async function sweepDroppedCopies(ctx: FileStoreContext): Promise<number> {
  let done = 0;
  for (;;) {
    const keys = await listBlobDeletions(ctx.database.db, 100);
    if (keys.length === 0) return done;
    for (const key of keys) {
      await deleteDroppedCopy(ctx, key);
      done++;
    }
  }
}

/**
 * Makes the page patches the file's versions made from diffs lack (page-patch-store.ts):
 * normally made right after each commit, they are missing after a crash in between, or for
 * versions stored as diffs before patches existed. Newest first; one walk covers a chain.
 */
async function makeFilePatches(ctx: FileStoreContext, rows: HistoryStepRow[]): Promise<void> {
  const done = new Set<string>();
  for (const row of [...rows].reverse()) {
    const blob = row.blob;
    if (!blob?.baseKey || !blob.diffKey || row.patchSize !== null || done.has(blob.key)) continue;
    done.add(blob.key);
    try {
      for (const key of await makeMissingPatches(ctx, blob.key)) done.add(key);
    } catch (error) {
      // A shortcut only: the copies are arranged all the same.
      ctx.log.warn(
        { err: error, blob: blob.key },
        'A page patch could not be made; the version is rebuilt from its diff',
      );
    }
  }
}

/** Arranges one file's copies (see the module comment). */
export async function arrangeFile(
  ctx: FileStoreContext,
  task: Pick<FileStoreTask, 'projectId' | 'path' | 'convert'>,
  limits: RuleLimits = DEFAULT_LIMITS,
): Promise<TaskOutcome> {
  const db = ctx.database.db;
  const outcome: TaskOutcome = { recipes: 0, written: 0, dropped: 0, bytesFreed: 0 };
  if (task.convert) {
    outcome.recipes = await giveRecipes(
      ctx,
      task.projectId,
      task.path,
      await fileStorageHistory(db, task.projectId, task.path),
    );
  }
  await makeFilePatches(ctx, await fileStorageHistory(db, task.projectId, task.path));
  const rows = await fileStorageHistory(db, task.projectId, task.path);
  const steps = await stepsOf(ctx, rows);
  const placement = placeCopies(steps, true, limits);
  const sizes = new Map(steps.map((step) => [step.key, step.size]));
  for (const key of placement.store) {
    if (await writeWholeCopy(ctx, key)) outcome.written++;
  }
  for (const key of placement.unstore) {
    if (await dropWholeCopy(ctx, key)) {
      outcome.dropped++;
      outcome.bytesFreed += sizes.get(key) ?? 0;
    }
  }
  return outcome;
}

/**
 * Queues the storage of the versioned files a version changed (inside the version's
 * transaction): due `delay` later, at once when a file's new blob is rebuilt through more
 * diff bytes than the rule allows.
 */
export async function queueChangedFiles(
  tx: Executor,
  projectId: string,
  files: {
    path: string;
    blobKey: string;
    size: number;
    madeFromDiff: boolean;
    added: boolean;
  }[],
  at: Date,
  delayMs: number,
  limits: RuleLimits = DEFAULT_LIMITS,
): Promise<void> {
  for (const file of files) {
    if (!isVersionedFile(file.path)) continue;
    // A file added whole has nothing to arrange (unless it reuses a blob stored as a diff).
    if (file.added && !file.madeFromDiff && (await findBlob(tx, file.blobKey))?.stored) continue;
    const dueAt = new Date(at.getTime() + delayMs);
    if (file.madeFromDiff && delayMs > 0) {
      // At once when its rebuild applies more diff bytes than the rule allows (one statement).
      await queueDiffFileTask(tx, {
        projectId,
        path: file.path,
        key: file.blobKey,
        limit: limits.diffs + 1,
        maxBytes: limits.share * file.size,
        dueAt,
        at,
      });
      continue;
    }
    await queueFileTask(tx, { projectId, path: file.path, dueAt, at });
  }
}

/**
 * Arranges due files until none is left to claim; returns how many were handled. Safe to run
 * on several instances at once.
 */
export async function runFileStoreTasks(ctx: FileStoreContext): Promise<number> {
  const db = ctx.database.db;
  await sweepDroppedCopies(ctx);
  let handled = 0;
  for (;;) {
    const now = ctx.now();
    const task = await claimFileTask(db, now, new Date(now.getTime() + TASK_LEASE_MS));
    if (!task) return handled;
    handled++;
    const renewal = setInterval(() => {
      renewFileTask(db, task, new Date(ctx.now().getTime() + TASK_LEASE_MS)).catch(() => {});
    }, TASK_LEASE_MS / 4);
    renewal.unref();
    try {
      const outcome = await arrangeFile(ctx, task);
      await finishFileTask(db, task);
      if (task.convert) {
        await addConversionProgress(
          db,
          {
            files: 1,
            recipes: outcome.recipes,
            dropped: outcome.dropped,
            bytes: outcome.bytesFreed,
          },
          ctx.now(),
        );
      }
    } catch (error) {
      ctx.log.error(
        { err: error, project: task.projectId, path: task.path, attempt: task.attempts },
        'The copies of a file could not be arranged',
      );
      await releaseFileTask(db, task, new Date(ctx.now().getTime() + TASK_RETRY_MS));
    } finally {
      clearInterval(renewal);
    }
  }
}

interface WorkerState {
  running: Promise<void> | null;
  again: boolean;
  timer: NodeJS.Timeout | null;
}

const workers = new WeakMap<object, WorkerState>();

function stateOf(ctx: object): WorkerState {
  let state = workers.get(ctx);
  if (!state) {
    state = { running: null, again: false, timer: null };
    workers.set(ctx, state);
  }
  return state;
}

/** Longest wait of the in-process timer for the next due file (the scheduler polls too). */
const MAX_TIMER_MS = 10 * 60 * 1000;

/**
 * Starts arranging due files in the background (after a version was committed); returns at
 * once. One run per process at a time; afterwards a timer waits for the next due file.
 */
export function startFileStoreWork(ctx: AppContext): void {
  const state = stateOf(ctx);
  if (state.running) {
    state.again = true;
    return;
  }
  if (state.timer) {
    clearTimeout(state.timer);
    state.timer = null;
  }
  state.running = (async () => {
    await nextTurn();
    do {
      state.again = false;
      await runFileStoreTasks(ctx);
    } while (state.again);
    const next = await nextFileTaskDue(ctx.database.db);
    if (next) {
      const wait = Math.max(0, Math.min(MAX_TIMER_MS, next.getTime() - ctx.now().getTime()));
      state.timer = setTimeout(() => {
        state.timer = null;
        startFileStoreWork(ctx);
      }, wait + 50);
      state.timer.unref();
    }
  })()
    .catch((error: unknown) => {
      ctx.log.error({ err: error }, 'The copies of files could not be arranged');
    })
    .finally(() => {
      state.running = null;
    });
}

/** Resolves once no background run is going on, page patches included (shutdown, tests). */
export async function fileStoreWorkIdle(ctx: AppContext): Promise<void> {
  const state = stateOf(ctx);
  for (;;) {
    await pagePatchWorkIdle(ctx);
    // Rebuilt bytes answered from memory: their files written into the cache.
    await fileCacheOf(ctx).settled();
    if (!state.running) return;
    while (state.running) await state.running;
  }
}

/** Stops the timer (shutdown). */
export function stopFileStoreWork(ctx: AppContext): void {
  const state = workers.get(ctx);
  if (state?.timer) clearTimeout(state.timer);
  if (state) state.timer = null;
}
