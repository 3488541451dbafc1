/**
 * Content-addressed byte storage. A blob's key is a SHA-256 hash tree of its bytes
 * (blob-key.ts), computed by the server while the bytes stream in, so identical files across
 * projects and versions are stored once. Implementations: local disk (local-blob-store.ts)
 * and an S3-compatible bucket for deployments with several instances (s3-blob-store.ts).
 *
 * Which blobs are in use is recorded in the database (table blobs and the file tables);
 * the store itself knows nothing about projects.
 */
import type { Readable } from 'node:stream';
import type { ReadProgress } from './read-into';
import type { UploadStaging } from './staging';

export interface BlobInfo {
  /** The content's key (blob-key.ts: SHA-256 over the SHA-256 of its 10 MiB leaves). */
  key: string;
  size: number;
  /** SHA-1 hex of the bytes (the checksum clients use). */
  sha1: string;
}

export interface PutOptions {
  /** When given, a stream of another length is rejected (BlobSizeMismatchError). */
  expectedSize?: number;
  /** Aborting discards everything written so far. */
  signal?: AbortSignal;
  /**
   * Store the bytes under this key instead of their content key: a blob made from a diff is
   * keyed by its recipe (services/file-store/recipe.ts). The bytes must have this SHA-1
   * (else BlobSha1MismatchError and nothing is kept).
   */
  as?: { key: string; sha1: string };
}

/** Inclusive byte range, as in HTTP Range headers. `end` defaults to the last byte. */
export interface ByteRange {
  start: number;
  end?: number;
}

export interface BlobStore {
  /** Streams bytes in; resolves once they are durable. Idempotent for existing content. */
  put(source: AsyncIterable<Uint8Array> | Readable, options?: PutOptions): Promise<BlobInfo>;
  /**
   * Takes over a complete local file whose key, size and SHA-1 were computed as it was
   * written (upload staging), without reading it again where the store allows.
   */
  adopt(file: string, info: BlobInfo): Promise<BlobInfo>;
  /** Checks at start that the store can be used; throws a clear error otherwise. */
  checkAccess(): Promise<void>;
  has(key: string): Promise<boolean>;
  /** Size of the blob, or null when it does not exist. */
  stat(key: string): Promise<{ size: number } | null>;
  /** Opens the blob (or a byte range of it) for reading. Throws BlobNotFoundError. */
  open(key: string, range?: ByteRange): Promise<Readable>;
  /**
   * The whole bytes of a small blob (a page patch) at once: one read, no stream. Throws
   * BlobNotFoundError.
   */
  read(key: string): Promise<Buffer>;
  /**
   * Reads the whole blob, `size` bytes, into `into` (a rebuild's buffer), calling `progress`
   * with how far the bytes are in from the start as they come (read-into.ts). Throws
   * BlobNotFoundError, and BlobSizeMismatchError when the blob holds another size.
   */
  readInto(key: string, into: Uint8Array, size: number, progress: ReadProgress): Promise<void>;
  /** Removes the blob; resolves false when it did not exist. */
  delete(key: string): Promise<boolean>;
  /**
   * Removes leftovers older than `maxAgeMs` of writes a crash interrupted (temp files or
   * objects, unfinished multipart uploads); resolves how many.
   */
  sweepTemp(maxAgeMs: number, now?: number): Promise<number>;
  /**
   * The push staging that goes with this store (staging.ts; use stagingOf, which keeps one
   * per store). Staged files are placed into `placeInto` (default: this store).
   */
  openStaging(placeInto?: BlobStore): UploadStaging;
}

export class BlobNotFoundError extends Error {
  constructor(readonly key: string) {
    super(`Blob ${key} not found`);
    this.name = 'BlobNotFoundError';
  }
}

export class BlobSizeMismatchError extends Error {
  constructor(
    readonly expected: number,
    readonly actual: number,
  ) {
    super(`Expected ${expected} bytes, received ${actual}`);
    this.name = 'BlobSizeMismatchError';
  }
}

export class BlobSha1MismatchError extends Error {
  constructor(
    readonly expected: string,
    readonly actual: string,
  ) {
    super(`Expected bytes with SHA-1 ${expected}, received ${actual}`);
    this.name = 'BlobSha1MismatchError';
  }
}

export class InvalidBlobKeyError extends Error {
  constructor(key: string) {
    super(`Invalid blob key ${JSON.stringify(key)}`);
    this.name = 'InvalidBlobKeyError';
  }
}

export class InvalidRangeError extends Error {
  constructor(range: ByteRange, size: number) {
    super(`Range ${range.start}-${range.end ?? ''} is not satisfiable for ${size} bytes`);
    this.name = 'InvalidRangeError';
  }
}

/** The last byte `range` reads of `size` bytes; InvalidRangeError when it is not satisfiable. */
export function rangeEnd(range: ByteRange, size: number): number {
  const end = range.end ?? size - 1;
  if (
    !Number.isInteger(range.start) ||
    !Number.isInteger(end) ||
    range.start < 0 ||
    range.start > end ||
    end >= size
  ) {
    throw new InvalidRangeError(range, size);
  }
  return end;
}

/** Answer (507) when the disk or bucket holding files and staged chunks is full. */
export const STORAGE_FULL_TEXT =
  'The server has no space left to store files. Nothing already stored was lost; try again once space has been freed.';

/** A write failed for want of space: ENOSPC/EDQUOT on disk, a full or over-quota bucket. */
export function isStorageFull(error: unknown): boolean {
  const e = error as { code?: string; name?: string } | null;
  if (!e) return false;
  return (
    e.code === 'ENOSPC' ||
    e.code === 'EDQUOT' ||
    e.name === 'XMinioStorageFull' ||
    e.name === 'QuotaExceeded'
  );
}

const KEY_RE = /^[0-9a-f]{64}$/;

export function assertBlobKey(key: string): void {
  if (!KEY_RE.test(key)) throw new InvalidBlobKeyError(key);
}
