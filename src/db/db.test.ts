// @vitest-environment node
import { Dexie } from 'dexie';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase, DATABASE_NAME, type WaymarkDatabase } from './db';
import { closeElement, isElementClosed, reopenElement } from './closedElements';
import { forgetWorkspace, getLastWorkspace, rememberWorkspace } from './lastWorkspace';

let db: WaymarkDatabase;
let n = 0;

beforeEach(async () => {
  n += 1;
  db = openDatabase(`waymark-test-${n}`);
  await db.open();
});

afterEach(async () => {
  await db.delete();
});

describe('database', () => {
  it('is called waymark and has the version 1 tables, the upload queue and offline copies', async () => {
    expect(DATABASE_NAME).toBe('waymark');
    expect(db.verno).toBe(5);
    expect(db.tables.map((t) => t.name).sort()).toEqual([
      'closedElements',
      'editBatches',
      'editPhotos',
      'featureEdits',
      'lastWorkspace',
      'offlineEntries',
      'stagedChunks',
      'uploadBlobs',
      'uploadChunks',
      'uploads',
    ]);
  });
});

describe('version 2 upgrade', () => {
  it('keeps the version 1 data and adds the upload tables', async () => {
    const name = `waymark-upgrade-${n}`;
    const v1 = new Dexie(name);
    v1.version(1).stores({ closedElements: 'id', lastWorkspace: 'userId' });
    await v1.table('closedElements').put({ id: 'tip', closedAt: 5 });
    await v1.table('lastWorkspace').put({ userId: 3, id: 30, lastSeen: 6 });
    v1.close();
    const upgraded = openDatabase(name);
    await upgraded.open();
    expect(upgraded.verno).toBe(5);
    expect(await upgraded.closedElements.get('tip')).toEqual({ id: 'tip', closedAt: 5 });
    expect(await getLastWorkspace(3, upgraded)).toEqual({ userId: 3, id: 30, lastSeen: 6 });
    expect(await upgraded.uploads.count()).toBe(0);
    await upgraded.delete();
  });
});

describe('version 3 upgrade', () => {
  it('keeps the upload queue and adds the offline copies', async () => {
    const name = `waymark-upgrade-v3-${n}`;
    const v2 = new Dexie(name);
    v2.version(2).stores({
      closedElements: 'id',
      lastWorkspace: 'userId',
      uploads: 'id, createdAt',
      uploadBlobs: '[uploadId+path], uploadId',
      uploadChunks: '[uploadId+chunkId], uploadId',
    });
    await v2
      .table('uploadChunks')
      .put({ uploadId: 'u', chunkId: 'c', transaction: 't', size: 1, at: 2 });
    v2.close();
    const upgraded = openDatabase(name);
    await upgraded.open();
    expect(upgraded.verno).toBe(5);
    expect(await upgraded.uploadChunks.get(['u', 'c'])).toMatchObject({ transaction: 't' });
    await upgraded.offlineEntries.put({ owner: 'user:1', key: 'k', data: { a: 1 }, savedAt: 3 });
    expect(await upgraded.offlineEntries.where('owner').equals('user:1').count()).toBe(1);
    await upgraded.delete();
  });
});

describe('version 4 upgrade', () => {
  it('keeps a queued upload and its File, and adds the staged chunks', async () => {
    const name = `waymark-upgrade-v4-${n}`;
    const v3 = new Dexie(name);
    v3.version(3).stores({
      closedElements: 'id',
      lastWorkspace: 'userId',
      uploads: 'id, createdAt',
      uploadBlobs: '[uploadId+path], uploadId',
      uploadChunks: '[uploadId+chunkId], uploadId',
      offlineEntries: '[owner+key], owner',
    });
    await v3.table('uploadBlobs').put({ uploadId: 'u', path: 'a.txt', blob: 'bytes' });
    v3.close();
    const upgraded = openDatabase(name);
    await upgraded.open();
    expect(upgraded.verno).toBe(5);
    expect(await upgraded.uploadBlobs.get(['u', 'a.txt'])).toMatchObject({ blob: 'bytes' });
    expect(await upgraded.stagedChunks.where('fileId').equals('f').count()).toBe(0);
    await upgraded.delete();
  });
});

describe('version 5 upgrade', () => {
  it('keeps the upload queue and staged copies, and adds the field edit queue', async () => {
    const name = `waymark-upgrade-v5-${n}`;
    const v4 = new Dexie(name);
    v4.version(4).stores({
      closedElements: 'id',
      lastWorkspace: 'userId',
      uploads: 'id, createdAt',
      uploadBlobs: '[uploadId+path], uploadId',
      uploadChunks: '[uploadId+chunkId], uploadId',
      offlineEntries: '[owner+key], owner',
      stagedChunks: '[fileId+index], fileId',
    });
    await v4.table('uploads').put({ id: 'u1', createdAt: 1 });
    await v4.table('stagedChunks').put({ fileId: 'f', index: 0, blob: 'x', at: 1 });
    v4.close();
    const upgraded = openDatabase(name);
    await upgraded.open();
    expect(upgraded.verno).toBe(5);
    expect(await upgraded.uploads.count()).toBe(1);
    expect(await upgraded.stagedChunks.count()).toBe(1);
    expect(await upgraded.featureEdits.count()).toBe(0);
    expect(await upgraded.editPhotos.count()).toBe(0);
    expect(await upgraded.editBatches.count()).toBe(0);
    await upgraded.delete();
  });
});

describe('closed elements', () => {
  it('remembers closed elements until reopened', async () => {
    expect(await isElementClosed('mobile-app', db)).toBe(false);
    await closeElement('mobile-app', db, 1000);
    expect(await isElementClosed('mobile-app', db)).toBe(true);
    expect(await db.closedElements.get('mobile-app')).toEqual({ id: 'mobile-app', closedAt: 1000 });
    expect(await isElementClosed('other', db)).toBe(false);
    await reopenElement('mobile-app', db);
    expect(await isElementClosed('mobile-app', db)).toBe(false);
  });

  it('survives reopening the database', async () => {
    await closeElement('tip', db);
    db.close();
    const again = openDatabase(db.name);
    expect(await isElementClosed('tip', again)).toBe(true);
    again.close();
    await db.open();
  });
});

describe('last workspace', () => {
  it('keeps one entry per user', async () => {
    expect(await getLastWorkspace(1, db)).toBeUndefined();
    await rememberWorkspace(1, 10, db, 100);
    await rememberWorkspace(2, 20, db, 200);
    await rememberWorkspace(1, 11, db, 300);
    expect(await getLastWorkspace(1, db)).toEqual({ userId: 1, id: 11, lastSeen: 300 });
    expect(await getLastWorkspace(2, db)).toEqual({ userId: 2, id: 20, lastSeen: 200 });
    expect(await db.lastWorkspace.count()).toBe(2);
  });

  it('forgets a user', async () => {
    await rememberWorkspace(1, 10, db);
    await forgetWorkspace(1, db);
    expect(await getLastWorkspace(1, db)).toBeUndefined();
  });
});
