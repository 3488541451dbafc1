/**
 * GET /v2/projects/{id}/raw/diff?file=<diff id> (also .../raw/diff/<diff id>, the form the
 * python client sends): the bytes of a diff a delta listed (delta.ts, diff-ids.ts).
 *
 * - A stored diff's own name: that diff.
 * - `<path>-diff-v<first>-v<last>`: the diffs of `path` from version `first` to `last`, every
 *   change in between a diff update, merged into one by the project's geodiff code
 *   (geodiff/concat.ts, in the sandbox: geodiff/run.ts). The result is cached by content: an
 *   ordinary blob recorded in merged_diffs under the SHA-256 of the chain's diff blob keys,
 *   so the same chain is merged once and later pulls read the stored blob.
 *
 * Read access as for downloads. Unknown names: 404. A chain that cannot be merged (a stored
 * diff unreadable or missing): 422 DiffDownloadError, as the reference answers.
 */
import { createHash } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { AppContext } from '../../context';
import type { StoredDiff } from '../../db/queries/files';
import {
  findMergedDiff,
  findStoredDiff,
  insertMergedDiff,
  listChanges,
  type CachedDiff,
} from '../../db/queries/pull';
import { insertBlobRows, lockBlobsShared } from '../../db/queries/versions';
import type { User } from '../../db/schema';
import { badRequest, HttpProblem, notFound } from '../../errors';
import { ChangesetFormatError } from '../../geodiff/format';
import { runGeodiffWork } from '../../geodiff/run';
import { baseName } from '../../lib/paths';
import { WorkTooHeavyError } from '../../lib/sandbox';
import { BlobNotFoundError } from '../../storage/blob-store';
import { projectFor } from '../permissions';
import { parseMergedDiffId, type MergedDiffId } from './diff-ids';

/** Longest diff name accepted (characters). */
export const MAX_DIFF_ID_LENGTH = 2048;
export const DIFF_ID_REQUIRED = 'Missing or invalid diff file name';
export const DIFF_NOT_FOUND = 'Diff file not found';
export const DIFF_DOWNLOAD_ERROR = 'DiffDownloadError';
export const DIFF_DOWNLOAD_TEXT = 'Required diff file could not be created';

const CACHE_KEY_PREFIX = 'waymark merged diff 1\n';

export interface DiffDownload {
  size: number;
  /** SHA-1 of the bytes. */
  checksum: string;
  fileName: string;
  open(): Promise<Readable>;
}

const diffDownloadError = () =>
  new HttpProblem(422, `${DIFF_DOWNLOAD_TEXT} (${DIFF_DOWNLOAD_ERROR})`, {
    extra: { code: DIFF_DOWNLOAD_ERROR },
  });

/** The cache key of a chain: SHA-256 over its diff blob keys, in order. */
export function mergedDiffCacheKey(inputs: string[]): string {
  return createHash('sha256')
    .update(CACHE_KEY_PREFIX + inputs.join('\n'))
    .digest('hex');
}

/** The stored diffs of the chain `id` names, or null when it is not such a chain. */
async function chainOf(
  ctx: AppContext,
  projectId: string,
  id: MergedDiffId,
): Promise<StoredDiff[] | null> {
  const range = { after: id.first - 1, upTo: id.last };
  const rows = await listChanges(ctx.database.db, projectId, range, id.path);
  if (rows.length < 2) return null;
  if (rows[0]!.versionName !== id.first || rows.at(-1)!.versionName !== id.last) return null;
  if (!rows.every((row) => row.change === 'update_diff' && row.diff !== null)) return null;
  return rows.map((row) => row.diff!);
}

/** Merges the chain into a new blob and records it under `cacheKey`. */
async function buildMergedDiff(
  ctx: AppContext,
  projectId: string,
  cacheKey: string,
  chain: StoredDiff[],
): Promise<CachedDiff> {
  const dir = await mkdtemp(path.join(tmpdir(), 'waymark-merge-'));
  try {
    const inputs: string[] = [];
    for (const [i, diff] of chain.entries()) {
      const file = path.join(dir, `${i}.diff`);
      await pipeline(await ctx.blobStore.open(diff.blob_key), createWriteStream(file));
      inputs.push(file);
    }
    const output = path.join(dir, 'merged.diff');
    const { size } = await runGeodiffWork(
      ctx,
      { kind: 'concat', diffs: inputs, output },
      { lane: 'interactive' },
    );
    const blob = await ctx.blobStore.put(createReadStream(output), { expectedSize: size });
    await ctx.database.db.transaction(async (tx) => {
      // As in a version commit: the blob row under the shared lock, so that garbage
      // collection cannot take the new blob away before merged_diffs refers to it.
      await lockBlobsShared(tx);
      await insertBlobRows(tx, [blob], ctx.now());
      await insertMergedDiff(tx, { projectId, cacheKey, blobKey: blob.key, createdAt: ctx.now() });
    });
    return { blobKey: blob.key, size: blob.size, sha1: blob.sha1 };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** Merges being built, by project and cache key: concurrent pulls wait for one merge. */
const building = new Map<string, Promise<CachedDiff>>();

async function mergedDiff(
  ctx: AppContext,
  projectId: string,
  chain: StoredDiff[],
): Promise<CachedDiff> {
  const cacheKey = mergedDiffCacheKey(chain.map((diff) => diff.blob_key));
  const cached = await findMergedDiff(ctx.database.db, projectId, cacheKey);
  if (cached && (await ctx.blobStore.has(cached.blobKey))) return cached;
  const slot = `${projectId}/${cacheKey}`;
  let pending = building.get(slot);
  if (!pending) {
    pending = buildMergedDiff(ctx, projectId, cacheKey, chain).finally(() => building.delete(slot));
    building.set(slot, pending);
  }
  try {
    return await pending;
  } catch (error) {
    if (
      error instanceof ChangesetFormatError ||
      error instanceof BlobNotFoundError ||
      error instanceof WorkTooHeavyError
    ) {
      ctx.log.warn({ err: error, projectId }, 'A merged diff could not be built');
      throw diffDownloadError();
    }
    throw error;
  }
}

/** What raw/diff sends for `file`, for `caller`. */
export async function prepareDiffDownload(
  ctx: AppContext,
  caller: User | null,
  projectId: string,
  file: unknown,
): Promise<DiffDownload> {
  const access = await projectFor(ctx, caller, { id: projectId }, 'read');
  if (
    typeof file !== 'string' ||
    file === '' ||
    file.length > MAX_DIFF_ID_LENGTH ||
    // eslint-disable-next-line no-control-regex -- control characters are what is refused
    /[\u0000-\u001f\u007f]/.test(file)
  ) {
    throw badRequest(DIFF_ID_REQUIRED);
  }
  const id = parseMergedDiffId(file);
  const chain = id ? await chainOf(ctx, access.project.id, id) : null;
  let target: { blobKey: string; size: number; sha1: string };
  if (chain) {
    target = await mergedDiff(ctx, access.project.id, chain);
  } else {
    const stored = await findStoredDiff(ctx.database.db, access.project.id, file);
    if (!stored) throw notFound(DIFF_NOT_FOUND);
    target = { blobKey: stored.blob_key, size: stored.size, sha1: stored.checksum };
  }
  return {
    size: target.size,
    checksum: target.sha1,
    fileName: baseName(file),
    open: async () => {
      try {
        return await ctx.blobStore.open(target.blobKey);
      } catch (error) {
        if (error instanceof BlobNotFoundError) throw diffDownloadError();
        throw error;
      }
    },
  };
}
