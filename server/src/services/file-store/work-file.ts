/**
 * A private work file of a version's bytes, for a version made by changing it in place
 * (browser edit batches: services/capture/edits.ts), and the result kept in this instance's
 * cache (cache.ts), as `fileFromDiff` does for pushed diffs:
 *
 * - `takeWorkFile`: the version's cached file moved out of the cache when nobody reads it
 *   (no copy: the batch before left it there), else copied once (from the cache, the blob
 *   store, or rebuilt);
 * - `keepWorkFile`: the changed file hashed (the hashing thread) and renamed into the cache
 *   under its SHA-1; answers its size and SHA-1;
 * - `giveBackWorkFile`: a work file the change left as it was goes back into the cache once
 *   its SHA-1 is checked (in the background), else is removed.
 */
import { rm } from 'node:fs/promises';
import type { WorkLane } from '../../lib/sandbox';
import { fileCacheOf, type FileStoreContext } from './context';
import { hashFileInThread } from './hash';
import { copyStoredFile } from './reader';

/** A version's blob as its history records it. */
export interface VersionBlob {
  key: string;
  size: number;
  checksum: string;
}

/** A work file (in the cache's folder) holding the bytes of `blob`; the caller owns it. */
export async function takeWorkFile(
  ctx: FileStoreContext,
  blob: VersionBlob,
  lane: WorkLane,
): Promise<string> {
  const cache = fileCacheOf(ctx);
  await cache.open();
  const work = cache.workPath();
  try {
    if (!(await cache.take(blob.checksum, blob.size, work))) {
      await copyStoredFile(ctx, blob.key, work, lane);
    }
    return work;
  } catch (error) {
    await rm(work, { force: true });
    throw error;
  }
}

/** Hashes the work file and puts it into the cache (the cache owns it then). */
export async function keepWorkFile(
  ctx: FileStoreContext,
  work: string,
): Promise<{ size: number; sha1: string }> {
  try {
    const made = await hashFileInThread(work);
    await fileCacheOf(ctx).adopt(work, made.sha1, made.size);
    return made;
  } catch (error) {
    await rm(work, { force: true });
    throw error;
  }
}

/**
 * A work file that should still hold `blob`'s bytes back into the cache when it does
 * (checked in the background; the caller no longer owns it).
 */
export function giveBackWorkFile(ctx: FileStoreContext, work: string, blob: VersionBlob): void {
  void (async () => {
    const found = await hashFileInThread(work);
    if (found.sha1 === blob.checksum && found.size === blob.size) {
      await fileCacheOf(ctx).adopt(work, found.sha1, found.size);
    } else {
      await rm(work, { force: true });
    }
  })().catch(async (error: unknown) => {
    ctx.log.warn({ err: error }, 'A work file could not go back into the file cache');
    await rm(work, { force: true }).catch(() => {});
  });
}
