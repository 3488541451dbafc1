/**
 * Reading the bytes of a file version by its blob key, however it is stored: the one way
 * every reader (downloads, archives, pulls, the map, changesets, compare, restore, conflicts)
 * gets a file's bytes.
 *
 * A blob whose bytes are in the blob store is read from there at once (the latest version of
 * every file, checkpoints, files pushed whole). Otherwise its row names its recipe and the
 * whole file is rebuilt into this instance's cache (rebuild.ts, cache.ts) and read from
 * there; concurrent readers of the same file wait for one rebuild.
 */
import { createWriteStream } from 'node:fs';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { findBlob } from '../../db/queries/file-store';
import type { WorkLane } from '../../lib/sandbox';
import { BlobNotFoundError, InvalidRangeError, type ByteRange } from '../../storage/blob-store';
import { streamHandle, type CacheHandle } from './cache';
import { fileCacheOf, type FileStoreContext } from './context';
import { schedulePagePatches } from './page-patch-store';
import { rebuildInto } from './rebuild';

/**
 * The whole file of blob `key` in this instance's cache, held until released (rebuilt when
 * missing). Throws BlobNotFoundError for an unknown key, FileRebuildError when it cannot be
 * rebuilt exactly. `lane`: who waits (rebuild.ts): a person (interactive, the default) or no
 * one (background work).
 */
export async function cachedFile(
  ctx: FileStoreContext,
  key: string,
  lane: WorkLane = 'interactive',
): Promise<CacheHandle> {
  const row = await findBlob(ctx.database.db, key);
  if (!row) throw new BlobNotFoundError(key);
  if (row.stored && !row.baseKey) throw new BlobNotFoundError(key);
  return fileCacheOf(ctx).obtain(row.sha1, row.size, async (work) => {
    // Rebuilt through diffs (versions whose patch was never made, or failed): their patches
    // are made in the background, once this rebuild is in the cache.
    if (!(await rebuildInto(ctx, row, work, lane))) schedulePagePatches(ctx, [key]);
  });
}

/** The bytes of blob `key` (or an inclusive range of them), rebuilt when stored as a diff. */
export async function openStoredFile(
  ctx: FileStoreContext,
  key: string,
  range?: ByteRange,
  lane: WorkLane = 'interactive',
): Promise<Readable> {
  try {
    return await ctx.blobStore.open(key, range);
  } catch (error) {
    if (!(error instanceof BlobNotFoundError)) throw error;
  }
  const handle = await cachedFile(ctx, key, lane);
  if (!range) return streamHandle(handle);
  const end = range.end ?? handle.size - 1;
  if (
    !Number.isInteger(range.start) ||
    !Number.isInteger(end) ||
    range.start < 0 ||
    range.start > end ||
    end >= handle.size
  ) {
    handle.release();
    throw new InvalidRangeError(range, handle.size);
  }
  return streamHandle(handle, { start: range.start, end });
}

/** Copies the bytes of blob `key` to `file` (a new file the caller owns). */
export async function copyStoredFile(
  ctx: FileStoreContext,
  key: string,
  file: string,
  lane: WorkLane = 'interactive',
): Promise<void> {
  await pipeline(await openStoredFile(ctx, key, undefined, lane), createWriteStream(file));
}

/**
 * Makes sure the bytes of blob `key` can be read before an answer starts (a project archive
 * streams its files after its status went out): a blob stored as a diff is rebuilt into the
 * cache now, so a failure is a clean answer instead of a broken archive.
 */
export async function prepareStoredFile(ctx: FileStoreContext, key: string): Promise<void> {
  if (await ctx.blobStore.has(key)) return;
  (await cachedFile(ctx, key)).release();
}
