import { createHash } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile, mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { FileCache } from './cache';

const bytes = Buffer.from('a version rebuilt in memory, '.repeat(1000));
const sha1 = createHash('sha1').update(bytes).digest('hex');

let root: string;
let warn: ReturnType<typeof vi.fn<(error: unknown, what: string) => void>>;
let cache: FileCache;

beforeEach(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'waymark-cache-'));
  warn = vi.fn<(error: unknown, what: string) => void>();
  cache = new FileCache(root, 1024 * 1024, warn);
  await cache.open();
});

afterEach(async () => {
  await cache.close();
  await rm(root, { recursive: true, force: true });
});

const made = () => Promise.resolve(Buffer.from(bytes));
const builder = () =>
  vi.fn(async (work: string) => {
    await writeFile(work, bytes);
  });

describe('bytes made in memory', () => {
  it('answer concurrent readers from one making, and their file is cached after', async () => {
    const make = vi.fn(made);
    const build = builder();
    const [first, second] = await Promise.all([
      cache.obtainBytes(sha1, bytes.length, make, build),
      cache.obtainBytes(sha1, bytes.length, make, build),
    ]);
    expect(make).toHaveBeenCalledTimes(1);
    expect(first).toBeInstanceOf(Uint8Array);
    expect(second).toBe(first);
    await cache.settled();
    const held = await cache.obtain(sha1, bytes.length, build);
    expect(build).not.toHaveBeenCalled();
    expect(await readFile(held.path)).toEqual(bytes);
    held.release();
    expect(warn).not.toHaveBeenCalled();
  });

  it('tell the log when their file cannot be written, and the next reader builds it', async () => {
    // The cache's folder gone from under it: the write after the answer fails.
    await rm(cache.dir, { recursive: true, force: true });
    const answered = await cache.obtainBytes(sha1, bytes.length, made, builder());
    expect(Buffer.from(answered as Uint8Array)).toEqual(bytes);
    await cache.settled();
    expect(warn).toHaveBeenCalledWith(
      expect.objectContaining({ code: 'ENOENT' }),
      'A version rebuilt in memory could not be written into the file cache',
    );
    expect(cache.has(sha1, bytes.length)).toBe(false);
    await mkdir(cache.dir, { recursive: true });
    const build = builder();
    const held = await cache.obtain(sha1, bytes.length, build);
    expect(build).toHaveBeenCalledTimes(1);
    expect(await readFile(held.path)).toEqual(bytes);
    held.release();
  });

  it('that fail to be made are told to the log and built as a file instead', async () => {
    const failure = new Error('out of shared memory');
    const build = builder();
    const found = await cache.obtainBytes(sha1, bytes.length, () => Promise.reject(failure), build);
    expect(found).not.toBeInstanceOf(Uint8Array);
    expect(build).toHaveBeenCalledTimes(1);
    expect(warn).toHaveBeenCalledWith(
      failure,
      'A version could not be rebuilt in memory; it is rebuilt as a file',
    );
    if (!(found instanceof Uint8Array)) found.release();
  });
});
