import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase, type WaymarkDatabase } from '@/db';
import { previewCacheName } from '@/sw/offline';
import { createOfflineCache } from './offlineCache';
import { createOfflineStatus } from './offlineStatus';
import { deletePrivateData } from './privateData';

/** An in-memory CacheStorage: names only (what deletePrivateData touches). */
function cacheStorage(names: string[]): CacheStorage {
  const kept = new Set(names);
  return {
    keys: async () => [...kept],
    delete: async (name: string) => kept.delete(name),
    has: async (name: string) => kept.has(name),
  } as unknown as CacheStorage;
}

let db: WaymarkDatabase;
let n = 0;

beforeEach(async () => {
  n += 1;
  db = openDatabase(`private-data-test-${n}`);
  await db.open();
});

afterEach(async () => {
  await db.delete();
});

describe('deletePrivateData', () => {
  it("removes users' copies, the upload queue and users' preview caches; public data stays", async () => {
    await db.offlineEntries.bulkPut([
      { owner: 'public', key: 'project:open', data: {}, savedAt: 1 },
      { owner: 'user:4', key: 'project:secret', data: {}, savedAt: 1 },
    ]);
    await db.uploadBlobs.put({ uploadId: 'u', path: 'a.gpkg', blob: new Blob(['x']) });
    await db.uploadChunks.put({ uploadId: 'u', chunkId: 'c', transaction: 't', size: 1, at: 1 });
    const cache = createOfflineCache({
      table: () => db.offlineEntries,
      owner: () => null,
      status: createOfflineStatus(),
    });
    const storage = cacheStorage([
      previewCacheName('public'),
      previewCacheName('user:4'),
      'workbox-precache-v2-http://localhost/',
    ]);

    await deletePrivateData({
      deleteOfflineCopies: () => cache.deletePrivate(),
      uploadTables: () => [db.uploads, db.uploadBlobs, db.uploadChunks],
      caches: storage,
    });

    expect((await db.offlineEntries.toArray()).map((entry) => entry.owner)).toEqual(['public']);
    expect(await db.uploadBlobs.count()).toBe(0);
    expect(await db.uploadChunks.count()).toBe(0);
    expect(await storage.keys()).toEqual([
      previewCacheName('public'),
      'workbox-precache-v2-http://localhost/',
    ]);
  });
});
