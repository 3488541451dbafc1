/**
 * The staged files' SHA-1, computed while an upload runs instead of at finish. After each
 * acknowledged chunk the file's running SHA-1 (lib/sha1-thread.ts: Node's own SHA-1 in the
 * hashing thread) is advanced over every chunk that now continues it in order; finish only
 * hashes what is left, so its time does not grow with the file's size.
 *
 * - The bytes come from memory: a chunk request keeps its bytes (holdChunk) once they are
 *   durable, and the advance that reaches the chunk hashes them from there (the buffer is
 *   shared memory the hashing thread reads in place, reused for a later chunk once the
 *   advance is over: staging.ts releaseChunkBytes), so every
 *   received byte is hashed as it arrived and never read back from the disk. Only a chunk
 *   that is not held (received by another instance or before a restart, or beyond
 *   HELD_LIMIT bytes held in this process) is read from the staging.
 * - The running SHA-1 lives in this process only (its state cannot be saved): it remembers
 *   the SHA-1 recorded for each chunk it covers, and finish checks them against the chunk
 *   records, so a chunk rewritten elsewhere is noticed. When it is gone (a restart, or a
 *   finish on an instance that took none of the chunks) or does not match, it starts again
 *   from the staged bytes: finish then reads and hashes the file once (the rare case).
 * - Within a process, the advances of one file run one at a time: a request arriving while
 *   one runs waits for the next one, which covers its chunk and every other chunk recorded
 *   meanwhile (so four chunk requests in flight do not hash the same bytes four times).
 *   No statement is spent on the running SHA-1: the chunk's record statement answers the
 *   received chunks it needs.
 */
import type { Executor } from '../../db/database';
import { receivedChunks, type ReceivedChunk } from '../../db/queries/upload-chunks';
import { RunningSha1, type Sha1Piece } from '../../lib/sha1-thread';
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
  /** The SHA-1 recorded for each of those chunks when it was hashed (read it at once). */
  chunkSha1s: readonly (string | null)[];
  /** SHA-1 (hex) of the whole file, when every chunk is hashed. */
  sha1: string | null;
}

/** The received chunks of a file from chunk `from` on, as a chunk's record found them. */
export interface ReceivedFrom {
  from: number;
  received: ReceivedChunk[];
}

interface Waiter {
  /** The advance this caller needs: one that started after it asked. */
  need: number;
  resolve(digest: FileDigest): void;
  reject(error: unknown): void;
}

interface Flight {
  requested: number;
  waiters: Waiter[];
}

/** Advances running in this process, by upload and file. */
const flights = new Map<string, Flight>();

/** A file's running SHA-1: the SHA-1 recorded for each chunk it covers, in order. */
interface Live {
  hash: RunningSha1;
  chunkSha1s: (string | null)[];
}

/** Running SHA-1s by upload and file, least recently used first. */
const lives = new Map<string, Live>();
/** Running SHA-1s kept at most (an abandoned upload's is let go: it starts again if needed). */
const MAX_LIVES = 1000;

/** A file whose running SHA-1 covered every chunk: its SHA-1 and its chunks' (the hash is closed). */
interface Finished {
  sha1: string;
  chunkSha1s: (string | null)[];
}

/**
 * Finished files by upload and file, oldest first: a push of many files keeps every file's
 * SHA-1 for its finish without keeping a hash open per file.
 */
const finished = new Map<string, Finished>();
/** Finished files kept at most (about 100 bytes each plus 41 a chunk). */
const MAX_FINISHED = 200_000;

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

const fileKey = (uploadId: string, fileIndex: number) => `${uploadId}/${fileIndex}`;
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

