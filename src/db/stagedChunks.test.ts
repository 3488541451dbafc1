import { CHUNK_SIZE } from '@contract/protocol';
import type * as Protocol from '@contract/protocol';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { sha1OfBlob } from '@/workers/sha1';
import { openDatabase, type WaymarkDatabase } from './db';
import { ChunkStager, deleteStagedFile, stagedFileBlob } from './stagedChunks';

// 64 KiB chunks instead of the protocol's 10 MiB: what is tested is the cutting, not the size
// (and one hashing read now spans several chunks).
vi.mock('@contract/protocol', async (importOriginal) => ({
  ...(await importOriginal<typeof Protocol>()),
  CHUNK_SIZE: 64 * 1024,
}));

let db: WaymarkDatabase;
beforeEach(async () => {
  db = openDatabase(`staged-${Math.random()}`);
  await db.open();
});
afterEach(async () => {
  await db.delete();
});

function data(length: number): Uint8Array<ArrayBuffer> {
  const bytes = new Uint8Array(length);
  for (let i = 0; i < length; i++) bytes[i] = (i * 7 + 3) % 251;
  return bytes;
}

/** The hasher's source: a Blob read in slices (no stream in this environment). */
const source = (bytes: Uint8Array<ArrayBuffer>) => ({
  size: bytes.length,
  slice: (start: number, end: number) => ({
    arrayBuffer: async () => bytes.slice(start, end).buffer,
  }),
});

describe('staged copies of chosen files', () => {
  it('cuts the bytes one hashing pass reads into upload chunks', async () => {
    const bytes = data(2 * CHUNK_SIZE + 1234);
    const stager = new ChunkStager(db, 'f1', bytes.length);
    const digest = await sha1OfBlob(source(bytes), { onBytes: (read) => stager.push(read) });
    expect(await stager.finish()).toBe(3);
    expect(digest).toBe(await sha1OfBlob(source(bytes)));
    const rows = await db.stagedChunks.where('fileId').equals('f1').sortBy('index');
    // (The bytes themselves are checked end to end in worker/queue.test.ts.)
    expect(rows.map((row) => row.index)).toEqual([0, 1, 2]);
    expect(await stagedFileBlob(db, 'f1')).toBeInstanceOf(Blob);
    await deleteStagedFile(db, 'f1');
    expect(await stagedFileBlob(db, 'f1')).toBeUndefined();
  });

  it('fails when fewer bytes came than the file has, and abort removes what was written', async () => {
    const stager = new ChunkStager(db, 'f2', CHUNK_SIZE + 10);
    await stager.push(data(CHUNK_SIZE));
    await expect(stager.finish()).rejects.toThrow('The file changed while it was read');
    await stager.abort();
    expect(await db.stagedChunks.count()).toBe(0);
  });
});
