/**
 * The staged files' SHA-1, computed while an upload runs instead of at finish. After each
 * acknowledged chunk the file's running SHA-1 (a serialized hash-wasm state in
 * upload_digests) is advanced over every chunk that now continues it in order; finish only
 * hashes what is left, so its time does not grow with the file's size.
 *
 * - The bytes come from memory: a chunk request keeps its bytes (holdChunk) once they are
 *   durable, and the advance that reaches the chunk hashes them from there (the buffer is
 *   shared memory the hashing thread reads in place, reused for a later chunk once the
 *   advance is over: staging.ts releaseChunkBytes), so every
 *   received byte is hashed as it arrived and never read back from the disk. Only a chunk
 *   that is not held (received by another instance or before a restart, or beyond
 *   HELD_LIMIT bytes held in this process) is read from the staging.
 * - The hashing runs in a worker thread (lib/sha1-thread.ts), beside the requests.
 * - Within a process, the advances of one file run one at a time: a request arriving while
 *   one runs waits for the next one, which covers its chunk and every other chunk recorded
 *   meanwhile (so four chunk requests in flight do not hash the same bytes four times).
 * - Progress is saved by compare-and-set, so concurrent requests on any number of instances
 *   stay correct: a loser simply retries from the winner's state.
 */
import type { Executor } from '../../db/database';
import { loadDigest, saveDigest, type LoadedDigest } from '../../db/queries/upload-digests';
import { continueSha1, finalSha1, type Sha1Piece } from '../../lib/sha1-thread';
import { CHUNK_SIZE, releaseChunkBytes, type UploadStaging } from '../../storage/staging';

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

/** At most this many chunk bytes wait in memory for the running SHA-1, in one process. */
export const HELD_LIMIT = 192 * 1024 * 1024;
/** A held chunk the running SHA-1 has not reached after this long is let go (read back then). */
const HELD_MS = 2 * 60 * 1000;

interface Held {
  bytes: Buffer;
  sha1: string;
  at: number;
}

/** Received chunk bytes waiting for the running SHA-1, by upload, file and chunk index. */
const held = new Map<string, Held>();
let heldBytes = 0;

const heldKey = (uploadId: string, fileIndex: number, chunkIndex: number) =>
  `${uploadId}/${fileIndex}/${chunkIndex}`;

function release(entry: Held | undefined): void {
  if (entry) releaseChunkBytes(entry.bytes);
}

function letGo(key: string): Held | undefined {
  const entry = held.get(key);
  if (entry) {
    held.delete(key);
    heldBytes -= entry.bytes.length;
  }
  return entry;
}

/**
 * Keeps a durable chunk's bytes (whose SHA-1 is `sha1`) until the running SHA-1 reaches
 * them; nothing is kept past HELD_LIMIT (that chunk is read back instead).
 */
export function holdChunk(
  uploadId: string,
  fileIndex: number,
  chunkIndex: number,
  sha1: string,
  bytes: Buffer,
  now = Date.now(),
): void {
  for (const [key, entry] of held) if (now - entry.at > HELD_MS) release(letGo(key));
  const key = heldKey(uploadId, fileIndex, chunkIndex);
  release(letGo(key));
  if (heldBytes + bytes.length > HELD_LIMIT) {
    releaseChunkBytes(bytes);
    return;
  }
  held.set(key, { bytes, sha1, at: now });
  heldBytes += bytes.length;
}

/** Lets go of every chunk held for the upload (finished, cancelled, or its chunks forgotten). */
export function forgetHeld(uploadId: string): void {
  for (const key of [...held.keys()]) if (key.startsWith(`${uploadId}/`)) release(letGo(key));
}

/** Bytes held now (for tests and benches). */
export function heldByteCount(): number {
  return heldBytes;
}

function stateOf(text: string | null): Uint8Array | null {
  return text ? Buffer.from(text, 'base64') : null;
}

