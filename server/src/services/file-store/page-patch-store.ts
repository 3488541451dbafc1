/**
 * Page patches (page-patch.ts) are made after the version's answer, in the background: the
 * finish of a diff push and an edit batch do no more than on main (no copy of the base, no
 * comparison). Once a version made from a diff is committed (push/commit.ts), its blob is
 * queued here (`schedulePagePatches`): the bytes of its base and its own (the push left them in
 * the cache) are compared in the sandbox's background lane, the patch goes into the blob
 * store, then the blob row names it (`setPatch`, which also charges its size). A version
 * without a patch is read through its diff (rebuild.ts), so nothing depends on this work
 * having run: after a crash (kill -9 between the commit and the patch), the file's storage
 * task (tasks.ts, durable) and the first rebuild that applied diffs make the missing patches
 * again, and so does `storage convert`.
 *
 * `makeMissingPatches` walks a version's chain from its whole copy, oldest first, holding
 * the bytes of one version at a time: a version in the cache is used as it is; otherwise the
 * bytes are made from the one before with its patch, or, for a version without one, with its
 * diff (checked against its SHA-1) after the bytes before were copied aside for the patch.
 * A patch that cannot be made is not tried again by this process; when the change is too large
 * (over MAX_PATCH_PAGE_BYTES), the blob's row says so (`patch_refused`) and no process tries.
 *
 * A chain whose patches failed a rebuild (patch-suspects.ts) is walked whole from its whole
 * copy, each patch checked: applied to the bytes before it and the result's SHA-1 compared
 * with the version's. A patch that is missing, damaged or makes other bytes is dropped (its
 * row and bytes deleted, its size no longer charged) and made again from the diff, so one
 * bad patch does not leave every later version of the chain read through diffs.
 */
import { copyFile, rm } from 'node:fs/promises';
import { Readable } from 'node:stream';
import { deleteUnreferencedBlobs } from '../../db/queries/blobs';
import {
  dropPatch,
  findBlob,
  recipeChain,
  refusePatch,
  setPatch,
  type ChainLink,
} from '../../db/queries/file-store';
import { lockBlobsExclusive } from '../../db/queries/versions';
import { nextTurn } from '../../lib/next-turn';
import { sandboxModule } from '../../lib/sandbox';
import { applyInPlace } from './apply-in-place';
import type { CacheHandle } from './cache';
import { fileCacheOf, type FileStoreContext } from './context';
import { hashFileInThread } from './hash';
import { applyCompressedPatches, PagePatchError } from './page-patch';
import { takeSuspect } from './patch-suspects';
import { deleteBlobsWithoutRows } from '../purge';
import { BlobNotFoundError } from '../../storage/blob-store';
import type * as PatchWork from './page-patch-work';
import { downloadBlob, MAX_CHAIN } from './rebuild';

const makePatchBytes = sandboxModule<typeof PatchWork>(
  new URL('./page-patch-work.ts', import.meta.url),
).fn('makePatchBytes');

/** Blobs whose patch could not be made (too large, or their bytes not had): not tried again. */
const noPatch = new Set<string>();

/** Patches made by this process (tests, benchmarks). */
export const patchCounts = { made: 0 };

/**
 * Makes the patch of `link` from the files holding its base's bytes and its own, stores it
 * and names it in the blob's row. False when none was made.
 */
async function makePatch(
  ctx: FileStoreContext,
  link: ChainLink,
  before: string,
  after: string,
): Promise<boolean> {
  const bytes = await makePatchBytes(ctx, { lane: 'background' }, before, after);
  if (!bytes) {
    // Too large a change: never tried again, after a restart either.
    noPatch.add(link.key);
    await refusePatch(ctx.database.db, link.key);
    return false;
  }
  const patch = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const stored = await ctx.blobStore.put(Readable.from([patch]), { expectedSize: patch.length });
  const db = ctx.database.db;
  const set = await db.transaction((tx) => setPatch(tx, link.key, stored, ctx.now()));
  if (set) {
    patchCounts.made++;
    return true;
  }
  // The blob went, or got its patch meanwhile: the bytes stay only when a row names them.
  if (!(await findBlob(db, stored.key))) await ctx.blobStore.delete(stored.key);
  return false;
}

/** The links of `key`'s chain, itself first, down to the whole copy (null: none in reach). */
async function chainTo(ctx: FileStoreContext, key: string): Promise<ChainLink[] | null> {
  const db = ctx.database.db;
  const [self] = await recipeChain(db, key, 1);
  if (!self?.baseKey || !self.diffKey) return null;
  // A version stored whole (the latest) is rebuilt from its base once it is not.
  const below = self.stored ? await recipeChain(db, self.baseKey, MAX_CHAIN) : null;
  const chain = below
    ? [{ ...self, stored: false }, ...below]
    : await recipeChain(db, key, MAX_CHAIN);
  return chain.at(-1)?.stored ? chain : null;
}

