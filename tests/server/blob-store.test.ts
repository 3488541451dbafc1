import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { text } from 'node:stream/consumers';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  BlobNotFoundError,
  BlobSizeMismatchError,
  InvalidBlobKeyError,
  InvalidRangeError,
} from '../../server/src/storage/blob-store';
import { LocalBlobStore } from '../../server/src/storage/local-blob-store';

let root: string;
let store: LocalBlobStore;

beforeEach(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'waymark-blobs-'));
  store = new LocalBlobStore(root);
});

afterEach(() => {
  fs.rmSync(root, { recursive: true, force: true });
});

const LEAF = 10 * 1024 * 1024;
/** The blob key, computed independently: SHA-256 over the SHA-256 digests of 10 MiB leaves. */
function treeKey(data: string | Buffer): string {
  const bytes = typeof data === 'string' ? Buffer.from(data) : data;
  const root = createHash('sha256');
  for (let offset = 0; offset < bytes.length; offset += LEAF) {
    root.update(
      createHash('sha256')
        .update(bytes.subarray(offset, offset + LEAF))
        .digest(),
    );
  }
  return root.digest('hex');
}
const sha1 = (data: string | Buffer) => createHash('sha1').update(data).digest('hex');

function chunks(...parts: string[]): Readable {
  return Readable.from(parts.map((p) => Buffer.from(p)));
}

/** Every file under root except the tmp folder itself. */
function listFiles(dir = root): string[] {
  return fs
    .readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(root, path.join(entry.parentPath, entry.name)));
}

