import { createHash } from 'node:crypto';
import fsp from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { continueSha1, finalSha1 } from './sha1-thread';

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

describe('continueSha1', () => {
  it('continues a saved state over file ranges and readers, as one SHA-1 of all bytes', async () => {
    const file = path.join(dir, 'data.bin');
    const content = Buffer.alloc(5 * 1024 * 1024 + 77);
    for (let i = 0; i + 4 <= content.length; i += 64)
      content.writeUInt32LE((i * 2654435761) >>> 0, i);
    await fsp.writeFile(file, content);
    const cut = 3 * 1024 * 1024 + 5;
    const first = await continueSha1(null, { file, offset: 0, length: cut });
    const tail = content.subarray(cut);
    const second = await continueSha1(first, {
      read: async function* () {
        yield Buffer.from(tail.subarray(0, 1000));
        yield Buffer.from(tail.subarray(1000));
      },
    });
    expect(await finalSha1(second)).toBe(sha1(content));
    // The saved state after the first part is the SHA-1 of that part alone.
    expect(await finalSha1(first)).toBe(sha1(content.subarray(0, cut)));
    expect(await finalSha1(null)).toBe(sha1(Buffer.alloc(0)));
  });

  it('fails when the bytes cannot be read', async () => {
    await expect(
      continueSha1(null, { file: path.join(dir, 'short.bin'), offset: 0, length: 10 }),
    ).rejects.toThrow();
    await fsp.writeFile(path.join(dir, 'short.bin'), Buffer.alloc(5));
    await expect(
      continueSha1(null, { file: path.join(dir, 'short.bin'), offset: 0, length: 10 }),
    ).rejects.toThrow('shorter');
    await expect(
      continueSha1(null, {
        read: async function* () {
          yield Buffer.alloc(3);
          throw new Error('The disk is gone');
        },
      }),
    ).rejects.toThrow('The disk is gone');
  });
});
