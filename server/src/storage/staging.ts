/**
 * The one staging of the push (v1 and v2): where received chunk bytes wait, durable, until a
 * version uses them. Each blob store brings its own (BlobStore.openStaging: the local store
 * stages in DATA_DIR/uploads, the S3 store in its bucket under `staging/`), so the choice is
 * made once, by the store that was configured; `stagingOf` keeps one per store.
 *
 * Staged bytes belong to an owner id (a UUID): a v1 transaction (one staged file per added
 * or updated file of its plan, by position) or a v2 chunk (file 0). The sweep job
 * (services/push/sweep.ts) removes owners that are neither a running upload nor a v2 chunk.
 */
import { ChunkDigests, type ChunkSums } from '../lib/sha1-thread';
import { CHUNK_SIZE } from '../schemas/protocol';
import type { BlobInfo, BlobStore } from './blob-store';

export { CHUNK_SIZE };

export const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** The received bytes exceed the chunk limit; nothing more was written. */
export class ChunkTooBigError extends Error {
  constructor() {
    super('Chunk too big');
    this.name = 'ChunkTooBigError';
  }
}

export interface ChunkWritten {
  size: number;
  /** SHA-1 (hex) of the chunk's bytes. */
  sha1: string;
  /** SHA-256 (hex) of the chunk's bytes: a leaf of the blob key (null when not asked for). */
  sha256: string | null;
  /** The chunk's bytes in one buffer of their own, when asked for (`keep`). */
  bytes?: Buffer;
}

/**
 * How a chunk is written: at most `limit` bytes; `truncate`: the file ends after it; `leaf`
 * (default true): compute its SHA-256 leaf; `keep`: the size the chunk should have: when it
 * has that size, the buffer its bytes were gathered in is answered as `bytes` (so the caller
 * can hash them further without reading them back; releaseChunkBytes when done).
 */
export interface ChunkWriteOptions {
  limit: number;
  truncate: boolean;
  leaf?: boolean;
  keep?: number;
  /**
   * Continue a chunk whose body broke off (ChunkInterrupted): its intake holds the bytes
   * already staged (their count, digests and kept copy); the new body is the rest, written
   * after them. Only stagings with `resumesChunks` take it.
   */
  from?: ChunkIntake;
}

/**
 * The request body broke off (a lost connection) after `intake.size` bytes of the chunk were
 * staged; `intake` can continue it (ChunkWriteOptions.from). `cause` is the body's error.
 */
export class ChunkInterrupted extends Error {
  constructor(
    readonly intake: ChunkIntake,
    override readonly cause: unknown,
  ) {
    super('Chunk interrupted');
    this.name = 'ChunkInterrupted';
  }
}

/** Chunk-sized buffers kept for reuse: a fresh 10 MiB per chunk costs page faults and GCs. */
const spareBuffers: Buffer[] = [];
const MAX_SPARE_BUFFERS = 24;

/**
 * A buffer for a chunk's bytes: shared memory, so the hashing thread reads it where it is
 * (lib/sha1-thread.ts) instead of getting a copy made on the event loop.
 */
function chunkBuffer(size: number): Buffer {
  if (size > CHUNK_SIZE) return Buffer.allocUnsafeSlow(size);
  const buffer = spareBuffers.pop() ?? Buffer.from(new SharedArrayBuffer(CHUNK_SIZE));
  return buffer.subarray(0, size);
}

/**
 * Gives back the `bytes` of a ChunkWritten once nothing reads them any more (its buffer is
 * handed to a later chunk); bytes never given back are simply collected.
 */
export function releaseChunkBytes(bytes: Buffer): void {
  const whole = Buffer.from(bytes.buffer, 0, bytes.buffer.byteLength);
  if (whole.length === CHUNK_SIZE && spareBuffers.length < MAX_SPARE_BUFFERS) {
    spareBuffers.push(whole);
  }
}

/** The received bytes are handed to the hashing thread in batches of about this size. */
const HASH_BATCH = 1024 * 1024;

/**
 * A chunk's bytes as they arrive. Each piece is copied into one buffer of the chunk's
 * limit (shared memory, reused from chunk to chunk: chunkBuffer, releaseChunkBytes); every
 * HASH_BATCH bytes the hashing thread takes the new batch from there, in place, into every
 * digest the chunk needs (its SHA-1; its SHA-256 leaf unless `leaf` is false:
 * lib/sha1-thread.ts ChunkDigests), so each byte is hashed once and the event loop only
 * copies. The pieces themselves are let go as soon as they are written.
 *
 * Everything the chunk's intake has so far (the bytes, the hashes under way, the size) is
 * in this object, not in the request: more pieces may follow from another body.
 */
