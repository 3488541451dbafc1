/**
 * SHA-1 of a file (spec 001 §9: "checksum SHA-1 in 256 KB slices") with the WebAssembly
 * SHA-1 built from ./sha1-wasm (1.5× hash-wasm's speed in Chromium's worker). Pure logic
 * without DOM types so it runs in a worker and in Node tests alike. A Blob is read through its
 * stream; other sources through slices. The browser bench measures every way of reading a
 * File in a worker against `sha1sum` (bench/browser/read.worker.ts: the stream, arrayBuffer()
 * of 4–64 MiB slices, double buffering, FileReaderSync): the stream's pieces (64 KiB in
 * Chromium) are the fastest, because they are still in the CPU's cache when they are copied
 * into the module's memory; megabyte slices are slower (docs/upload-profile.md).
 */
import { createSha1Wasm, type Sha1Hasher } from './sha1-wasm/sha1Wasm';

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
  /** The source's byte stream (a Blob's): read this way when present. */
  stream?(): ReadableStream<Uint8Array>;
}

export interface Sha1Options {
  onProgress?: HashProgress;
  signal?: AbortSignal;
  /**
   * Hears each read's bytes after they were hashed, in order (the upload stages its copy of
   * the file from them, so the file is read once); a returned promise is awaited. The bytes
   * are only valid during the call: the next read reuses their buffer, so copy what you keep.
   */
  onBytes?: (bytes: Uint8Array) => void | Promise<void>;
}

function update(hasher: Sha1Hasher, bytes: Uint8Array): void {
  for (let start = 0; start < bytes.length; start += SHA1_SLICE_SIZE) {
    hasher.update(bytes.subarray(start, start + SHA1_SLICE_SIZE));
  }
}

/** Bytes asked for per read when the stream takes our buffer (a BYOB reader). */
const BYOB_READ_SIZE = 1024 * 1024;

/** One read: the bytes, or done. */
type Read = () => Promise<{ done: boolean; value?: Uint8Array }>;

/**
 * The stream's reads: into one reused buffer of BYOB_READ_SIZE when the stream is a byte
 * stream (Chromium's Blob streams are: no new 64 KiB chunk per read, a quarter less time per
 * GiB in the bench), else the stream's own chunks.
 */
function readerOf(stream: ReadableStream<Uint8Array>): {
  read: Read;
  cancel(): Promise<void>;
} {
  let byob: ReadableStreamBYOBReader;
  try {
    byob = stream.getReader({ mode: 'byob' });
  } catch {
    const reader = stream.getReader();
    return { read: () => reader.read(), cancel: () => reader.cancel() };
  }
  let buffer = new ArrayBuffer(BYOB_READ_SIZE);
  return {
    async read() {
      const result = await byob.read(new Uint8Array(buffer));
      if (result.value) buffer = result.value.buffer;
      return result;
    },
    cancel: () => byob.cancel(),
  };
}

/** Feeds the stream to the hasher; progress at most once per read size, and at the end. */
async function hashStream(
  stream: ReadableStream<Uint8Array>,
  hasher: Sha1Hasher,
  total: number,
  { onProgress, signal, onBytes }: Sha1Options,
): Promise<void> {
  const reader = readerOf(stream);
  const every = SHA1_SLICE_SIZE * SLICES_PER_READ;
  let loaded = 0;
  let reported = 0;
  try {
    for (;;) {
      signal?.throwIfAborted();
      const { done, value } = await reader.read();
      if (done || !value) break;
      update(hasher, value);
      const taken = onBytes?.(value);
      if (taken) await taken;
      loaded += value.length;
      if (loaded - reported >= every || loaded === total) {
        reported = loaded;
        onProgress?.(loaded, total);
      }
    }
  } catch (error) {
    await reader.cancel().catch(() => undefined);
    throw error;
  }
  if (reported !== loaded) onProgress?.(loaded, total);
}

/** Hex SHA-1 digest of `source`. */
export async function sha1OfBlob(
  source: SliceableSource,
  options: Sha1Options = {},
): Promise<string> {
  const { onProgress, signal, onBytes } = options;
  const hasher = await createSha1Wasm();
  const total = source.size;
  if (source.stream && total > 0) {
    await hashStream(source.stream(), hasher, total, options);
    return hasher.digest();
  }
  const readSize = SHA1_SLICE_SIZE * SLICES_PER_READ;
  for (let offset = 0; offset < total; offset += readSize) {
    signal?.throwIfAborted();
    const end = Math.min(offset + readSize, total);
    const bytes = new Uint8Array(await source.slice(offset, end).arrayBuffer());
    update(hasher, bytes);
    const taken = onBytes?.(bytes);
    if (taken) await taken;
    onProgress?.(end, total);
  }
  if (total === 0) onProgress?.(0, 0);
  return hasher.digest();
}
