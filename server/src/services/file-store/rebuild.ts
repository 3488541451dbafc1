/**
 * Rebuilding a blob stored as its diff: its recipe chain is followed back to the nearest
 * whole copy (a stored blob, or a file in this instance's cache), that copy is taken, and the
 * diffs are applied in order in the sandbox (the same stable apply as at push time,
 * geodiff/apply.ts; the whole chain in one call on one connection when the lanes allow), the
 * result checked against the SHA-1 and size recorded for it (hashed once, at the end).
 *
 * Page patches (page-patch.ts): the oldest steps of the chain that have one are made by
 * writing their pages into the copy, in order, with no SQLite work (when every step has one,
 * in one pass: the whole copy read, the patched blocks written and hashed as they go); the diffs of the steps
 * after them (versions made before patches existed) are applied as above. When the patches
 * cannot be read or the result differs, the rebuild starts again from the whole copy with
 * the diffs alone (logged as a warning): a patch is a shortcut, the diff is the record.
 *
 * Lanes: a rebuild a person waits for (a download, the map, compare) runs on the interactive
 * lane while its work is small enough for that lane's budget (FILE_WORK_SECONDS, 20 s): a
 * batch of diffs whose bytes are at most INTERACTIVE_DIFF_BYTES on a file of at most
 * INTERACTIVE_FILE_BYTES (about 3 s here under load). Larger rebuilds (a 1 GB GeoPackage, a
 * long chain of large diffs) go to the background lane, whose budget they fit: a rebuild
 * stopped over the interactive budget would leave an old version unreadable. A rebuild that
 * passes the interactive budget anyway is started again, from the start, in the background.
 * A result that differs is never served or cached: the log says which blob and why, and the
 * client gets FileRebuildError (422).
 */
import { createReadStream, createWriteStream } from 'node:fs';
import { copyFile, rm } from 'node:fs/promises';
import { pipeline } from 'node:stream/promises';
import { recipeChain, type BlobRow, type ChainLink } from '../../db/queries/file-store';
import { HttpProblem } from '../../errors';
import { ChangesetConflictError } from '../../geodiff/apply';
import { ChangesetFormatError } from '../../geodiff/format';
import { runGeodiffWork } from '../../geodiff/run';
import { WorkTooHeavyError, type WorkLane } from '../../lib/sandbox';
import { BlobNotFoundError } from '../../storage/blob-store';
import type { CacheHandle } from './cache';
import { hashFileInThread, writeFileHashed } from './hash';
import {
  applyPagePatches,
  PagePatchError,
  readPagePatch,
  readPatchChain,
  type PatchChain,
} from './page-patch';
import { fileCacheOf, type FileStoreContext } from './context';
import { suspectPatches } from './patch-suspects';

/** Bytes read at a time from a cached whole copy (fewer, larger reads: a 64 KiB piece costs a turn each). */
const READ_PIECE = 1024 * 1024;
/** Links of a recipe chain followed at most (the rule keeps chains far shorter). */
export const MAX_CHAIN = 1000;
/** Most diffs applied per request to the sandbox (the rule keeps chains within 16). */
export const DIFFS_PER_REQUEST = 64;
/** Most diff bytes of a batch applied on the interactive lane. */
export const INTERACTIVE_DIFF_BYTES = 2 * 1024 * 1024;
/** Largest file rebuilt on the interactive lane (its hash alone takes seconds beyond). */
export const INTERACTIVE_FILE_BYTES = 512 * 1024 * 1024;

/** The lane a batch of a rebuild runs on, given the lane asked for. */
export function rebuildLane(asked: WorkLane, fileSize: number, diffBytes: number): WorkLane {
  if (asked === 'background') return 'background';
  return fileSize <= INTERACTIVE_FILE_BYTES && diffBytes <= INTERACTIVE_DIFF_BYTES
    ? 'interactive'
    : 'background';
}

export const FILE_REBUILD_ERROR = 'FileRebuildError';
export const FILE_REBUILD_TEXT =
  'This version of the file cannot be rebuilt from its stored changes; the server log names it';