const needsPatch = (link: ChainLink) =>
  !link.patchKey && link.diffKey !== null && !link.patchRefused && !noPatch.has(link.key);

/**
 * The bytes of the version whose patch this process made last, kept aside (one file per
 * context): the version after it is usually committed next, and its patch needs them, while
 * its push changed the cached file of this one in place.
 */
interface Spare {
  sha1: string;
  size: number;
  path: string;
}

const spares = new WeakMap<object, Spare>();

/** Keeps a copy of `from` (a version's checked bytes) as the context's spare. */
async function keepSpare(ctx: FileStoreContext, from: CacheHandle, work: string): Promise<void> {
  const old = spares.get(ctx);
  if (old?.sha1 === from.sha1 && old.size === from.size) return;
  spares.delete(ctx);
  if (old) await rm(old.path, { force: true });
  await copyFile(from.path, work);
  spares.set(ctx, { sha1: from.sha1, size: from.size, path: work });
}

/**
 * Makes the missing patches of `key`'s chain (see the module comment); returns the keys of
 * the chain's versions it went through.
 */
export async function makeMissingPatches(ctx: FileStoreContext, key: string): Promise<string[]> {
  // One walk at a time per context (the spare is shared).
  const previous = walks.get(ctx) ?? Promise.resolve();
  const walk = previous.then(() => walkChain(ctx, key));
  const settled = walk.catch(() => {});
  walks.set(ctx, settled);
  try {
    return await walk;
  } finally {
    if (walks.get(ctx) === settled) walks.delete(ctx);
  }
}

const walks = new WeakMap<object, Promise<unknown>>();

async function walkChain(ctx: FileStoreContext, key: string): Promise<string[]> {
  const chain = await chainTo(ctx, key);
  if (!chain) return [];
  const links = chain.slice(0, -1).reverse();
  // A chain whose patches failed a rebuild: every patch is checked, from the whole copy on.
  const check = takeSuspect(ctx, key);
  const last = check ? links.length - 1 : links.findLastIndex(needsPatch);
  if (last < 0) return links.map((link) => link.key);
  const cache = fileCacheOf(ctx);
  await cache.open();
  const work = cache.workPath();
  const before = `${work}.before`;
  const diffFile = `${work}.diff`;
  /** The bytes of the version before the next link: `work`, a cached file (held) or the spare. */
  let held: CacheHandle | null = null;
  let from = 0;
  try {
    // Start from the newest bytes at hand: the spare or a cached file of the version before
    // the last link that needs a patch, else (and always when checking) the whole copy.
    const start = last === 0 ? chain.at(-1)! : links[last - 1]!;
    const spare = spares.get(ctx);
    if (!check) {
      if (spare?.sha1 === start.sha1 && spare.size === start.size) {
        held = { ...spare, release: () => {} };
      } else {
        held = await cache.acquire(start.sha1, start.size);
      }
      if (held) from = last;
    }
    if (!held) {
      const whole = chain.at(-1)!;
      held = await cache.acquire(whole.sha1, whole.size);
      if (!held) await downloadBlob(ctx, whole.key, work);
    }
    for (const link of links.slice(from, last + 1)) {
      const current = held?.path ?? work;
      // Checking, the patch itself makes the bytes (a cached copy would hide a bad one).
      const cached = check ? null : await cache.acquire(link.sha1, link.size);
      if (cached) {
        try {
          if (needsPatch(link)) await makePatch(ctx, link, current, cached.path);
        } catch (error) {
          cached.release();
          throw error;
        }
        held?.release();
        held = cached;
        continue;
      }
      if (held) {
        await copyFile(held.path, work);
        held.release();
        held = null;
      }
      if (!needsPatch(link)) {
        if (!check) {
          await applyCompressedPatches(work, [await ctx.blobStore.read(link.patchKey!)]);
          continue;
        }
        if (await patchMakes(ctx, link, work, before)) continue;
        // A bad patch: dropped, then made again from the diff below (`work` holds the bytes
        // before it again).
        await dropBadPatch(ctx, link);
      }
      await Promise.all([copyFile(work, before), downloadBlob(ctx, link.diffKey!, diffFile)]);
      const made = await applyInPlace(ctx, work, [diffFile], 'background');
      if (made.sha1 !== link.sha1 || made.size !== link.size) {
        // Bytes other than the version's (a patch before it, or the diff): stop here; the
        // version is still read through its diffs.
        ctx.log.warn(
          { blob: link.key, sha1: link.sha1, made: made.sha1 },
          'A page patch was not made: the bytes before it could not be made',
        );
        noPatch.add(link.key);
        return links.map((l) => l.key);
      }
      await makePatch(ctx, link, before, work);
    }
    // The last link's bytes are kept as the spare for the next version's patch.
    const end = links[last]!;
    if (!held) {
      const old = spares.get(ctx);
      if (old) await rm(old.path, { force: true });
      spares.set(ctx, { sha1: end.sha1, size: end.size, path: work });
    } else if (held.sha1 === end.sha1 && held.size === end.size) {
      await keepSpare(ctx, held, work);
    }
  } finally {
    held?.release();
    const spare = spares.get(ctx);
    await Promise.all(
      [work, before, diffFile]
        .filter((file) => file !== spare?.path)
        .map((file) => rm(file, { force: true })),
    );
  }
  return links.map((link) => link.key);
}

