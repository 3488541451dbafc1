/**
 * The blob store and upload staging contracts, run against both implementations: the local
 * folder and an S3-compatible bucket (s3rver, started by the test).
 */
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import { ListObjectsV2Command, PutObjectCommand } from '@aws-sdk/client-s3';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../server/src/config';
import { startServer } from '../../server/src/main';
import { blobKeyFromLeaves } from '../../server/src/storage/blob-key';
import {
  BlobNotFoundError,
  BlobSizeMismatchError,
  InvalidBlobKeyError,
  InvalidRangeError,
  type BlobStore,
} from '../../server/src/storage/blob-store';
import { LocalBlobStore } from '../../server/src/storage/local-blob-store';
import { openBlobStore } from '../../server/src/storage/open-blob-store';
import { S3BlobStore } from '../../server/src/storage/s3-blob-store';
import { S3UploadStaging } from '../../server/src/storage/s3-upload-staging';
import { stagingOf } from '../../server/src/storage/staging';
import {
  ChunkTooBigError,
  CHUNK_SIZE,
  LocalUploadStaging,
  type UploadStaging,
} from '../../server/src/storage/upload-staging';
import { freePort } from './support/processes';
import { startS3, type TestS3 } from './support/s3-server';
import { createTestDataDir } from './support/test-db';

let s3: TestS3;
let dataDir: string;

beforeAll(async () => {
  s3 = await startS3();
});

afterAll(async () => {
  await s3?.close();
});

beforeEach(() => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'waymark-store-'));
});

afterEach(() => {
  fs.rmSync(dataDir, { recursive: true, force: true });
});

const sha1 = (data: Buffer) => createHash('sha1').update(data).digest('hex');
const sha256 = (data: Buffer) => createHash('sha256').update(data).digest();
function treeKey(data: Buffer): string {
  const leaves: Buffer[] = [];
  for (let offset = 0; offset < data.length; offset += CHUNK_SIZE) {
    leaves.push(sha256(data.subarray(offset, offset + CHUNK_SIZE)));
  }
  return blobKeyFromLeaves(leaves);
}

const DAY = 24 * 3600 * 1000;

/** Random bytes (incompressible, so every part really moves). */
const bytesOf = (size: number) => randomBytes(size);

/** Opens a store through the configuration, as the server does. */
async function openStore(kind: 'local' | 's3'): Promise<BlobStore> {
  const env: Record<string, string> = { DATA_DIR: dataDir, LOG_LEVEL: 'silent' };
  if (kind === 's3') Object.assign(env, s3.env(await s3.createBucket()));
  return openBlobStore(loadConfig(env));
}

