/**
 * Purging projects scheduled for deletion (api-reference A.5 scheduleDelete): once
 * DELETED_PROJECT_EXPIRATION_DAYS have passed, the project's rows go (members, versions,
 * file history, uploads, access requests: the name is free again), and so do the blobs no
 * other project references.
 *
 * Blobs are deleted in two steps, both under the exclusive blob lock that version commits
 * take shared (db/queries/versions.ts): first the rows nothing references, then the bytes
 * of those keys that are still without a row. A commit that re-adds such a blob in between
 * either finds its bytes or fails cleanly (MissingBlobError); no row ever points at bytes
 * that are gone.
 */
import type { AppContext } from '../context';
import {
  blobKeysOfProjects,
  deleteProjects,
  deleteUnreferencedBlobs,
  existingBlobKeys,
  listProjectsRemovedBefore,
} from '../db/queries/blobs';
import { lockBlobsExclusive } from '../db/queries/versions';
import { DELETED_PROJECT_EXPIRATION_DAYS } from './projects';

/** Projects purged per transaction. */
const PURGE_BATCH = 20;

export interface PurgeResult {
  projects: number;
  blobs: number;
}

/** Runs as the scheduled job PURGE_JOB (jobs/scheduler.ts); safe to run concurrently. */
export async function purgeRemovedProjects(ctx: AppContext): Promise<PurgeResult> {
  const db = ctx.database.db;
  const before = new Date(ctx.now().getTime() - DELETED_PROJECT_EXPIRATION_DAYS * 24 * 3600 * 1000);
  const result: PurgeResult = { projects: 0, blobs: 0 };
  for (;;) {
    const ids = await listProjectsRemovedBefore(db, before, PURGE_BATCH);
    if (ids.length === 0) break;
    const orphans = await db.transaction(async (tx) => {
      await lockBlobsExclusive(tx);
      const keys = await blobKeysOfProjects(tx, ids);
      await deleteProjects(tx, ids);
      return deleteUnreferencedBlobs(tx, keys);
    });
    result.projects += ids.length;
    result.blobs += await deleteBlobsWithoutRows(ctx, orphans);
  }
  if (result.projects > 0) {
    ctx.log.info(result, `Purged ${result.projects} deleted project(s), ${result.blobs} blob(s)`);
  }
  return result;
}

/**
 * Deletes the bytes of those `keys` that no blob row references, under the exclusive blob
 * lock (a commit adding a row for one of them meanwhile either comes first and keeps it, or
 * waits). For bytes stored ahead of a commit that never happened: a purged project's, or a
 * diff the server made for a version it could not make (time travel). Answers how many went.
 */
export async function deleteBlobsWithoutRows(
  ctx: Pick<AppContext, 'database' | 'blobStore'>,
  keys: string[],
): Promise<number> {
  if (keys.length === 0) return 0;
  return ctx.database.db.transaction(async (tx) => {
    await lockBlobsExclusive(tx);
    const referenced = await existingBlobKeys(tx, keys);
    let deleted = 0;
    for (const key of new Set(keys)) {
      if (!referenced.has(key) && (await ctx.blobStore.delete(key))) deleted++;
    }
    return deleted;
  });
}