/** A blob whose bytes could not be rebuilt exactly (answered 422, never with other bytes). */
export class FileRebuildError extends HttpProblem {
  constructor(readonly key: string) {
    super(422, `${FILE_REBUILD_TEXT} (${FILE_REBUILD_ERROR})`, {
      extra: { code: FILE_REBUILD_ERROR },
    });
  }
}

/** Copies a stored blob's bytes to `file`. */
export async function downloadBlob(
  ctx: FileStoreContext,
  key: string,
  file: string,
): Promise<void> {
  await pipeline(await ctx.blobStore.open(key), createWriteStream(file));
}

function fail(ctx: FileStoreContext, target: BlobRow, reason: string, extra: object = {}): never {
  ctx.log.error(
    { blob: target.key, sha1: target.sha1, size: target.size, ...extra },
    `A file version stored as its diff could not be rebuilt: ${reason}`,
  );
  throw new FileRebuildError(target.key);
}

/**
 * Where a rebuild along `chain` (the target first, a whole copy last) starts: the nearest
 * link whose file is in the cache (held until released), else the stored root.
 */
export async function nearestCopy(
  ctx: FileStoreContext,
  chain: ChainLink[],
): Promise<{ start: number; cached: CacheHandle | null }> {
  const cache = fileCacheOf(ctx);
  for (let i = 1; i < chain.length; i++) {
    const link = chain[i]!;
    if (!cache.has(link.sha1, link.size)) continue;
    const cached = await cache.acquire(link.sha1, link.size);
    if (cached) return { start: i, cached };
  }
  return { start: chain.length - 1, cached: null };
}

/**
 * The chain to rebuild `target` from: the target, then the bases back to a whole copy. When
 * the target is stored but its bytes are missing, its own recipe is used.
 */
export async function chainOf(ctx: FileStoreContext, target: BlobRow): Promise<ChainLink[]> {
  const db = ctx.database.db;
  if (target.stored) {
    if (!target.baseKey || !target.diffKey) throw new BlobNotFoundError(target.key);
    const below = await recipeChain(db, target.baseKey, MAX_CHAIN);
    const [self] = await recipeChain(db, target.key, 1);
    if (!self) throw new BlobNotFoundError(target.key);
    return [{ ...self, stored: false }, ...below];
  }
  return recipeChain(db, target.key, MAX_CHAIN);
}

/**
 * Writes the bytes of `target` (a blob with a recipe) to `work`, checked. Throws
 * FileRebuildError when they cannot be made exactly. Resolves whether every step of the
 * chain went through its page patch (false: some diffs were applied; the caller may have
 * the missing patches made, page-patch-store.ts).
 */
export async function rebuildInto(
  ctx: FileStoreContext,
  target: BlobRow,
  work: string,
  lane: WorkLane = 'interactive',
): Promise<boolean> {
  let asked = lane;
  let patches = true;
  for (let attempt = 1; ; attempt++) {
    try {
      const patchedAll = await rebuildOnce(ctx, target, work, asked, patches);
      return patches && patchedAll;
    } catch (error) {
      // The page patches did not make the version (missing, damaged, or other bytes): the
      // diffs are applied instead, from the whole copy.
      if (error instanceof PatchesFailed) {
        rebuildCounts.patchesFailed++;
        // The patch work checks the chain's patches and makes the bad ones again.
        suspectPatches(ctx, target.key);
        ctx.log.warn(
          { blob: target.key, sha1: target.sha1, size: target.size, reason: error.message },
          'A file version could not be rebuilt from its page patches; its diffs are applied instead',
        );
        patches = false;
        await rm(work, { force: true });
        continue;
      }
      // Over the interactive budget: the file in `work` is half-applied; start again on the
      // background lane.
      if (error instanceof WorkTooHeavyError && error.reason === 'time' && asked !== 'background') {
        ctx.log.warn(
          { blob: target.key, size: target.size },
          'A rebuild passed the interactive budget; started again in the background',
        );
        asked = 'background';
        await rm(work, { force: true });
        continue;
      }
      // A whole copy the chain started from went meanwhile (the checkpoint rule moved): the
      // chain is read again.
      if (!(error instanceof BlobNotFoundError) || attempt >= 3) throw error;
      await rm(work, { force: true });
    }
  }
}