describe.each(['local', 's3'] as const)('the %s blob store', (kind) => {
  let store: BlobStore;
  beforeEach(async () => {
    store = await openStore(kind);
    expect(store).toBeInstanceOf(kind === 'local' ? LocalBlobStore : S3BlobStore);
  });

  it('stores content under its SHA-256 tree key, once, and reads it back', async () => {
    const data = Buffer.from('hello world');
    const info = await store.put(Readable.from([data.subarray(0, 5), data.subarray(5)]));
    expect(info).toEqual({ key: treeKey(data), size: 11, sha1: sha1(data) });
    expect(await store.put(Readable.from([data]))).toEqual(info);
    expect(await store.has(info.key)).toBe(true);
    expect(await store.stat(info.key)).toEqual({ size: 11 });
    expect((await buffer(await store.open(info.key))).toString()).toBe('hello world');
    expect((await store.read(info.key)).toString()).toBe('hello world');
  });

  it('stores empty content and content of several parts', async () => {
    const empty = await store.put(Readable.from([]));
    expect(empty).toEqual({ key: treeKey(Buffer.alloc(0)), size: 0, sha1: sha1(Buffer.alloc(0)) });
    expect((await buffer(await store.open(empty.key))).length).toBe(0);
    const big = bytesOf(2 * CHUNK_SIZE + 12345);
    const pieces = [
      big.subarray(0, 777),
      big.subarray(777, CHUNK_SIZE + 3),
      big.subarray(CHUNK_SIZE + 3),
    ];
    const info = await store.put(Readable.from(pieces));
    expect(info).toEqual({ key: treeKey(big), size: big.length, sha1: sha1(big) });
    expect((await buffer(await store.open(info.key))).equals(big)).toBe(true);
    expect((await store.read(info.key)).equals(big)).toBe(true);
    expect((await store.read(empty.key)).length).toBe(0);
  });

  it('reads byte ranges and refuses unsatisfiable ones', async () => {
    const data = bytesOf(CHUNK_SIZE + 100);
    const { key } = await store.put(Readable.from([data]));
    const range = await buffer(
      await store.open(key, { start: CHUNK_SIZE - 10, end: CHUNK_SIZE + 9 }),
    );
    expect(range.equals(data.subarray(CHUNK_SIZE - 10, CHUNK_SIZE + 10))).toBe(true);
    const tail = await buffer(await store.open(key, { start: data.length - 5 }));
    expect(tail.equals(data.subarray(data.length - 5))).toBe(true);
    await expect(store.open(key, { start: data.length })).rejects.toThrow(InvalidRangeError);
    await expect(store.open(key, { start: 10, end: 5 })).rejects.toThrow(InvalidRangeError);
  });

  it('rejects a stream of another length than expected and keeps nothing of it', async () => {
    const data = Buffer.from('twelve bytes');
    await expect(store.put(Readable.from([data]), { expectedSize: 5 })).rejects.toThrow(
      BlobSizeMismatchError,
    );
    await expect(store.put(Readable.from([data]), { expectedSize: 50 })).rejects.toThrow(
      BlobSizeMismatchError,
    );
    expect(await store.has(treeKey(data))).toBe(false);
  });

  it('answers missing blobs and invalid keys clearly, and deletes', async () => {
    const missing = 'a'.repeat(64);
    expect(await store.has(missing)).toBe(false);
    expect(await store.stat(missing)).toBeNull();
    await expect(store.open(missing)).rejects.toThrow(BlobNotFoundError);
    await expect(store.open(missing, { start: 0 })).rejects.toThrow(BlobNotFoundError);
    await expect(store.read(missing)).rejects.toThrow(BlobNotFoundError);
    await expect(store.read('../../etc/passwd')).rejects.toThrow(InvalidBlobKeyError);
    expect(await store.delete(missing)).toBe(false);
    await expect(store.has('../../etc/passwd')).rejects.toThrow(InvalidBlobKeyError);
    const { key } = await store.put(Readable.from([Buffer.from('gone soon')]));
    expect(await store.delete(key)).toBe(true);
    expect(await store.has(key)).toBe(false);
  });

  it('adopts a complete local file', async () => {
    const data = Buffer.from('adopted bytes');
    const file = path.join(dataDir, 'adopt.part');
    fs.writeFileSync(file, data);
    const info = { key: treeKey(data), size: data.length, sha1: sha1(data) };
    expect(await store.adopt(file, info)).toEqual(info);
    expect((await buffer(await store.open(info.key))).equals(data)).toBe(true);
  });

  it('sweeps temp leftovers of a crash once they are old, and nothing in use', async () => {
    const { key } = await store.put(Readable.from([Buffer.from('kept')]));
    if (store instanceof S3BlobStore) {
      await s3.client.send(
        new PutObjectCommand({ Bucket: store.bucket, Key: 'tmp/123-crashed', Body: 'partial' }),
      );
    } else {
      fs.writeFileSync(path.join((store as LocalBlobStore).root, 'tmp', '123-crashed.part'), 'x');
    }
    expect(await store.sweepTemp(DAY)).toBe(0);
    expect(await store.sweepTemp(DAY, Date.now() + 2 * DAY)).toBe(1);
    expect(await store.sweepTemp(DAY, Date.now() + 2 * DAY)).toBe(0);
    expect(await store.has(key)).toBe(true);
  });
});

