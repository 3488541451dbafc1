import { createHash } from 'node:crypto';
import fsp from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RunningSha1 } from './sha1-thread';

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