/** Advances the file's running SHA-1 over every contiguous received chunk. */
export function advanceDigest(
  db: Executor,
  staging: UploadStaging,
  file: StagedFileRef,
  preload: LoadedDigest | null = null,
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
  if (starting) void runFlight(key, flight, db, staging, file, preload);
  return digest;
}

/**
 * After chunk `chunkIndex` of the file was recorded: starts the advance that covers it, and
 * waits for it only when the running SHA-1 is more than `maxLag` chunks behind this chunk, or
 * the chunk is one of the file's last `maxLag` ones. Chunk requests therefore go on while the
 * SHA-1 follows, yet it never falls far behind, and once the last chunks are acknowledged
 * every chunk sent in order is hashed: finish has at most a few chunks left to hash,
 * whatever the file's size. A failed advance is only logged (`onError`): finish hashes
 * whatever is left. `preload`: the digest row as the chunk's record found it (saves a
 * statement when this call starts the advance).
 */
export async function followDigest(
  db: Executor,
  staging: UploadStaging,
  file: StagedFileRef,
  chunkIndex: number,
  maxLag: number,
  onError: (error: unknown) => void,
  preload: LoadedDigest | null = null,
): Promise<void> {
  const hashed = flights.get(`${file.uploadId}/${file.fileIndex}`)?.hashed ?? chunkIndex;
  const advance = advanceDigest(db, staging, file, preload).then(() => undefined, onError);
  if (chunkIndex - hashed > maxLag || chunkIndex >= file.chunkCount - maxLag) await advance;
}

async function runFlight(
  key: string,
  flight: Flight,
  db: Executor,
  staging: UploadStaging,
  file: StagedFileRef,
  preload: LoadedDigest | null,
): Promise<void> {
  let first = preload;
  while (flight.waiters.length > 0) {
    const covers = flight.requested;
    let outcome: { digest: FileDigest } | { error: unknown };
    try {
      const row = first;
      first = null;
      outcome = { digest: await advanceOnce(db, staging, file, row) };
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

/**
 * The bytes of chunks [from, to) of the file for the running SHA-1: each chunk's held bytes
 * when they are the ones recorded (`sha1s`), else a range of the staged file (read there).
 * A held chunk is taken when it is reached, so a second reading finds it on the disk.
 */
async function* chunkBytes(
  staging: UploadStaging,
  file: StagedFileRef,
  from: number,
  to: number,
  sha1s: Map<number, string | null>,
  used: Held[],
): AsyncGenerator<Sha1Piece> {
  const local = staging.localFile?.(file.uploadId, file.fileIndex);
  for (let index = from; index < to; index++) {
    const kept = letGo(heldKey(file.uploadId, file.fileIndex, index));
    if (kept && kept.sha1 === sha1s.get(index)) {
      // The hashing thread reads the shared buffer: reusable once the advance is over.
      used.push(kept);
      yield kept.bytes;
      continue;
    }
    release(kept);
    const offset = index * CHUNK_SIZE;
    const length = rangeLength(file.size, index, index + 1);
    if (local) yield { file: local, offset, length };
    else yield* staging.readRange(file.uploadId, file.fileIndex, offset, length);
  }
}

async function advanceOnce(
  db: Executor,
  staging: UploadStaging,
  file: StagedFileRef,
  preload: LoadedDigest | null,
): Promise<FileDigest> {
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
    const row =
      attempt === 0 && preload
        ? preload
        : await loadDigest(db, file.uploadId, file.fileIndex, file.path);
    const start = row.nextChunk;
    let next = start;
    const sha1s = new Map<number, string | null>();
    for (const chunk of row.received) {
      if (chunk.index !== next || next >= file.chunkCount) break;
      sha1s.set(chunk.index, chunk.sha1);
      next += 1;
    }
    if (next === start) {
      return { hashedChunks: start, sha1: await sha1When(row.sha1State, start, file) };
    }
    const used: Held[] = [];
    let state: Uint8Array;
    try {
      state = await continueSha1(stateOf(row.sha1State), {
        read: () => chunkBytes(staging, file, start, next, sha1s, used),
      });
    } finally {
      for (const entry of used) release(entry);
    }
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