/**
 * Rebuilds of this process: made through page patches (of them, `inMemory` answered from
 * memory, rebuild-in-memory.ts), and those that fell back to diffs.
 */
export const rebuildCounts = { throughPatches: 0, inMemory: 0, patchesFailed: 0 };

/** The page patches of a rebuild could not make the version (rebuildInto then applies diffs). */
export class PatchesFailed extends Error {}

/**
 * Reads the page patches of `links` (oldest first), all at once, each decompressed as soon as
 * it is read, into a chain for the whole copy of `baseLength` bytes they start from; null
 * when they cannot be applied in one pass (then step by step, from `compressed`).
 * PatchesFailed when one is missing or damaged.
 */
export async function readPatches(
  ctx: FileStoreContext,
  links: ChainLink[],
  baseLength: number,
): Promise<{ chain: PatchChain | null; compressed: Buffer[] }> {
  const reading = links.map((link) => ctx.blobStore.read(link.patchKey!));
  try {
    const chain = await readPatchChain(baseLength, reading);
    return { chain, compressed: await Promise.all(reading) };
  } catch (error) {
    throw patchFailure(error);
  }
}

function patchFailure(error: unknown): unknown {
  return error instanceof BlobNotFoundError || error instanceof PagePatchError
    ? new PatchesFailed(error.message)
    : error;
}

async function rebuildOnce(
  ctx: FileStoreContext,
  target: BlobRow,
  work: string,
  asked: WorkLane,
  usePatches: boolean,
): Promise<boolean> {
  const chain = await chainOf(ctx, target);
  if (!chain.at(-1)?.stored) {
    fail(ctx, target, 'its chain of diffs does not lead to a whole copy', {
      links: chain.length,
    });
  }
  const { start, cached } = await nearestCopy(ctx, chain);
  const steps = chain.slice(0, start).reverse();
  if (steps.length === 0) {
    cached?.release();
    // Nothing to apply: the whole copy is the target (its stored bytes were missing).
    fail(ctx, target, 'no diff leads to it');
  }
  // The oldest steps that have page patches are made by writing their pages (no SQLite
  // work); the diffs of the rest, if any, are applied after them. The patches are read and
  // decompressed at once (while the whole copy is copied, when some step has none).
  let patched = 0;
  if (usePatches) {
    while (patched < steps.length && steps[patched]!.patchKey) patched++;
  }
  const reading =
    patched > 0 ? readPatches(ctx, steps.slice(0, patched), chain[start]!.size) : null;
  // Settled even when the copy fails first (no unhandled rejection).
  reading?.catch(() => {});
  const made = steps.at(-1)!;
  if (reading && patched === steps.length) {
    // Every step has its patch: one pass reads the whole copy, writes the patched blocks and
    // hashes them meanwhile (no copy written first, no second read to hash).
    const written = await patchInOnePass(ctx, reading, cached, chain[start]!.key, work);
    if (written) {
      if (written.sha1 !== made.sha1 || written.size !== made.size) {
        throw new PatchesFailed('the patched bytes differ from the version');
      }
      rebuildCounts.throughPatches++;
      return true;
    }
  }
  if (cached) {
    try {
      await copyFile(cached.path, work);
    } finally {
      cached.release();
    }
  } else {
    await downloadBlob(ctx, chain[start]!.key, work);
  }
  if (reading) {
    const { chain: patches, compressed } = await reading;
    try {
      if (patches) await patches.applyTo(work);
      else {
        for (const bytes of compressed) await applyPagePatches(work, [await readPagePatch(bytes)]);
      }
    } catch (error) {
      throw patchFailure(error);
    }
  }

  // Diffs from the oldest on, in as few sandbox calls as the lanes allow (batches), one
  // connection each; the result hashed once, here, and checked.
  const scratch: string[] = [];
  const rest = steps.slice(patched);
  try {
    const files: string[] = [];
    for (const [i, link] of rest.entries()) {
      if (!link.diffKey) fail(ctx, target, 'a link of its chain has no diff', { link: link.key });
      const file = `${work}.${i}.diff`;
      scratch.push(file);
      files.push(file);
    }
    await Promise.all(rest.map((link, i) => downloadBlob(ctx, link.diffKey!, files[i]!)));
    for (const batch of rebuildBatches(rest)) {
      try {
        await runGeodiffWork(
          ctx,
          {
            kind: 'apply-chain',
            file: work,
            diffs: files.slice(batch.from, batch.to),
            hash: false,
          },
          { lane: rebuildLane(asked, target.size, batch.diffBytes) },
        );
      } catch (error) {
        if (error instanceof ChangesetConflictError || error instanceof ChangesetFormatError) {
          if (patched > 0) throw new PatchesFailed('a diff after the patches does not apply');
          fail(ctx, target, `a diff of its chain does not apply: ${error.message}`);
        }
        throw error;
      }
    }
    const result = await hashFileInThread(work);
    if (patched > 0 && result.sha1 === made.sha1) rebuildCounts.throughPatches++;
    if (result.sha1 !== made.sha1 || result.size !== made.size) {
      if (patched > 0) throw new PatchesFailed('the patched bytes differ from the version');
      fail(ctx, target, 'the rebuilt bytes differ from the version recorded', {
        link: made.key,
        expected: { sha1: made.sha1, size: made.size },
        rebuilt: result,
      });
    }
    return rest.length === 0;
  } finally {
    await Promise.all(scratch.map((file) => rm(file, { force: true })));
  }
}