describe('LocalBlobStore', () => {
  it('stores content under its SHA-256 tree key and reports size and SHA-1', async () => {
    const info = await store.put(chunks('hello ', 'world'));
    expect(info).toEqual({ key: treeKey('hello world'), size: 11, sha1: sha1('hello world') });
    const key = info.key;
    expect(store.pathOf(key)).toBe(path.join(root, key.slice(0, 2), key.slice(2, 4), key));
    expect(fs.readFileSync(store.pathOf(key), 'utf8')).toBe('hello world');
    expect(await store.has(key)).toBe(true);
    expect(await store.stat(key)).toEqual({ size: 11 });
    expect(await text(await store.open(key))).toBe('hello world');
  });

  it('stores identical content once', async () => {
    const a = await store.put(chunks('same bytes'));
    const b = await store.put(chunks('same ', 'bytes'));
    expect(b).toEqual(a);
    expect(listFiles()).toEqual([path.relative(root, store.pathOf(a.key))]);
  });

  it('handles empty and large streams', async () => {
    const empty = await store.put(chunks());
    expect(empty).toEqual({ key: createHash('sha256').digest('hex'), size: 0, sha1: sha1('') });
    const big = Buffer.alloc(5 * 1024 * 1024 + 7, 'x');
    const info = await store.put(Readable.from([big.subarray(0, 1000), big.subarray(1000)]));
    expect(info).toEqual({ key: treeKey(big), size: big.length, sha1: sha1(big) });
    // Leaves are 10 MiB whatever the stream's piece sizes: two leaves and a short third.
    const leaves = Buffer.alloc(2 * LEAF + 3, 'y');
    const pieces = [
      leaves.subarray(0, LEAF - 1),
      leaves.subarray(LEAF - 1, 2 * LEAF + 1),
      leaves.subarray(2 * LEAF + 1),
    ];
    expect((await store.put(Readable.from(pieces))).key).toBe(treeKey(leaves));
    expect(treeKey(leaves)).not.toBe(createHash('sha256').update(leaves).digest('hex'));
  });

  it('adopts a finished file by renaming it, or drops it when the content exists', async () => {
    const staged = path.join(root, 'staged.part');
    fs.writeFileSync(staged, 'adopted bytes');
    const info = { key: treeKey('adopted bytes'), size: 13, sha1: sha1('adopted bytes') };
    expect(await store.adopt(staged, info)).toEqual(info);
    expect(fs.existsSync(staged)).toBe(false);
    expect(fs.readFileSync(store.pathOf(info.key), 'utf8')).toBe('adopted bytes');
    fs.writeFileSync(staged, 'adopted bytes');
    await store.adopt(staged, info);
    expect(fs.existsSync(staged)).toBe(false);
    expect(listFiles()).toEqual([path.relative(root, store.pathOf(info.key))]);
  });

  it('refuses to adopt a file of another size', async () => {
    const staged = path.join(root, 'staged.part');
    fs.writeFileSync(staged, 'short');
    await expect(
      store.adopt(staged, { key: treeKey('shorter'), size: 7, sha1: sha1('shorter') }),
    ).rejects.toBeInstanceOf(BlobSizeMismatchError);
    expect(await store.has(treeKey('shorter'))).toBe(false);
  });

  it('leaves no file behind when the stream fails', async () => {
    async function* failing() {
      yield Buffer.from('partial data');
      throw new Error('connection reset');
    }
    await expect(store.put(failing())).rejects.toThrow('connection reset');
    expect(listFiles()).toEqual([]);
  });

  it('leaves no file behind when aborted', async () => {
    const controller = new AbortController();
    async function* slow() {
      yield Buffer.from('first');
      controller.abort();
      yield Buffer.from('second');
    }
    await expect(store.put(slow(), { signal: controller.signal })).rejects.toThrow();
    expect(listFiles()).toEqual([]);
  });

  it('rejects a stream of another size than announced', async () => {
    await expect(store.put(chunks('12345'), { expectedSize: 4 })).rejects.toBeInstanceOf(
      BlobSizeMismatchError,
    );
    await expect(store.put(chunks('123'), { expectedSize: 4 })).rejects.toBeInstanceOf(
      BlobSizeMismatchError,
    );
    expect(listFiles()).toEqual([]);
    expect((await store.put(chunks('1234'), { expectedSize: 4 })).size).toBe(4);
  });

  it('reads byte ranges (inclusive, like HTTP)', async () => {
    const { key } = await store.put(chunks('0123456789'));
    expect(await text(await store.open(key, { start: 2, end: 5 }))).toBe('2345');
    expect(await text(await store.open(key, { start: 7 }))).toBe('789');
    expect(await text(await store.open(key, { start: 9, end: 9 }))).toBe('9');
    await expect(store.open(key, { start: 5, end: 10 })).rejects.toBeInstanceOf(InvalidRangeError);
    await expect(store.open(key, { start: 6, end: 5 })).rejects.toBeInstanceOf(InvalidRangeError);
    await expect(store.open(key, { start: -1 })).rejects.toBeInstanceOf(InvalidRangeError);
  });

  it('deletes blobs and reports missing ones', async () => {
    const { key } = await store.put(chunks('to delete'));
    expect(await store.delete(key)).toBe(true);
    expect(await store.delete(key)).toBe(false);
    expect(await store.has(key)).toBe(false);
    expect(await store.stat(key)).toBeNull();
    await expect(store.open(key)).rejects.toBeInstanceOf(BlobNotFoundError);
  });

  it('refuses keys that are not SHA-256 hex (no path traversal)', async () => {
    for (const key of ['../../etc/passwd', 'ABCDEF', 'a'.repeat(63), `${'a'.repeat(63)}/`]) {
      await expect(store.has(key)).rejects.toBeInstanceOf(InvalidBlobKeyError);
      await expect(store.open(key)).rejects.toBeInstanceOf(InvalidBlobKeyError);
    }
  });

  it('sweeps stale temp files only', async () => {
    const tmp = path.join(root, 'tmp');
    fs.writeFileSync(path.join(tmp, 'old.part'), 'x');
    fs.writeFileSync(path.join(tmp, 'new.part'), 'x');
    const old = new Date(Date.now() - 2 * 24 * 3600 * 1000);
    fs.utimesSync(path.join(tmp, 'old.part'), old, old);
    expect(await store.sweepTemp(24 * 3600 * 1000)).toBe(1);
    expect(fs.readdirSync(tmp)).toEqual(['new.part']);
  });

  it('handles concurrent puts of the same content', async () => {
    const results = await Promise.all(
      Array.from({ length: 8 }, () => store.put(chunks('concurrent ', 'content'))),
    );
    expect(new Set(results.map((r) => r.key)).size).toBe(1);
    expect(listFiles()).toHaveLength(1);
  });
});
