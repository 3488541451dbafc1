/**
 * The staged files' SHA-1, computed while an upload runs instead of at finish. After each
 * acknowledged chunk the file's running SHA-1 (a serialized hash-wasm state in
 * upload_digests) is advanced over every chunk that now continues it in order; finish only
 * hashes what is left, so its time does not grow with the file's size. Progress is saved by
 * compare-and-set, so concurrent requests on any number of instances stay correct: a loser
 * simply retries from the winner's state.
 */
import { createSHA1, type IHasher } from 'hash-wasm';
import type { Executor } from '../db/database';
import {
  listFileChunks,
  loadDigest,
  saveDigest,
  type FileChunk,
} from '../db/queries/upload-digests';
import { CHUNK_SIZE, type UploadStaging } from '../storage/upload-staging';

export interface StagedFileRef {
  uploadId: string;
  fileIndex: number;
  path: string;
  size: number;
  chunkCount: number;
}

export interface FileDigest {
  /** Chunks of the file received so far, in order. */
  chunks: FileChunk[];
  /** How many leading chunks the SHA-1 covers. */
  hashedChunks: number;
  /** SHA-1 (hex) of the whole file, when every chunk is hashed. */
  sha1: string | null;
}

const MAX_ATTEMPTS = 20;

async function hasherFrom(state: string | null): Promise<IHasher> {
  const hasher = await createSHA1();
  if (state) hasher.load(Buffer.from(state, 'base64'));
  else hasher.init();
  return hasher;
}

/** Length of chunk `index` of a file of `size` bytes. */
function chunkLength(size: number, index: number): number {
  return Math.max(0, Math.min(CHUNK_SIZE, size - index * CHUNK_SIZE));
}

/** Advances the file's running SHA-1 over every contiguous received chunk. */
export async function advanceDigest(
  db: Executor,
  staging: UploadStaging,
  file: StagedFileRef,
): Promise<FileDigest> {
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
    const row = await loadDigest(db, file.uploadId, file.fileIndex);
    const chunks = await listFileChunks(db, file.uploadId, file.path);
    const received = new Set(chunks.map((c) => c.chunkIndex));
    let next = row.nextChunk;
    if (!received.has(next) || next >= file.chunkCount) {
      return { chunks, hashedChunks: next, sha1: await finalSha1(row.sha1State, next, file) };
    }
    const hasher = await hasherFrom(row.sha1State);
    while (next < file.chunkCount && received.has(next)) {
      const length = chunkLength(file.size, next);
      for await (const piece of staging.readRange(
        file.uploadId,
        file.fileIndex,
        next * CHUNK_SIZE,
        length,
      )) {
        hasher.update(piece);
      }
      next += 1;
    }
    const sha1State = Buffer.from(hasher.save()).toString('base64');
    if (
      await saveDigest(db, file.uploadId, file.fileIndex, row.generation, {
        nextChunk: next,
        sha1State,
      })
    ) {
      return { chunks, hashedChunks: next, sha1: await finalSha1(sha1State, next, file) };
    }
  }
  throw new Error(`The digest of ${file.path} kept changing`);
}

async function finalSha1(
  state: string | null,
  hashedChunks: number,
  file: StagedFileRef,
): Promise<string | null> {
  if (hashedChunks < file.chunkCount) return null;
  return (await hasherFrom(state)).digest('hex');
}
