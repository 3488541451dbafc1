import { createHash } from 'node:crypto';
import fsp from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ChunkDigests, RunningSha1 } from './sha1-thread';

const sha1 = (...parts: Buffer[]) => {
  const hash = createHash('sha1');
  for (const part of parts) hash.update(part);
  return hash.digest('hex');
};

let dir: string;

beforeAll(async () => {
  dir = await fsp.mkdtemp(path.join(os.tmpdir(), 'waymark-sha1-'));
});

afterAll(async () => {
  await fsp.rm(dir, { recursive: true, force: true });
});

async function* pieces(...parts: (Buffer | { file: string; offset: number; length: number })[]) {
  yield* parts;
}

describe('RunningSha1', () => {
  it('continues over file ranges and bytes in memory, as one SHA-1 of all bytes', async () => {
    const file = path.join(dir, 'data.bin');
    const content = Buffer.alloc(5 * 1024 * 1024 + 77);
    for (let i = 0; i + 4 <= content.length; i += 64)
      content.writeUInt32LE((i * 2654435761) >>> 0, i);
    await fsp.writeFile(file, content);
    const cut = 3 * 1024 * 1024 + 5;
    const hash = new RunningSha1();
    expect(await hash.digest()).toBe(sha1(Buffer.alloc(0)));
    await hash.update(pieces({ file, offset: 0, length: cut }));
    // The SHA-1 so far is the SHA-1 of the first part alone, and the hash goes on.
    expect(await hash.digest()).toBe(sha1(content.subarray(0, cut)));
    const tail = content.subarray(cut);
    const shared = Buffer.from(new SharedArrayBuffer(tail.length - 1000));
    tail.copy(shared, 0, 1000);
    await hash.update(pieces(Buffer.from(tail.subarray(0, 1000)), shared));
    expect(await hash.digest()).toBe(sha1(content));
    hash.close();
    await expect(hash.digest()).rejects.toThrow('lost');
  });

  it('is broken when the bytes cannot be read', async () => {
    const missing = new RunningSha1();
    await expect(
      missing.update(pieces({ file: path.join(dir, 'short.bin'), offset: 0, length: 10 })),
    ).rejects.toThrow();
    expect(missing.broken).toBe(true);
    await expect(missing.digest()).rejects.toThrow();
    await fsp.writeFile(path.join(dir, 'short.bin'), Buffer.alloc(5));
    await expect(
      new RunningSha1().update(
        pieces({ file: path.join(dir, 'short.bin'), offset: 0, length: 10 }),
      ),
    ).rejects.toThrow('shorter');
    const failing = new RunningSha1();
    await expect(
      failing.update(
        (async function* () {
          yield Buffer.alloc(3);
          throw new Error('The disk is gone');
        })(),
      ),
    ).rejects.toThrow('The disk is gone');
    expect(failing.broken).toBe(true);
  });
});

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

/** Bytes that differ from place to place (a shift of a range changes its digests). */
function pattern(length: number, seed: number): Buffer {
  const bytes = Buffer.alloc(length);
  for (let i = 0; i + 4 <= length; i += 4) bytes.writeUInt32LE(((i + seed) * 2654435761) >>> 0, i);
  return bytes;
}

describe('ChunkDigests', () => {
  it('hashes ranges of shared memory in the thread into the SHA-1 and the SHA-256 of all of them', async () => {
    const content = pattern(3 * 1024 * 1024 + 13, 1);
    const shared = Buffer.from(new SharedArrayBuffer(content.length));
    content.copy(shared);
    const digests = new ChunkDigests(true);
    digests.add(shared.subarray(0, 1024 * 1024));
    digests.add(shared.subarray(1024 * 1024, 2 * 1024 * 1024 + 5));
    digests.add(shared.subarray(2 * 1024 * 1024 + 5));
    expect(await digests.digest()).toEqual({ sha1: sha1(content), sha256: sha256(content) });
    await expect(digests.digest()).rejects.toThrow('already taken');
    expect(() => digests.add(shared)).toThrow('already taken');
  });

  it('leaves out the SHA-256 when no leaf is asked for, and hashes small and empty chunks too', async () => {
    const big = pattern(200 * 1024, 2);
    const noLeaf = new ChunkDigests(false);
    noLeaf.add(big.subarray(0, 100 * 1024));
    noLeaf.add(big.subarray(100 * 1024));
    expect(await noLeaf.digest()).toEqual({ sha1: sha1(big), sha256: null });
    const small = pattern(1000, 3);
    const few = new ChunkDigests(true);
    few.add(small);
    expect(await few.digest()).toEqual({ sha1: sha1(small), sha256: sha256(small) });
    expect(await new ChunkDigests(true).digest()).toEqual({
      sha1: sha1(Buffer.alloc(0)),
      sha256: sha256(Buffer.alloc(0)),
    });
  });

  it('keeps chunks apart when several are hashed at once, beside a running SHA-1', async () => {
    const contents = [1, 2, 3, 4].map((seed) => pattern(1024 * 1024 + seed * 777, seed + 10));
    const chunks = contents.map(() => new ChunkDigests(true));
    const running = new RunningSha1();
    const update = running.update(pieces(...contents));
    for (let at = 0; at < contents[3]!.length; at += 256 * 1024) {
      contents.forEach((content, i) => {
        if (at < content.length) chunks[i]!.add(content.subarray(at, at + 256 * 1024));
      });
    }
    const sums = await Promise.all(chunks.map((c) => c.digest()));
    expect(sums).toEqual(contents.map((c) => ({ sha1: sha1(c), sha256: sha256(c) })));
    await update;
    expect(await running.digest()).toBe(sha1(...contents));
    running.close();
  });
});