export class ChunkIntake {
  size = 0;
  private readonly digests: ChunkDigests;
  /** The chunk's bytes so far (null when the limit is past CHUNK_SIZE: hashed piece by piece). */
  private buffer: Buffer | null;
  /** Bytes of `buffer` handed to the hashing so far. */
  private hashed = 0;

  constructor(private readonly options: ChunkWriteOptions) {
    this.digests = new ChunkDigests(options.leaf !== false);
    this.buffer = options.limit <= CHUNK_SIZE ? chunkBuffer(options.limit) : null;
  }

  /** The next piece of the body, hashed (ChunkTooBigError past the limit). */
  take(piece: Uint8Array | string): Uint8Array {
    const bytes = typeof piece === 'string' ? Buffer.from(piece) : piece;
    if (this.size + bytes.length > this.options.limit) throw new ChunkTooBigError();
    // fill() copies with one memcpy; set() into shared memory copies word by word
    // (about 0.5 CPU s/GiB more on the event loop, measured).
    if (this.buffer) {
      if (bytes.length > 0) this.buffer.fill(bytes, this.size, this.size + bytes.length);
    } else this.digests.add(bytes);
    this.size += bytes.length;
    if (this.size - this.hashed >= HASH_BATCH) this.hashBatch();
    return bytes;
  }

  /** Whether the intake keeps the chunk's bytes in a buffer of its own (bytesBetween). */
  get keepsBytes(): boolean {
    return this.buffer !== null;
  }

  /**
   * The chunk's bytes from `from` to `to` (offsets in the chunk, within what was taken), in
   * the intake's own buffer: null when it keeps none (a limit past CHUNK_SIZE).
   */
  bytesBetween(from: number, to: number): Uint8Array | null {
    return this.buffer ? this.buffer.subarray(from, to) : null;
  }

  private hashBatch(): void {
    if (!this.buffer || this.size === this.hashed) return;
    this.digests.add(this.buffer.subarray(this.hashed, this.size));
    this.hashed = this.size;
  }

  /**
   * The chunk's size and digests once every byte taken is hashed (once: its buffer is then
   * handed on, as `bytes` when `keep` is the size received, else to a later chunk).
   */
  async written(): Promise<ChunkWritten> {
    this.hashBatch();
    const buffer = this.buffer;
    this.buffer = null;
    let sums: ChunkSums;
    try {
      sums = await this.digests.digest();
    } catch (error) {
      if (buffer) releaseChunkBytes(buffer);
      throw error;
    }
    const kept = buffer && this.options.keep === this.size ? buffer.subarray(0, this.size) : null;
    if (buffer && !kept) releaseChunkBytes(buffer);
    return { size: this.size, ...sums, ...(kept ? { bytes: kept } : {}) };
  }
}

export interface UploadStaging {
  /**
   * Whether a broken-off chunk's staged prefix is kept (writeChunk throws ChunkInterrupted
   * and takes ChunkWriteOptions.from); false: the chunk is sent again whole.
   */
  readonly resumesChunks: boolean;
  /**
   * Stores the chunk at `offset` (a multiple of CHUNK_SIZE) of a staged file, replacing what
   * was there; at most `limit` bytes (else ChunkTooBigError). `truncate`: the file ends
   * after this chunk. Durable when it resolves. Its digests are computed in the same pass
   * as the bytes arrive (never read back). With `resumesChunks`, a body that breaks off
   * leaves what arrived staged and throws ChunkInterrupted.
   */
  writeChunk(
    transaction: string,
    fileIndex: number,
    offset: number,
    body: AsyncIterable<Uint8Array | string>,
    options: ChunkWriteOptions,
  ): Promise<ChunkWritten>;
  /** Reads `length` staged bytes from `offset` (within received chunks). */
  readRange(
    transaction: string,
    fileIndex: number,
    offset: number,
    length: number,
  ): AsyncIterable<Uint8Array>;
  /**
   * Puts a complete, verified staged file into the blob store under `info.key`, reading it
   * again only where the store cannot copy or rename. When the staged bytes are gone (an
   * earlier finish placed them and failed afterwards), the blob found in the store answers;
   * null when neither exists.
   */
  place(transaction: string, fileIndex: number, info: BlobInfo): Promise<BlobInfo | null>;
  /** Drops everything staged for the transaction. */
  remove(transaction: string): Promise<void>;
  /** The staged file's path, when it is a file on this machine (readable by other threads). */
  localFile?(transaction: string, fileIndex: number): string;
  /** Transaction ids that have something staged. */
  list(): Promise<string[]>;
}

const stagings = new WeakMap<BlobStore, UploadStaging>();

/** The staging of `store` (made once per store). */
export function stagingOf(store: BlobStore): UploadStaging {
  let staging = stagings.get(store);
  if (!staging) {
    staging = store.openStaging();
    stagings.set(store, staging);
  }
  return staging;
}
