/**
 * Computing the row-level changesets of updated GeoPackage / SQLite files, in the background.
 *
 * commitVersion records a pending file_changesets row per updated .gpkg/.sqlite file inside
 * the version's transaction. After the commit, the caller calls startChangesetWork (it does
 * not wait); a scheduled job (COMPUTE_CHANGESETS_JOB) also runs the queue, for rows left
 * behind by a crash or made while no server ran. Each row is claimed with a lease (see
 * db/queries/changesets.ts), both files are copied from the blob store to a temporary folder,
 * compared in the sandbox (lib/sqlite-diff.ts through geodiff/run.ts), and the result
 * is stored as done, or as error with the reason the changes cannot be calculated. Other failures (the blob store, the database) are
 * retried a minute later, at most MAX_ATTEMPTS times in all.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { AppContext } from '../context';
import {
  claimPendingChangeset,
  finishChangeset,
  releaseChangeset,
  type ClaimedChangeset,
} from '../db/queries/changesets';
import { runGeodiffWork } from '../geodiff/run';
import { WorkTooHeavyError, type WorkLane } from '../lib/sandbox';
import { ChangesImpossibleError } from '../lib/sqlite-diff';
import { changesImpossible } from '../schemas/protocol';
import { copyStoredFile } from './file-store';
import { changesFromStoredDiff, recordComputedDiff } from './version-diffs';
import { nextTurn } from '../lib/next-turn';

export const COMPUTE_CHANGESETS_JOB = 'compute-changesets';

/** A claim lasts this long; longer than any computation. */
export const CHANGESET_LEASE_MS = 30 * 60 * 1000;
/** A failed attempt is tried again after this long. */
export const CHANGESET_RETRY_MS = 60 * 1000;
export const MAX_ATTEMPTS = 3;
/** Changed rows kept per file (the summary counts them all). */
export const MAX_CHANGESET_ENTRIES = 100_000;

export const CALCULATION_FAILED = changesImpossible('the calculation failed');
/** The changeset's error when the work passed its budget (lib/sandbox). */
export const CHANGES_TOO_COMPLEX = changesImpossible('the file is too large or too complex');

/**
 * Copies a file version's bytes (blob `key`) to a file on disk, rebuilt when the version is
 * stored as its diff (services/file-store/; `lane`: whether a person waits for a rebuild).
 */
export async function copyBlob(
  ctx: AppContext,
  key: string,
  file: string,
  lane: WorkLane = 'interactive',
): Promise<void> {
  await copyStoredFile(ctx, key, file, lane);
}

/** Computes one claimed changeset and stores the result. */
async function computeOne(ctx: AppContext, job: ClaimedChangeset): Promise<void> {
  const db = ctx.database.db;
  const dir = await mkdtemp(path.join(tmpdir(), 'waymark-changeset-'));
  try {
    const before = path.join(dir, 'old.sqlite');
    const after = path.join(dir, 'new.sqlite');
    let beforeCopied = false;
    const copyBefore = async () => {
      if (beforeCopied) return;
      await copyBlob(ctx, job.oldBlobKey, before, 'background');
      beforeCopied = true;
    };
    await copyBlob(ctx, job.newBlobKey, after, 'background');
    try {
      // In the sandbox: a large or hostile file does not hold up the server's requests. A
      // version pushed as a diff has its changes read from the diff (the file before is not
      // needed: stored as a diff, it would be rebuilt for nothing).
      let diff = await changesFromStoredDiff(ctx, job, dir, after, MAX_CHANGESET_ENTRIES);
      if (!diff) {
        await copyBefore();
        diff = await runGeodiffWork(
          ctx,
          { kind: 'changes', oldFile: before, newFile: after, maxEntries: MAX_CHANGESET_ENTRIES },
          { lane: 'background' },
        );
      }
      await finishChangeset(db, job.id, {
        status: 'done',
        summary: diff.summary,
        changesJson: diff.changesJson,
        error: null,
        at: ctx.now(),
      });
    } catch (error) {
      if (!(error instanceof ChangesImpossibleError || error instanceof WorkTooHeavyError)) {
        throw error;
      }
      await finishChangeset(db, job.id, {
        status: 'error',
        summary: null,
        changesJson: null,
        error: error instanceof WorkTooHeavyError ? CHANGES_TOO_COMPLEX : error.message,
        at: ctx.now(),
      });
    }
    // A whole-file update also gets its GeoPackage diff (services/version-diffs.ts).
    await recordComputedDiff(ctx, job, dir, copyBefore, before, after).catch((error: unknown) => {
      // Without it clients download the whole file: not a reason to fail the history.
      ctx.log.warn({ err: error, changeset: job.id, path: job.path }, 'Diff not computed');
    });
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/**
 * Computes pending changesets until none is left to claim; returns how many were handled.
 * Safe to run on several instances at once.
 */
export async function runPendingChangesets(ctx: AppContext): Promise<number> {
  const db = ctx.database.db;
  let handled = 0;
  for (;;) {
    const now = ctx.now();
    const job = await claimPendingChangeset(db, now, new Date(now.getTime() + CHANGESET_LEASE_MS));
    if (!job) return handled;
    handled++;
    try {
      await computeOne(ctx, job);
    } catch (error) {
      ctx.log.error(
        { err: error, changeset: job.id, path: job.path, attempt: job.attempts },
        'Changeset could not be computed',
      );
      if (job.attempts >= MAX_ATTEMPTS) {
        await finishChangeset(db, job.id, {
          status: 'error',
          summary: null,
          changesJson: null,
          error: CALCULATION_FAILED,
          at: ctx.now(),
        });
      } else {
        await releaseChangeset(db, job.id, new Date(ctx.now().getTime() + CHANGESET_RETRY_MS));
      }
    }
  }
}

interface WorkerState {
  running: Promise<void> | null;
  again: boolean;
}

const workers = new WeakMap<AppContext, WorkerState>();

function stateOf(ctx: AppContext): WorkerState {
  let state = workers.get(ctx);
  if (!state) {
    state = { running: null, again: false };
    workers.set(ctx, state);
  }
  return state;
}

/**
 * Starts computing pending changesets in the background (after a version was committed);
 * returns at once. One run per server at a time; a call during a run makes it look again.
 */
export function startChangesetWork(ctx: AppContext): void {
  const state = stateOf(ctx);
  if (state.running) {
    state.again = true;
    return;
  }
  state.running = (async () => {
    await nextTurn();
    do {
      state.again = false;
      await runPendingChangesets(ctx);
    } while (state.again);
  })()
    .catch((error: unknown) => {
      ctx.log.error({ err: error }, 'Changesets could not be computed');
    })
    .finally(() => {
      state.running = null;
    });
}

/** Resolves once no background run is going on (server shutdown, tests). */
export async function changesetWorkIdle(ctx: AppContext): Promise<void> {
  const state = stateOf(ctx);
  while (state.running) await state.running;
}