/**
 * Writes the whole copy's bytes (the cached file, else the stored blob `rootKey`) with the
 * patches to `work` in one pass, hashed as written, and releases `cached`. Null when the
 * patches cannot be applied in one pass: `cached` is still held for the caller, which then
 * copies the whole copy and applies them step by step.
 */
async function patchInOnePass(
  ctx: FileStoreContext,
  reading: ReturnType<typeof readPatches>,
  cached: CacheHandle | null,
  rootKey: string,
  work: string,
): Promise<{ size: number; sha1: string } | null> {
  let patches: PatchChain | null;
  try {
    ({ chain: patches } = await reading);
  } catch (error) {
    cached?.release();
    throw error;
  }
  // Not in one pass: `cached` stays held for the step-by-step path.
  if (!patches) return null;
  try {
    const source = cached
      ? createReadStream(cached.path, { highWaterMark: READ_PIECE })
      : await ctx.blobStore.open(rootKey);
    try {
      return await writeFileHashed(patches.patchedBlocks(source), work);
    } catch (error) {
      throw patchFailure(error);
    } finally {
      source.destroy();
    }
  } finally {
    cached?.release();
  }
}

/**
 * The sandbox calls of a rebuild (ranges of `steps`): consecutive diffs together while their
 * bytes stay within INTERACTIVE_DIFF_BYTES (so a rebuild a person waits for stays on the
 * interactive lane, rebuildLane) and their number within DIFFS_PER_REQUEST; a diff larger
 * than that alone.
 */
export function rebuildBatches(
  steps: readonly Pick<ChainLink, 'diffSize'>[],
): { from: number; to: number; diffBytes: number }[] {
  const batches: { from: number; to: number; diffBytes: number }[] = [];
  for (const [i, link] of steps.entries()) {
    const bytes = link.diffSize ?? 0;
    const last = batches.at(-1);
    if (
      last &&
      last.to - last.from < DIFFS_PER_REQUEST &&
      last.diffBytes + bytes <= INTERACTIVE_DIFF_BYTES
    ) {
      last.to = i + 1;
      last.diffBytes += bytes;
    } else {
      batches.push({ from: i, to: i + 1, diffBytes: bytes });
    }
  }
  return batches;
}
