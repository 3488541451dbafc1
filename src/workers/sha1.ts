/**
 * SHA-1 of a file with hash-wasm, fed in 256 KB slices (spec 001 §9: "checksum SHA-1 in 256 KB
 * slices"). Pure logic without DOM types so it runs in a worker and in Node tests alike.
 */
import { createSHA1 } from 'hash-wasm';

/** Size of each slice handed to the hasher. */
export const SHA1_SLICE_SIZE = 256 * 1024;
/** Slices read from the file per read; fewer, larger reads are much faster than 256 KB reads. */
const SLICES_PER_READ = 16;

/** Called after each read with the bytes hashed so far and the file size. */
export type HashProgress = (loaded: number, total: number) => void;

/** The part of Blob the hasher needs (lets tests pass any sliceable source). */
export interface SliceableSource {
  readonly size: number;
  slice(start: number, end: number): { arrayBuffer(): Promise<ArrayBuffer> };
}

export interface Sha1Options {
  onProgress?: HashProgress;
  signal?: AbortSignal;
}

/** Hex SHA-1 digest of `source`. */
export async function sha1OfBlob(
  source: SliceableSource,
  options: Sha1Options = {},
): Promise<string> {
  const { onProgress, signal } = options;
  const hasher = await createSHA1();
  hasher.init();
  const total = source.size;
  const readSize = SHA1_SLICE_SIZE * SLICES_PER_READ;
  for (let offset = 0; offset < total; offset += readSize) {
    signal?.throwIfAborted();
    const end = Math.min(offset + readSize, total);
    const bytes = new Uint8Array(await source.slice(offset, end).arrayBuffer());
    for (let start = 0; start < bytes.length; start += SHA1_SLICE_SIZE) {
      hasher.update(bytes.subarray(start, start + SHA1_SLICE_SIZE));
    }
    onProgress?.(end, total);
  }
  if (total === 0) onProgress?.(0, 0);
  return hasher.digest('hex');
}
