// @vitest-environment node
import { createHash, randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import asc from 'assemblyscript/asc';
import { describe, expect, it } from 'vitest';
import { createSha1Wasm } from './sha1Wasm';

const here = new URL('.', import.meta.url).pathname;

/** Random bytes (a fresh sample each run: the digests are checked against node:crypto's). */
const bytes = (length: number): Uint8Array => randomBytes(length);

const nodeSha1 = (data: Uint8Array) => createHash('sha1').update(data).digest('hex');

describe('the WebAssembly SHA-1', () => {
  it('matches node:crypto around the block and padding boundaries', async () => {
    const hasher = await createSha1Wasm();
    for (const size of [0, 1, 3, 55, 56, 63, 64, 65, 119, 120, 127, 128, 129, 1000]) {
      const data = bytes(size);
      hasher.init();
      hasher.update(data);
      expect(hasher.digest(), `${size} bytes`).toBe(nodeSha1(data));
    }
  });

  it('matches node:crypto for several MiB in odd-sized updates, across its input size', async () => {
    const data = bytes(5 * 1024 * 1024 + 13);
    const hasher = await createSha1Wasm();
    for (const pieces of [[1, 63, 65, 7], [65_537, 1_048_577, 3_000_001], [64 * 1024]]) {
      hasher.init();
      let at = 0;
      for (let i = 0; at < data.length; i++) {
        const size = pieces[i % pieces.length]!;
        hasher.update(data.subarray(at, at + size));
        at += size;
      }
      expect(hasher.digest(), `updates of ${pieces.join(', ')} bytes`).toBe(nodeSha1(data));
    }
  });

  it('gives each hasher its own state', async () => {
    const [one, two] = await Promise.all([createSha1Wasm(), createSha1Wasm()]);
    const [first, second, third] = [bytes(100), bytes(200), bytes(100)];
    one.update(first);
    two.update(second);
    one.update(third);
    expect(one.digest()).toBe(nodeSha1(Buffer.concat([first, third])));
    expect(two.digest()).toBe(nodeSha1(second));
  });

  it('is the module its source builds to (npm run build:sha1-wasm)', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'sha1-wasm-'));
    try {
      const out = join(dir, 'sha1.wasm');
      const { error, stderr } = await asc.main([
        '--config',
        join(here, 'asconfig.json'),
        '--outFile',
        out,
      ]);
      expect(error, stderr.toString()).toBeFalsy();
      const built = await readFile(out);
      const committed = await readFile(join(here, 'sha1.wasm'));
      expect(built.equals(committed)).toBe(true);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }, 120_000);
});
