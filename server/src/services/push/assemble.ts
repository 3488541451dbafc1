/**
 * Turning received bytes into the blobs of the new version, for both protocols:
 *
 * - v1 (verifyStaged + placeStaged): a transaction's staged file is checked against its
 *   plan entry (size, and SHA-1 from the running digest, digest.ts), then placed into the
 *   blob store without being read again where the store allows.
 * - v2 (assembleChunks): the server-issued chunks a file lists are concatenated into the
 *   blob store and the result checked against its entry.
 *
 * Then withDiff applies a GeoPackage diff update (diffs.ts): the file it makes is stored as
 * the diff (services/file-store/). Every size and checksum of the version comes from these
 * bytes, never from the client's entries.
 */
import { createHash } from 'node:crypto';
import type { AppContext } from '../../context';
import { listFileChunks } from '../../db/queries/upload-chunks';
import { blobKeyFromLeaves } from '../../storage/blob-key';
import type { BlobInfo } from '../../storage/blob-store';
import { ChunkStore, type StoredChunk } from '../../storage/chunk-store';
import { CHUNK_SIZE, stagingOf } from '../../storage/staging';
import type { CommitFile } from '../versions';
import { applyPushedDiff, pushedFileEntry } from './diffs';
import { advanceDigest, chunkChanged, type FileDigest, type StagedFileRef } from './digest';
import { stagedChecksum, stagedSize, type PlanFile } from './plan';

/** A staged file of a v1 plan, for digest.ts. */
export function stagedRef(uploadId: string, fileIndex: number, file: PlanFile): StagedFileRef {
  return {
    uploadId,
    fileIndex,
    path: file.path,
    size: stagedSize(file),
    chunkCount: file.chunks.length,
  };
}

/**
 * A staged file's size and SHA-1 (from the running digest, so only chunks not hashed yet
 * are read) and its blob key (from its chunks' SHA-256 leaves); null when they do not
 * match the plan. The running SHA-1 counts only when it covered the chunks as recorded now
 * (a chunk may have been sent again to another instance); else it starts again from the
 * staged bytes.
 */
export async function verifyStaged(
  ctx: AppContext,
  uploadId: string,
  fileIndex: number,
  file: PlanFile,
): Promise<BlobInfo | null> {
  const db = ctx.database.db;
  const staging = stagingOf(ctx.blobStore);
  const ref = stagedRef(uploadId, fileIndex, file);
  const chunks = await listFileChunks(db, uploadId, file.path);
  const leaves = chunks.map((c) => c.sha256);
  if (chunks.length !== file.chunks.length || leaves.some((leaf) => !leaf)) return null;
  const info: BlobInfo = {
    key: blobKeyFromLeaves(leaves.map((leaf) => Buffer.from(leaf ?? '', 'hex'))),
    size: chunks.reduce((sum, c) => sum + c.size, 0),
    sha1: '',
  };
  if (info.size !== stagedSize(file)) return null;
  const asRecorded = (digest: FileDigest) =>
    digest.hashedChunks === chunks.length &&
    chunks.every((c, index) => digest.chunkSha1s[index] === c.sha1);
  let sha1: string | null;
  try {
    let digest = await advanceDigest(db, staging, ref);
    if (!asRecorded(digest)) {
      chunkChanged(uploadId, fileIndex, 0);
      digest = await advanceDigest(db, staging, ref);
    }
    sha1 = asRecorded(digest) ? digest.sha1 : null;
  } catch (error) {
    // The staged bytes are gone (an earlier finish placed them, then a restart lost the
    // running SHA-1): the blob they became, when it is there.
    sha1 = await placedSha1(ctx, info);
    if (sha1 === null) throw error;
  }
  return sha1 === stagedChecksum(file) ? { ...info, sha1 } : null;
}

/** SHA-1 of the blob `info.key` when it exists with `info.size` bytes (read once). */
async function placedSha1(ctx: AppContext, info: BlobInfo): Promise<string | null> {
  if ((await ctx.blobStore.stat(info.key))?.size !== info.size) return null;
  const hash = createHash('sha1');
  for await (const bytes of await ctx.blobStore.open(info.key)) hash.update(bytes as Buffer);
  return hash.digest('hex');
}

/** Puts a verified staged file into the blob store (null: its bytes are gone). */
export function placeStaged(
  ctx: AppContext,
  uploadId: string,
  fileIndex: number,
  info: BlobInfo,
): Promise<BlobInfo | null> {
  return stagingOf(ctx.blobStore).place(uploadId, fileIndex, info);
}

/**
 * Concatenates a file's v2 chunks (its diff's, for a diff update) into the blob store; null
 * when they do not make what the entry declares.
 */
export async function assembleChunks(
  ctx: AppContext,
  projectId: string,
  file: PlanFile,
): Promise<BlobInfo | null> {
  const store = new ChunkStore(ctx);
  const found = await store.find(projectId, file.chunks, ctx.now());
  const chunks: StoredChunk[] = [];
  for (const [index, id] of file.chunks.entries()) {
    const chunk = found.get(id);
    const expected = Math.min(CHUNK_SIZE, stagedSize(file) - index * CHUNK_SIZE);
    if (!chunk || chunk.size !== expected) return null;
    chunks.push(chunk);
  }
  async function* bytes(): AsyncGenerator<Uint8Array> {
    for (const chunk of chunks) yield* store.read(chunk);
  }
  let blob: BlobInfo;
  try {
    blob = await ctx.blobStore.put(bytes(), { expectedSize: stagedSize(file) });
  } catch (error) {
    ctx.log.warn({ err: error, path: file.path }, 'v2 push: a file could not be assembled');
    return null;
  }
  return blob.size === stagedSize(file) && blob.sha1 === stagedChecksum(file) ? blob : null;
}

/**
 * The version's entry for a file whose received bytes are `blob`: for a diff update, the
 * stored file with the diff applied (diffs.ts; a diff that does not apply throws 422).
 */
export async function withDiff(
  ctx: AppContext,
  projectId: string,
  file: PlanFile,
  blob: BlobInfo,
): Promise<CommitFile> {
  if (!file.diff) return pushedFileEntry(file, blob);
  const applied = await applyPushedDiff(ctx, projectId, file, blob);
  return pushedFileEntry(file, blob, applied);
}
