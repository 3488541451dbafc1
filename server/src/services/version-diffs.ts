/**
 * GeoPackage diffs of versions, next to the row-level changesets (services/changesets.ts):
 *
 * - A version pushed as a diff gets its row-level history from that diff (converted by
 *   geodiff/entries.ts with the new file's columns), not from comparing the files.
 * - A versioned file uploaded whole (browser, or a client that could not make a diff) gets
 *   the diff from its previous version computed here (geodiff/create.ts) and stored as its
 *   own blob on the version's file entry, which becomes an `update_diff` as in the
 *   reference, so clients that pull get a diff instead of the whole file. A file whose
 *   tables changed shape gets none (a plain update: the client downloads it whole).
 *
 * Both run in the sandbox (geodiff/run.ts).
 */
import { randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { AppContext } from '../context';
import type { ClaimedChangeset } from '../db/queries/changesets';
import { findVersionFileDiff, setComputedDiff } from '../db/queries/file-diffs';
import { chargeNewBlobs } from '../db/queries/file-store';
import { insertBlobRows, lockBlobsShared } from '../db/queries/versions';
import { CannotDiffError } from '../geodiff/create';
import { ChangesetFormatError } from '../geodiff/format';
import { runGeodiffWork } from '../geodiff/run';
import type { RowChanges } from '../geodiff/operations';
import { ChangesImpossibleError } from '../lib/sqlite-diff';
import type { BlobInfo } from '../storage/blob-store';

export const DIFF_UNREADABLE = 'the stored diff cannot be read';

/**
 * The row-level changes of a version's file from its stored diff (`after` is the new file,
 * copied to disk); null when the version has no diff. Throws ChangesImpossibleError when
 * the diff cannot be read.
 */
export async function changesFromStoredDiff(
  ctx: AppContext,
  job: ClaimedChangeset,
  dir: string,
  after: string,
  maxEntries: number,
): Promise<RowChanges | null> {
  const row = await findVersionFileDiff(ctx.database.db, job.versionId, job.path);
  if (!row?.diff || row.change !== 'update_diff') return null;
  const diff = path.join(dir, 'pushed.diff');
  await pipeline(await ctx.blobStore.open(row.diff.blob_key), createWriteStream(diff));
  try {
    const result = await runGeodiffWork(
      ctx,
      { kind: 'entries', file: after, diff, maxEntries },
      { lane: 'background' },
    );
    return {
      summary: result.summary as RowChanges['summary'],
      changesJson: result.changesJson,
      truncated: result.truncated,
    };
  } catch (error) {
    if (error instanceof ChangesetFormatError || error instanceof CannotDiffError) {
      throw new ChangesImpossibleError(DIFF_UNREADABLE);
    }
    throw error;
  }
}

/**
 * The diff turning the file `before` into `after` (on disk), made at `output` and put into
 * the blob store; null when no diff can be made or no row changed (the client then
 * downloads the whole file). Also used by time travel's GeoPackage updates.
 */
export async function storeComputedDiff(
  ctx: AppContext,
  before: string,
  after: string,
  output: string,
): Promise<BlobInfo | null> {
  let size: number;
  try {
    ({ size } = await runGeodiffWork(
      ctx,
      { kind: 'create', oldFile: before, newFile: after, output },
      { lane: 'background' },
    ));
  } catch (error) {
    if (error instanceof CannotDiffError) return null;
    throw error;
  }
  if (size === 0) return null;
  return ctx.blobStore.put(createReadStream(output), { expectedSize: size });
}

/**
 * Computes and records the diff of a whole-file update (`before`/`after` on disk). Does
 * nothing when the version already has a diff, the change is not an update, or no diff
 * can be made.
 */
export async function recordComputedDiff(
  ctx: AppContext,
  job: ClaimedChangeset,
  dir: string,
  copyBefore: () => Promise<void>,
  before: string,
  after: string,
): Promise<void> {
  const db = ctx.database.db;
  const row = await findVersionFileDiff(db, job.versionId, job.path);
  if (!row || row.diff || row.change !== 'update') return;
  await copyBefore();
  const blob = await storeComputedDiff(ctx, before, after, path.join(dir, 'computed.diff'));
  if (!blob) return;
  await db.transaction(async (tx) => {
    // As in a version commit: blob rows under the shared blob lock, so garbage collection
    // cannot take the new blob away.
    await lockBlobsShared(tx);
    await insertBlobRows(tx, [{ key: blob.key, size: blob.size, sha1: blob.sha1 }], ctx.now());
    const recorded = await setComputedDiff(tx, job.versionId, job.path, {
      path: `${job.path}-diff-${randomUUID()}`,
      size: blob.size,
      checksum: blob.sha1,
      blob_key: blob.key,
    });
    // The diff is stored bytes of the project (file-store/README.md).
    if (recorded) await chargeNewBlobs(tx, job.projectId, job.versionId, [blob.key]);
  });
}
