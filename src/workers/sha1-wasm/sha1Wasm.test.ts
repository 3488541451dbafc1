// @vitest-environment node
import { createHash } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import asc from 'assemblyscript/asc';
import { describe, expect, it } from 'vitest';
import { createSha1Wasm } from './sha1Wasm';

const here = new URL('.', import.meta.url).pathname;

function bytes(length: number, seed = 12345): Uint8Array {
  const data = new Uint8Array(length);
  let x = seed;
  for (let i = 0; i < length; i++) {
    x = (x * 1103515245 + 12345) >>> 0;
    data[i] = x >>> 24;
  }
  return data;
}

const nodeSha1 = (data: Uint8Array) => createHash('sha1').update(data).digest('hex');

describe('the WebAssembly SHA-1', () => {
  it('matches node:crypto around the block and padding boundaries', async () => {
    const hasher = await createSha1Wasm();
    for (const size of [0, 1, 3, 55, 56, 63, 64, 65, 119, 120, 127, 128, 129, 1000]) {
      const data = bytes(size, size + 1);
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
    one.update(bytes(100, 1));
    two.update(bytes(200, 2));
    one.update(bytes(100, 3));
    expect(one.digest()).toBe(nodeSha1(new Uint8Array([...bytes(100, 1), ...bytes(100, 3)])));
    expect(two.digest()).toBe(nodeSha1(bytes(200, 2)));
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
