/**
 * The staged files' SHA-1, computed while an upload runs instead of at finish. After each
 * acknowledged chunk the file's running SHA-1 (a serialized hash-wasm state in
 * upload_digests) is advanced over every chunk that now continues it in order; finish only
 * hashes what is left, so its time does not grow with the file's size.
 *
 * - The hashing runs in a worker thread (lib/sha1-thread.ts), beside the requests.
 * - Within a process, the advances of one file run one at a time: a request arriving while
 *   one runs waits for the next one, which covers its chunk and every other chunk recorded
 *   meanwhile (so four chunk requests in flight do not hash the same bytes four times).
 * - Progress is saved by compare-and-set, so concurrent requests on any number of instances
 *   stay correct: a loser simply retries from the winner's state.
 */
import type { Executor } from '../../db/database';
import { loadDigest, saveDigest } from '../../db/queries/upload-digests';
import { continueSha1, finalSha1 } from '../../lib/sha1-thread';
import { CHUNK_SIZE, type UploadStaging } from '../../storage/staging';

export interface StagedFileRef {
  uploadId: string;
  fileIndex: number;
  path: string;
  size: number;
  chunkCount: number;
}

export interface FileDigest {
  /** How many leading chunks the SHA-1 covers. */
  hashedChunks: number;
  /** SHA-1 (hex) of the whole file, when every chunk is hashed. */
  sha1: string | null;
}

const MAX_ATTEMPTS = 20;

interface Waiter {
  /** The advance this caller needs: one that started after it asked. */
  need: number;
  resolve(digest: FileDigest): void;
  reject(error: unknown): void;
}

interface Flight {
  requested: number;
  waiters: Waiter[];
  /** How many leading chunks the last pass left hashed. */
  hashed: number;
}

/** Advances running in this process, by upload and file. */
const flights = new Map<string, Flight>();

function stateOf(text: string | null): Uint8Array | null {
  return text ? Buffer.from(text, 'base64') : null;
}

/** Advances the file's running SHA-1 over every contiguous received chunk. */
export function advanceDigest(
  db: Executor,
  staging: UploadStaging,
  file: StagedFileRef,
): Promise<FileDigest> {
  const key = `${file.uploadId}/${file.fileIndex}`;
  let flight = flights.get(key);
  const starting = !flight;
  if (!flight) {
    flight = { requested: 0, waiters: [], hashed: 0 };
    flights.set(key, flight);
  }
  const need = ++flight.requested;
  const digest = new Promise<FileDigest>((resolve, reject) => {
    flight.waiters.push({ need, resolve, reject });
  });
  if (starting) void runFlight(key, flight, db, staging, file);
  return digest;
}

/**
 * After chunk `chunkIndex` of the file was recorded: starts the advance that covers it, and
 * waits for it only when the running SHA-1 is more than `maxLag` chunks behind this chunk, or
 * the chunk is one of the file's last `maxLag` ones. Chunk requests therefore go on while the
 * SHA-1 follows, yet it never falls far behind, and once the last chunks are acknowledged
 * every chunk sent in order is hashed: finish has at most a few chunks left to hash,
 * whatever the file's size. A failed advance is only logged (`onError`): finish hashes
 * whatever is left.
 */
export async function followDigest(
  db: Executor,
  staging: UploadStaging,
  file: StagedFileRef,
  chunkIndex: number,
  maxLag: number,
  onError: (error: unknown) => void,
): Promise<void> {
  const hashed = flights.get(`${file.uploadId}/${file.fileIndex}`)?.hashed ?? chunkIndex;
  const advance = advanceDigest(db, staging, file).then(() => undefined, onError);
  if (chunkIndex - hashed > maxLag || chunkIndex >= file.chunkCount - maxLag) await advance;
}

async function runFlight(
  key: string,
  flight: Flight,
  db: Executor,
  staging: UploadStaging,
  file: StagedFileRef,
): Promise<void> {
  while (flight.waiters.length > 0) {
    const covers = flight.requested;
    let outcome: { digest: FileDigest } | { error: unknown };
    try {
      outcome = { digest: await advanceOnce(db, staging, file) };
      flight.hashed = outcome.digest.hashedChunks;
    } catch (error) {
      outcome = { error };
    }
    const served = flight.waiters.filter((w) => w.need <= covers);
    flight.waiters = flight.waiters.filter((w) => w.need > covers);
    for (const waiter of served) {
      if ('digest' in outcome) waiter.resolve(outcome.digest);
      else waiter.reject(outcome.error);
    }
  }
  flights.delete(key);
}

/** Length of chunks [from, to) of a file of `size` bytes. */
function rangeLength(size: number, from: number, to: number): number {
  return Math.max(0, Math.min(to * CHUNK_SIZE, size) - from * CHUNK_SIZE);
}

async function advanceOnce(
  db: Executor,
  staging: UploadStaging,
  file: StagedFileRef,
): Promise<FileDigest> {
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
    const row = await loadDigest(db, file.uploadId, file.fileIndex, file.path);
    const start = row.nextChunk;
    let next = start;
    for (const index of row.received) {
      if (index !== next || next >= file.chunkCount) break;
      next += 1;
    }
    if (next === start) {
      return { hashedChunks: start, sha1: await sha1When(row.sha1State, start, file) };
    }
    const offset = start * CHUNK_SIZE;
    const length = rangeLength(file.size, start, next);
    const local = staging.localFile?.(file.uploadId, file.fileIndex);
    const state = await continueSha1(
      stateOf(row.sha1State),
      local
        ? { file: local, offset, length }
        : { read: () => staging.readRange(file.uploadId, file.fileIndex, offset, length) },
    );
    const sha1State = Buffer.from(state).toString('base64');
    if (
      await saveDigest(db, file.uploadId, file.fileIndex, row.generation, {
        nextChunk: next,
        sha1State,
      })
    ) {
      return { hashedChunks: next, sha1: await sha1When(sha1State, next, file) };
    }
  }
  throw new Error(`The digest of ${file.path} kept changing`);
}

async function sha1When(
  state: string | null,
  hashedChunks: number,
  file: StagedFileRef,
): Promise<string | null> {
  if (hashedChunks < file.chunkCount) return null;
  return finalSha1(stateOf(state));
}
