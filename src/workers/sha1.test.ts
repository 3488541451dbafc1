// @vitest-environment node
import { createHash } from 'node:crypto';
import { describe, expect, it, vi } from 'vitest';
import { SHA1_SLICE_SIZE, sha1OfBlob } from './sha1';

function bytes(length: number): Uint8Array<ArrayBuffer> {
  const data = new Uint8Array(length);
  let x = 12345;
  for (let i = 0; i < length; i++) {
    x = (x * 1103515245 + 12345) >>> 0;
    data[i] = x >>> 24;
  }
  return data;
}

function nodeSha1(data: Uint8Array): string {
  return createHash('sha1').update(data).digest('hex');
}

describe('sha1OfBlob', () => {
  it('hashes an empty file', async () => {
    const progress = vi.fn();
    await expect(sha1OfBlob(new Blob([]), { onProgress: progress })).resolves.toBe(
      'da39a3ee5e6b4b0d3255bfef95601890afd80709',
    );
    expect(progress).toHaveBeenCalledWith(0, 0);
  });

  it('hashes a known string', async () => {
    await expect(sha1OfBlob(new Blob(['abc']))).resolves.toBe(
      'a9993e364706816aba3e25717850c26c9cd0d89d',
    );
  });

  it('matches Node crypto across slice and read boundaries', async () => {
    for (const size of [
      SHA1_SLICE_SIZE - 1,
      SHA1_SLICE_SIZE,
      SHA1_SLICE_SIZE * 16 + 7,
      9_000_001,
    ]) {
      const data = bytes(size);
      await expect(sha1OfBlob(new Blob([data]))).resolves.toBe(nodeSha1(data));
    }
  });

  it('reports progress up to the file size', async () => {
    const data = bytes(SHA1_SLICE_SIZE * 40);
    const blob = new Blob([data]);
    const progress = vi.fn();
    // Read through slices: one progress report per read.
    const source = {
      size: blob.size,
      slice: (start: number, end: number) => blob.slice(start, end),
    };
    await sha1OfBlob(source, { onProgress: progress });
    const loaded = progress.mock.calls.map((call) => call[0] as number);
    expect(loaded).toEqual([...loaded].sort((a, b) => a - b));
    expect(progress).toHaveBeenLastCalledWith(data.length, data.length);
    expect(progress.mock.calls.length).toBeGreaterThan(1);
  });

  it('reads the file in slices, never whole', async () => {
    const data = bytes(SHA1_SLICE_SIZE * 20);
    const blob = new Blob([data]);
    const sizes: number[] = [];
    const source = {
      size: blob.size,
      slice(start: number, end: number) {
        sizes.push(end - start);
        return blob.slice(start, end);
      },
    };
    await expect(sha1OfBlob(source)).resolves.toBe(nodeSha1(data));
    expect(Math.max(...sizes)).toBeLessThan(blob.size);
  });

  it('reads a Blob through its stream, with the same digest and bounded progress', async () => {
    const data = bytes(SHA1_SLICE_SIZE * 40 + 3);
    const blob = new Blob([data]);
    const streamed = vi.spyOn(blob, 'stream');
    const progress = vi.fn();
    await expect(sha1OfBlob(blob, { onProgress: progress })).resolves.toBe(nodeSha1(data));
    expect(streamed).toHaveBeenCalledTimes(1);
    // Progress at most once per 4 MB read, then the end.
    expect(progress.mock.calls.length).toBeLessThanOrEqual(
      Math.ceil(data.length / (SHA1_SLICE_SIZE * 16)) + 1,
    );
    expect(progress).toHaveBeenLastCalledWith(data.length, data.length);
  });

  it('hands each read to onBytes in order, read into one 1 MiB buffer', async () => {
    const data = bytes(3 * 1024 * 1024 + 5);
    const copies: Uint8Array[] = [];
    const buffers: number[] = [];
    const digest = await sha1OfBlob(new Blob([data]), {
      onBytes: (read) => {
        buffers.push(read.buffer.byteLength);
        copies.push(read.slice());
      },
    });
    expect(digest).toBe(nodeSha1(data));
    expect(Buffer.concat(copies).equals(Buffer.from(data))).toBe(true);
    // A byte stream (Blob's) is read into our 1 MiB buffer (handed on from read to read).
    expect(new Set(buffers)).toEqual(new Set([1024 * 1024]));
  });

  it('reads a stream of its own chunks (not a byte stream)', async () => {
    const data = bytes(SHA1_SLICE_SIZE * 3 + 11);
    const source = {
      size: data.length,
      slice: () => new Blob([]),
      stream: () =>
        new ReadableStream<Uint8Array>({
          start(target) {
            for (let at = 0; at < data.length; at += 100_000) {
              target.enqueue(data.slice(at, at + 100_000));
            }
            target.close();
          },
        }),
    };
    await expect(sha1OfBlob(source)).resolves.toBe(nodeSha1(data));
  });

  it('cancels the stream when aborted while reading', async () => {
    const controller = new AbortController();
    let cancelled = false;
    const stream = new ReadableStream<Uint8Array>({
      pull(target) {
        target.enqueue(bytes(1024));
        controller.abort();
      },
      cancel() {
        cancelled = true;
      },
    });
    const source = { size: 1_000_000, slice: () => new Blob([]), stream: () => stream };
    await expect(sha1OfBlob(source, { signal: controller.signal })).rejects.toThrow();
    expect(cancelled).toBe(true);
  });

  it('stops when aborted', async () => {
    const controller = new AbortController();
    controller.abort();
    await expect(sha1OfBlob(new Blob(['x']), { signal: controller.signal })).rejects.toThrow();
  });
});