function dropLive(key: string): void {
  lives.get(key)?.hash.close();
  lives.delete(key);
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

/**
 * Lets go of everything kept for the upload: held chunks and running SHA-1s (finished,
 * cancelled, or its files' chunks forgotten).
 */
export function forgetHeld(uploadId: string): void {
  for (const key of [...held.keys()]) if (key.startsWith(`${uploadId}/`)) release(letGo(key));
  for (const key of [...lives.keys()]) if (key.startsWith(`${uploadId}/`)) dropLive(key);
  for (const key of [...finished.keys()]) if (key.startsWith(`${uploadId}/`)) finished.delete(key);
}

/**
 * Chunk `chunkIndex` of the file got other bytes than the running SHA-1 covered (or may
 * have: a failed write): it starts again from the staged bytes.
 */
export function chunkChanged(uploadId: string, fileIndex: number, chunkIndex: number): void {
  const key = fileKey(uploadId, fileIndex);
  const live = lives.get(key);
  if (live && live.chunkSha1s.length > chunkIndex) dropLive(key);
  finished.delete(key);
}

/** Bytes held now (for tests and benches). */
export function heldByteCount(): number {
  return heldBytes;
}

/** The first chunk the file's running SHA-1 has not covered yet (0 when there is none). */
export function digestNextChunk(uploadId: string, fileIndex: number): number {
  const key = fileKey(uploadId, fileIndex);
  return (finished.get(key) ?? lives.get(key))?.chunkSha1s.length ?? 0;
}

/** The SHA-1 of what the file's running SHA-1 covers now (for tests; null when there is none). */
export async function digestSoFar(uploadId: string, fileIndex: number): Promise<string | null> {
  const key = fileKey(uploadId, fileIndex);
  const done = finished.get(key);
  if (done) return done.sha1;
  const live = lives.get(key);
  return live ? live.hash.digest() : null;
}

/**
 * Advances the file's running SHA-1 over every contiguous received chunk. `preload`: the
 * received chunks as a chunk's record found them (saves a statement when they start where
 * the running SHA-1 is).
 */
export function advanceDigest(
  db: Executor,
  staging: UploadStaging,
  file: StagedFileRef,
  preload: ReceivedFrom | null = null,
): Promise<FileDigest> {
  const key = fileKey(file.uploadId, file.fileIndex);
  let flight = flights.get(key);
  const starting = !flight;
  if (!flight) {
    flight = { requested: 0, waiters: [] };
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
 * whatever is left.
 */
export async function followDigest(
  db: Executor,
  staging: UploadStaging,
  file: StagedFileRef,
  chunkIndex: number,
  maxLag: number,
  onError: (error: unknown) => void,
  preload: ReceivedFrom | null = null,
): Promise<void> {
  const hashed = digestNextChunk(file.uploadId, file.fileIndex);
  const advance = advanceDigest(db, staging, file, preload).then(() => undefined, onError);
  if (chunkIndex - hashed > maxLag || chunkIndex >= file.chunkCount - maxLag) await advance;
}

async function runFlight(
  key: string,
  flight: Flight,
  db: Executor,
  staging: UploadStaging,
  file: StagedFileRef,
  preload: ReceivedFrom | null,
): Promise<void> {
  let first = preload;
  while (flight.waiters.length > 0) {
    const covers = flight.requested;
    let outcome: { digest: FileDigest } | { error: unknown };
    try {
      const received = first;
      first = null;
      outcome = { digest: await advanceOnce(db, staging, file, received) };
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
 * The bytes of chunks `from`, `from + 1`, … of the file for the running SHA-1: each chunk's
 * held bytes when they are the ones recorded (`sha1s`), else a range of the staged file
 * (read there). A held chunk is taken when it is reached, so a second reading finds it on
 * the disk.
 */
async function* chunkBytes(
  staging: UploadStaging,
  file: StagedFileRef,
  from: number,
  sha1s: (string | null)[],
  used: Held[],
): AsyncGenerator<Sha1Piece> {
  const local = staging.localFile?.(file.uploadId, file.fileIndex);
  for (const [i, sha1] of sha1s.entries()) {
    const index = from + i;
    const kept = letGo(heldKey(file.uploadId, file.fileIndex, index));
    if (kept && kept.sha1 === sha1) {
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

function liveOf(key: string): Live {
  let live = lives.get(key);
  if (live?.hash.broken) {
    lives.delete(key);
    live = undefined;
  }
  if (live) {
    // Most recently used last.
    lives.delete(key);
  } else {
    live = { hash: new RunningSha1(), chunkSha1s: [] };
  }
  lives.set(key, live);
  while (lives.size > MAX_LIVES) dropLive(lives.keys().next().value!);
  return live;
}

async function advanceOnce(
  db: Executor,
  staging: UploadStaging,
  file: StagedFileRef,
  preload: ReceivedFrom | null,
): Promise<FileDigest> {
  const key = fileKey(file.uploadId, file.fileIndex);
  const done = finished.get(key);
  if (done) return { hashedChunks: done.chunkSha1s.length, ...done };
  const live = liveOf(key);
  const start = live.chunkSha1s.length;
  const received =
    preload && preload.from === start
      ? preload.received
      : await receivedChunks(db, file.uploadId, file.path, start);
  const sha1s: (string | null)[] = [];
  for (const chunk of received) {
    const index = start + sha1s.length;
    if (chunk.index !== index || index >= file.chunkCount) break;
    sha1s.push(chunk.sha1);
  }
  if (sha1s.length > 0) {
    const used: Held[] = [];
    try {
      await live.hash.update(chunkBytes(staging, file, start, sha1s, used));
    } catch (error) {
      // Started again meanwhile (a chunk changed, its hash closed): nothing to report.
      if (lives.get(key) !== live) return { hashedChunks: 0, chunkSha1s: [], sha1: null };
      dropLive(key);
      throw error;
    } finally {
      for (const entry of used) release(entry);
    }
    // Started again meanwhile: what this pass hashed is of no use.
    if (lives.get(key) !== live) return { hashedChunks: 0, chunkSha1s: [], sha1: null };
    live.chunkSha1s.push(...sha1s);
  }
  const hashedChunks = live.chunkSha1s.length;
  if (hashedChunks < file.chunkCount)
    return { hashedChunks, chunkSha1s: live.chunkSha1s, sha1: null };
  // Every chunk is hashed: keep the SHA-1, close the hash.
  const sha1 = await live.hash.digest();
  if (lives.get(key) !== live) return { hashedChunks: 0, chunkSha1s: [], sha1: null };
  dropLive(key);
  finished.set(key, { sha1, chunkSha1s: live.chunkSha1s });
  while (finished.size > MAX_FINISHED) finished.delete(finished.keys().next().value!);
  return { hashedChunks, chunkSha1s: live.chunkSha1s, sha1 };
}
