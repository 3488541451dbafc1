/**
 * A rebuild made in memory for a reader that takes the bytes as they come (a download, the
 * map's copy): when every step of the chain has its page patch and the file is small enough,
 * the whole copy is read into one buffer while the patches are read and decompressed, and
 * patched there block by block as its bytes come in (the buffer is shared with the hashing
 * thread, which hashes each block while the next is read and patched) instead of being
 * written to a work file, and the reader is answered from it once its SHA-1 and size are
 * checked; the cache writes the file after (cache.ts `obtainBytes`). A cold download of an
 * old version then costs its patches and one pass, without writing the file and reading it
 * back first (issue 30: at most 2× the latest).
 *
 * Anything else (steps without patches, a chain that cannot be applied in one pass, patches
 * that fail, bytes that differ) answers null: the file is rebuilt as before (rebuild.ts),
 * which logs, falls back to the diffs and checks again. Nothing unchecked is answered.
 */
import type { BlobRow } from '../../db/queries/file-store';
import { RunningSha1 } from '../../lib/sha1-thread';
import { BlobNotFoundError, BlobSizeMismatchError } from '../../storage/blob-store';
import { readFileInto, ReadUnderWay } from '../../storage/read-into';
import type { FileStoreContext } from './context';
import { PagePatchError } from './page-patch';
import { chainOf, nearestCopy, PatchesFailed, readPatches, rebuildCounts } from './rebuild';

/**
 * Largest file rebuilt in memory: held until its readers are done (a slow client holds it
 * as long as its download lasts), so larger ones are written as files first. All of them
 * together, until written into the cache: cache.ts MAX_BYTES_IN_MEMORY.
 */
export const IN_MEMORY_REBUILD_BYTES = 32 * 1024 * 1024;

/** The bytes of `target` (a blob with a recipe), checked; null when not made this way. */
export async function rebuildInMemory(
  ctx: FileStoreContext,
  target: BlobRow,
): Promise<Buffer | null> {
  if (target.size > IN_MEMORY_REBUILD_BYTES) return null;
  const chain = await chainOf(ctx, target);
  if (chain.length < 2 || !chain.at(-1)!.stored) return null;
  const { start, cached } = await nearestCopy(ctx, chain);
  try {
    const steps = chain.slice(0, start).reverse();
    const made = steps.at(-1);
    if (!made || steps.some((step) => !step.patchKey)) return null;
    const baseSize = chain[start]!.size;
    // The patches are read and decompressed while the whole copy is read into the buffer.
    const reading = readPatches(ctx, steps, baseSize);
    reading.catch(() => {});
    const bytes = Buffer.from(new SharedArrayBuffer(Math.max(baseSize, made.size)));
    const copyKey = chain[start]!.key;
    const loading = new ReadUnderWay((progress) =>
      cached
        ? readFileInto(cached.path, bytes, baseSize, progress)
        : ctx.blobStore.readInto(copyKey, bytes, baseSize, progress),
    );
    try {
      const { chain: patches } = await reading;
      if (!patches || patches.length !== made.size) return null;
      const hash = new RunningSha1();
      try {
        // Shared memory: the thread hashes each block in place while the next is patched,
        // each block as soon as the copy's bytes are read in.
        await hash.update(patches.patchInMemoryAsLoaded(bytes, (end) => loading.until(end)));
        await loading.until(Infinity);
        if ((await hash.digest()) !== made.sha1) {
          // The file path patches again on disk, else replays the diffs, and checks again.
          ctx.log.warn(
            { blob: target.key, sha1: made.sha1 },
            'A version patched in memory does not match its SHA-1; it is rebuilt as a file',
          );
          return null;
        }
      } finally {
        hash.close();
      }
      rebuildCounts.throughPatches++;
      rebuildCounts.inMemory++;
      return bytes.subarray(0, made.size);
    } finally {
      // The copy is read into `bytes` until done, even when they are not used.
      await loading.until(Infinity).catch(() => {});
    }
  } catch (error) {
    if (
      error instanceof PatchesFailed ||
      error instanceof PagePatchError ||
      error instanceof BlobNotFoundError ||
      // The whole copy is not the patches' base.
      error instanceof BlobSizeMismatchError
    ) {
      return null;
    }
    throw error;
  } finally {
    cached?.release();
  }
}