describe.each(['local', 's3'] as const)('upload staging beside the %s store', (kind) => {
  let store: BlobStore;
  let staging: UploadStaging;
  beforeEach(async () => {
    store = await openStore(kind);
    // Each store brings its staging: chosen once, by the store the configuration made.
    staging = stagingOf(store);
    expect(staging).toBeInstanceOf(kind === 'local' ? LocalUploadStaging : S3UploadStaging);
  });

  const body = (data: Buffer) => Readable.from([data.subarray(0, 1000), data.subarray(1000)]);
  const write = (tx: string, file: number, index: number, data: Buffer, last: boolean) =>
    staging.writeChunk(tx, file, index * CHUNK_SIZE, body(data), {
      limit: CHUNK_SIZE,
      truncate: last,
    });
  async function read(tx: string, file: number, offset: number, length: number) {
    const parts: Buffer[] = [];
    for await (const part of staging.readRange(tx, file, offset, length))
      parts.push(Buffer.from(part));
    return Buffer.concat(parts);
  }

  it('stages chunks in any order, reads them back, and places the file under its key', async () => {
    const tx = randomUUID();
    const data = bytesOf(2 * CHUNK_SIZE + 4321);
    const chunk = (i: number) => data.subarray(i * CHUNK_SIZE, (i + 1) * CHUNK_SIZE);
    expect(await write(tx, 1, 2, chunk(2), true)).toEqual({
      size: 4321,
      sha1: sha1(chunk(2)),
      sha256: sha256(chunk(2)).toString('hex'),
    });
    await write(tx, 1, 0, chunk(0), false);
    await write(tx, 1, 0, chunk(0), false); // the same chunk again
    await write(tx, 1, 1, chunk(1), false);
    expect(
      (await read(tx, 1, CHUNK_SIZE - 3, 10)).equals(data.subarray(CHUNK_SIZE - 3, CHUNK_SIZE + 7)),
    ).toBe(true);
    expect((await read(tx, 1, 2 * CHUNK_SIZE, 4321)).equals(chunk(2))).toBe(true);
    expect(await staging.list()).toEqual([tx]);

    const info = { key: treeKey(data), size: data.length, sha1: sha1(data) };
    expect(await staging.place(tx, 1, info)).toEqual(info);
    expect((await buffer(await store.open(info.key))).equals(data)).toBe(true);
    // Placed again (a finish retried after a later failure): found in the store.
    expect(await staging.place(tx, 1, info)).toEqual(info);
    await staging.remove(tx);
    expect(await staging.list()).toEqual([]);
    expect(await staging.place(tx, 1, info)).toEqual(info);
    expect((await buffer(await store.open(info.key))).equals(data)).toBe(true);
  });

  it('places one-chunk and empty files, and answers null when the bytes are gone', async () => {
    const tx = randomUUID();
    const small = Buffer.from('a small file');
    await write(tx, 0, 0, small, true);
    const info = { key: treeKey(small), size: small.length, sha1: sha1(small) };
    expect(await staging.place(tx, 0, info)).toEqual(info);
    expect((await buffer(await store.open(info.key))).equals(small)).toBe(true);
    const empty = Buffer.alloc(0);
    const emptyInfo = { key: treeKey(empty), size: 0, sha1: sha1(empty) };
    expect(await staging.place(tx, 3, emptyInfo)).toEqual(emptyInfo);

    // Nothing staged for file 5 and nothing stored under its key.
    const lostData = bytesOf(CHUNK_SIZE + 10);
    const lost = { key: treeKey(lostData), size: lostData.length, sha1: sha1(lostData) };
    expect(await staging.place(tx, 5, lost)).toBeNull();
    expect(await store.has(lost.key)).toBe(false);
    await staging.remove(tx);
    expect(await staging.place(tx, 0, info)).toEqual(info);
  });

  it('refuses chunks over the limit', async () => {
    const tx = randomUUID();
    await expect(
      staging.writeChunk(tx, 0, 0, Readable.from([Buffer.alloc(11)]), {
        limit: 10,
        truncate: true,
      }),
    ).rejects.toThrow(ChunkTooBigError);
  });

  if (kind === 's3') {
    it('keeps staged chunks and blobs apart in the bucket, and leaves no unfinished upload', async () => {
      const s3store = store as S3BlobStore;
      const tx = randomUUID();
      const data = bytesOf(CHUNK_SIZE + 1);
      await write(tx, 0, 0, data.subarray(0, CHUNK_SIZE), false);
      await write(tx, 0, 1, data.subarray(CHUNK_SIZE), true);
      const info = { key: treeKey(data), size: data.length, sha1: sha1(data) };
      await staging.place(tx, 0, info);
      const keys = async () =>
        (await s3.client.send(new ListObjectsV2Command({ Bucket: s3store.bucket }))).Contents?.map(
          (c) => c.Key,
        ) ?? [];
      expect((await keys()).sort()).toEqual(
        [s3store.objectKey(info.key), `staging/${tx}/0/0`, `staging/${tx}/0/1`].sort(),
      );
      await staging.remove(tx);
      expect(await keys()).toEqual([s3store.objectKey(info.key)]);
    });
  }
});

describe('starting with S3_BUCKET', () => {
  it('stops with a clear message when the bucket does not exist', async () => {
    const data = await createTestDataDir();
    try {
      const env = {
        ...data.env,
        ...s3.env('no-such-bucket'),
        PORT: String(await freePort()),
        LOG_LEVEL: 'silent',
      };
      await expect(
        startServer(env, {
          handleSignals: false,
          exitOnError: false,
          print: () => {},
          distDir: null,
        }),
      ).rejects.toThrow(
        'The S3 bucket "no-such-bucket" (S3_BUCKET) cannot be used: it does not exist',
      );
    } finally {
      await data.cleanup();
    }
  });
});