/**
 * Whether `link`'s patch, applied to the bytes in `work`, makes the version's bytes (its
 * SHA-1 and size). When it does, `work` holds them; otherwise `work` holds the bytes before
 * it again (kept in `before` meanwhile).
 */
async function patchMakes(
  ctx: FileStoreContext,
  link: ChainLink,
  work: string,
  before: string,
): Promise<boolean> {
  await copyFile(work, before);
  try {
    await applyCompressedPatches(work, [await ctx.blobStore.read(link.patchKey!)]);
    const made = await hashFileInThread(work);
    if (made.sha1 === link.sha1 && made.size === link.size) return true;
  } catch (error) {
    if (!(error instanceof PagePatchError || error instanceof BlobNotFoundError)) throw error;
  }
  await copyFile(before, work);
  return false;
}

/** Takes a bad patch from `link`'s blob; its row and bytes go when nothing else names them. */
async function dropBadPatch(ctx: FileStoreContext, link: ChainLink): Promise<void> {
  const patchKey = link.patchKey!;
  const db = ctx.database.db;
  const dropped = await db.transaction((tx) => dropPatch(tx, link.key, patchKey));
  if (!dropped) return;
  ctx.log.warn(
    { blob: link.key, patch: patchKey },
    'A page patch that does not make its version was dropped; it is made again from the diff',
  );
  const orphans = await db.transaction(async (tx) => {
    await lockBlobsExclusive(tx);
    return deleteUnreferencedBlobs(tx, [patchKey]);
  });
  await deleteBlobsWithoutRows(ctx, orphans);
}

interface PatchQueue {
  keys: Set<string>;
  running: Promise<void> | null;
}

const queues = new WeakMap<object, PatchQueue>();

function queueOf(ctx: object): PatchQueue {
  let queue = queues.get(ctx);
  if (!queue) {
    queue = { keys: new Set(), running: null };
    queues.set(ctx, queue);
  }
  return queue;
}

/**
 * Queues the patches of these blobs (versions just committed, or rebuilt through their
 * diffs) to be made in the background, one blob at a time; returns at once.
 */
export function schedulePagePatches(ctx: FileStoreContext, keys: string[]): void {
  if (keys.length === 0) return;
  const queue = queueOf(ctx);
  for (const key of keys) queue.keys.add(key);
  if (queue.running) return;
  queue.running = (async () => {
    // After the answer that queued them.
    await nextTurn();
    for (;;) {
      const [key] = queue.keys;
      if (key === undefined) return;
      queue.keys.delete(key);
      try {
        await makeMissingPatches(ctx, key);
      } catch (error) {
        ctx.log.warn(
          { err: error, blob: key },
          'A page patch could not be made; the version is rebuilt from its diff',
        );
      }
    }
  })().finally(() => {
    queue.running = null;
  });
}

/** Resolves once no patch is being made (tests, shutdown). */
export async function pagePatchWorkIdle(ctx: FileStoreContext): Promise<void> {
  const queue = queueOf(ctx);
  while (queue.running) await queue.running;
}

/**
 * The patch from the bytes of `before` to those of `after` (files of this instance), stored;
 * null when none. The conversion (convert.ts), which has both files at hand.
 */
export async function storePagePatch(
  ctx: FileStoreContext,
  before: string,
  after: string,
): Promise<{ key: string; size: number; sha1: string } | null> {
  try {
    const bytes = await makePatchBytes(ctx, { lane: 'background' }, before, after);
    if (!bytes) return null;
    const patch = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    return await ctx.blobStore.put(Readable.from([patch]), { expectedSize: patch.length });
  } catch (error) {
    ctx.log.warn(
      { err: error },
      'A page patch could not be made; the version is rebuilt from its diff',
    );
    return null;
  }
}
