/**
 * Reading the bytes of a file version by its blob key, however it is stored: the one way
 * every reader (downloads, archives, pulls, the map, changesets, compare, restore, conflicts)
 * gets a file's bytes.
 *
 * A blob whose bytes are in the blob store is read from there at once (the latest version of
 * every file, checkpoints, files pushed whole). Otherwise its row names its recipe and the
 * whole file is rebuilt into this instance's cache (rebuild.ts, cache.ts) and read from
 * there; concurrent readers of the same file wait for one rebuild. A reader of the bytes
 * (`openStoredFile`) is answered from memory when its chain has every page patch
 * (rebuild-in-memory.ts); the file enters the cache just after.
 */
import { createWriteStream } from 'node:fs';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { findBlob, type BlobRow } from '../../db/queries/file-store';
import type { WorkLane } from '../../lib/sandbox';
import { BlobNotFoundError, rangeEnd, type ByteRange } from '../../storage/blob-store';
import { streamHandle, type CacheHandle } from './cache';
import { fileCacheOf, type FileStoreContext } from './context';
import { schedulePagePatches } from './page-patch-store';
import { rebuildInto } from './rebuild';
import { rebuildInMemory } from './rebuild-in-memory';

/** Bytes per piece of a file answered from memory. */
const STREAM_PIECE = 1024 * 1024;

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
  const row = await rebuiltBlob(ctx, key);
  return fileCacheOf(ctx).obtain(row.sha1, row.size, (work) => buildFile(ctx, row, work, lane));
}

/** The row of blob `key`, which is made from its recipe (BlobNotFoundError otherwise). */
async function rebuiltBlob(ctx: FileStoreContext, key: string): Promise<BlobRow> {
  const row = await findBlob(ctx.database.db, key);
  if (!row) throw new BlobNotFoundError(key);
  if (row.stored && !row.baseKey) throw new BlobNotFoundError(key);
  return row;
}

async function buildFile(
  ctx: FileStoreContext,
  row: BlobRow,
  work: string,
  lane: WorkLane,
): Promise<void> {
  // Rebuilt through diffs (versions whose patch was never made, or failed): their patches
  // are made in the background, once this rebuild is in the cache.
  if (!(await rebuildInto(ctx, row, work, lane))) schedulePagePatches(ctx, [row.key]);
}

/** `range` checked against a file of `size` bytes (InvalidRangeError), its end filled in. */
function checkedRange(range: ByteRange, size: number): { start: number; end: number } {
  return { start: range.start, end: rangeEnd(range, size) };
}

/** Bytes in memory as a stream of pieces (views, no copies). */
function streamBytes(bytes: Uint8Array, start: number, end: number): Readable {
  return Readable.from(
    (function* () {
      for (let at = start; at <= end; at += STREAM_PIECE) {
        yield Buffer.from(
          bytes.buffer,
          bytes.byteOffset + at,
          Math.min(STREAM_PIECE, end + 1 - at),
        );
      }
    })(),
    { objectMode: false },
  );
}

/**
 * The bytes of blob `key` (or an inclusive range of them), rebuilt when stored as a diff: in
 * memory and answered from there when it can be (rebuild-in-memory.ts), else into the cache.
 */
export function openStoredFile(
  ctx: FileStoreContext,
  key: string,
  range?: ByteRange,
  lane: WorkLane = 'interactive',
): Promise<Readable> {
  return storedFile(ctx, key, lane).open(range);
}

/** A version's bytes opened more than once (a download sniffs its head, then sends it). */
export interface StoredFile {
  /** The bytes, or an inclusive range of them, as openStoredFile gives them. */
  open(range?: ByteRange): Promise<Readable>;
}

/**
 * Blob `key`'s bytes, for a reader that opens them more than once: how they are stored is
 * looked up at the first open only (a blob made from its recipe is not looked for in the blob
 * store again, and its row is read once).
 */
export function storedFile(
  ctx: FileStoreContext,
  key: string,
  lane: WorkLane = 'interactive',
): StoredFile {
  let row: BlobRow | null = null;
  return {
    async open(range) {
      if (!row) {
        try {
          return await ctx.blobStore.open(key, range);
        } catch (error) {
          if (!(error instanceof BlobNotFoundError)) throw error;
        }
        row = await rebuiltBlob(ctx, key);
      }
      return openRebuilt(ctx, row, range, lane);
    },
  };
}

/** The bytes of `row` (a blob made from its recipe): from memory, the cache, or a rebuild. */
async function openRebuilt(
  ctx: FileStoreContext,
  row: BlobRow,
  range: ByteRange | undefined,
  lane: WorkLane,
): Promise<Readable> {
  const found = await fileCacheOf(ctx).obtainBytes(
    row.sha1,
    row.size,
    () => rebuildInMemory(ctx, row),
    (work) => buildFile(ctx, row, work, lane),
  );
  if (found instanceof Uint8Array) {
    const { start, end } = range ? checkedRange(range, row.size) : { start: 0, end: row.size - 1 };
    return streamBytes(found, start, end);
  }
  if (!range) return streamHandle(found);
  try {
    return streamHandle(found, checkedRange(range, found.size));
  } catch (error) {
    found.release();
    throw error;
  }
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
