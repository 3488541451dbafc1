import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ApiError } from '@/api';
import { openDatabase, type WaymarkDatabase } from '@/db';
import {
  createOfflineCache,
  isNotSavedOffline,
  stableKey,
  type OfflineCache,
} from './offlineCache';
import { createOfflineStatus, type OfflineStatus } from './offlineStatus';
import { NOT_SAVED_OFFLINE } from './texts';

const unreachable = () =>
  new ApiError({ status: 0, message: 'Failed to fetch projects', isNetworkError: true });

let db: WaymarkDatabase;
let n = 0;
let owner: string | null;
let now: number;
let status: OfflineStatus;
let cache: OfflineCache;

beforeEach(async () => {
  n += 1;
  db = openDatabase(`offline-cache-test-${n}`);
  await db.open();
  owner = 'public';
  now = 1_000;
  status = createOfflineStatus();
  cache = createOfflineCache({
    table: () => db.offlineEntries,
    owner: () => owner,
    status,
    now: () => now,
  });
});

afterEach(async () => {
  await db.delete();
});

describe('withOfflineCopy', () => {
  it('saves an answer that names its owner (the profile right after sign-in) as that owner', async () => {
    owner = null;
    const profile = await cache.withOfflineCopy(
      'profile',
      async () => {
        owner = 'user:7';
        return { id: 7 };
      },
      { ownerOf: (answer) => `user:${answer.id}` },
    );
    expect(profile).toEqual({ id: 7 });
    expect((await db.offlineEntries.get(['user:7', 'profile']))?.data).toEqual({ id: 7 });
    // Without it, an owner unknown when the call started saves nothing.
    owner = null;
    await cache.withOfflineCopy('other', async () => {
      owner = 'user:7';
      return 1;
    });
    expect(await db.offlineEntries.get(['user:7', 'other'])).toBeUndefined();
  });

  it('saves each answer under its owner and answers with it when the server is unreachable', async () => {
    expect(await cache.withOfflineCopy('project:a', async () => ({ name: 'a', v: 1 }))).toEqual({
      name: 'a',
      v: 1,
    });
    expect(await db.offlineEntries.get(['public', 'project:a'])).toEqual({
      owner: 'public',
      key: 'project:a',
      data: { name: 'a', v: 1 },
      savedAt: 1_000,
    });
    expect(status.savedAt()).toBeNull();

    now = 5_000;
    const offline = await cache.withOfflineCopy('project:a', () => Promise.reject(unreachable()));
    expect(offline).toEqual({ name: 'a', v: 1 });
    expect(status.savedAt()).toBe(1_000);

    // Answered by the server again: fresh, the indicator forgets it.
    await cache.withOfflineCopy('project:a', async () => ({ name: 'a', v: 2 }));
    expect(status.savedAt()).toBeNull();
    expect((await db.offlineEntries.get(['public', 'project:a']))?.savedAt).toBe(5_000);
  });

  it('says the page is not saved when there is no copy', async () => {
    const failure = cache.withOfflineCopy('project:b', () => Promise.reject(unreachable()));
    await expect(failure).rejects.toThrow(NOT_SAVED_OFFLINE);
    const error = await failure.catch((e: unknown) => e);
    expect(isNotSavedOffline(error)).toBe(true);
    expect(status.savedAt()).toBeNull();
  });

  it('passes HTTP errors on without using a copy', async () => {
    await cache.withOfflineCopy('project:a', async () => 'saved');
    const forbidden = new ApiError({ status: 403, message: 'Forbidden' });
    await expect(cache.withOfflineCopy('project:a', () => Promise.reject(forbidden))).rejects.toBe(
      forbidden,
    );
    const aborted = new DOMException('aborted', 'AbortError');
    await expect(cache.withOfflineCopy('project:a', () => Promise.reject(aborted))).rejects.toBe(
      aborted,
    );
  });

  it("reads a user's own copy first, then a public one, never another user's", async () => {
    await db.offlineEntries.bulkPut([
      { owner: 'public', key: 'k', data: 'public copy', savedAt: 1 },
      { owner: 'user:2', key: 'k', data: "user 2's copy", savedAt: 2 },
      { owner: 'user:2', key: 'only2', data: 'private', savedAt: 2 },
    ]);
    const fail = () => Promise.reject(unreachable());
    owner = 'user:1';
    expect(await cache.withOfflineCopy('k', fail)).toBe('public copy');
    await expect(cache.withOfflineCopy('only2', fail)).rejects.toThrow(NOT_SAVED_OFFLINE);
    owner = 'user:2';
    expect(await cache.withOfflineCopy('k', fail)).toBe("user 2's copy");
    owner = 'public';
    await expect(cache.withOfflineCopy('only2', fail)).rejects.toThrow(NOT_SAVED_OFFLINE);
  });

  it('saves nothing while the owner is unknown or changed during the call', async () => {
    owner = null;
    await cache.withOfflineCopy('k', async () => 'answer');
    owner = 'public';
    await cache.withOfflineCopy('k2', async () => {
      owner = 'user:3';
      return 'answer for user 3';
    });
    expect(await db.offlineEntries.count()).toBe(0);
  });
});

describe('save', () => {
  it('saves through the given function when there is one', async () => {
    const saved: unknown[] = [];
    const custom = createOfflineCache({
      table: () => db.offlineEntries,
      owner: () => 'user:4',
      status,
      now: () => 7,
      save: async (entry) => {
        saved.push(entry);
      },
    });
    expect(await custom.withOfflineCopy('project:b', async () => 'b')).toBe('b');
    expect(saved).toEqual([{ owner: 'user:4', key: 'project:b', data: 'b', savedAt: 7 }]);
    expect(await db.offlineEntries.count()).toBe(0);
  });
});

describe('deletePrivate', () => {
  it("deletes every signed-in user's copies and keeps the public ones", async () => {
    await db.offlineEntries.bulkPut([
      { owner: 'public', key: 'a', data: 1, savedAt: 1 },
      { owner: 'user:1', key: 'a', data: 2, savedAt: 1 },
      { owner: 'user:12', key: 'b', data: 3, savedAt: 1 },
    ]);
    expect(await cache.deletePrivate()).toBe(2);
    expect(await db.offlineEntries.toArray()).toEqual([
      { owner: 'public', key: 'a', data: 1, savedAt: 1 },
    ]);
  });
});

describe('stableKey', () => {
  it('does not depend on key order or undefined values', () => {
    expect(stableKey('projects', { page: 1, name: 'x', order: undefined })).toBe(
      stableKey('projects', { name: 'x', page: 1 }),
    );
    expect(stableKey('projects', { page: 1 })).not.toBe(stableKey('projects', { page: 2 }));
    expect(stableKey('project', 'a', 'b/c')).not.toBe(stableKey('project', 'a/b', 'c'));
  });
});
