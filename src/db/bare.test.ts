import { Dexie } from 'dexie';
import { afterEach, describe, expect, it } from 'vitest';
import { bareDelete, bareGet, barePut } from './bare';
import { DATABASE_NAME, openDatabase } from './db';
import { DATABASE_NAME as NAME_WITHOUT_DEXIE } from './names';

let n = 0;
const names: string[] = [];
function newName(): string {
  n += 1;
  const name = `waymark-bare-${n}`;
  names.push(name);
  return name;
}

afterEach(async () => {
  for (const name of names.splice(0)) await openDatabase(name).delete();
});

async function databaseNames(): Promise<string[]> {
  return (await indexedDB.databases()).map((info) => info.name ?? '');
}

describe('bare IndexedDB rows', () => {
  it('uses the database Dexie defines', () => {
    expect(NAME_WITHOUT_DEXIE).toBe(DATABASE_NAME);
  });

  it('reads, writes and deletes rows Dexie sees, in a database Dexie created', async () => {
    const name = newName();
    const db = openDatabase(name);
    await db.lastWorkspace.put({ userId: 1, id: 10, lastSeen: 5 });

    expect(await bareGet('lastWorkspace', 1, name)).toEqual({
      state: 'done',
      value: { userId: 1, id: 10, lastSeen: 5 },
    });
    expect(await bareGet('lastWorkspace', 2, name)).toEqual({ state: 'done', value: undefined });

    const entry = { owner: 'user:1', key: 'projects:[]', data: { a: 1 }, savedAt: 3 };
    expect(await barePut('offlineEntries', entry, name)).toEqual({ state: 'done', value: true });
    expect(await db.offlineEntries.get(['user:1', 'projects:[]'])).toEqual(entry);
    expect(await db.offlineEntries.where('owner').equals('user:1').count()).toBe(1);

    expect(await bareDelete('lastWorkspace', 1, name)).toEqual({ state: 'done', value: true });
    expect(await db.lastWorkspace.get(1)).toBeUndefined();
    db.close();
  });

  it('answers missing without creating a database that does not exist', async () => {
    const name = newName();
    expect(await bareGet('lastWorkspace', 1, name)).toEqual({ state: 'missing' });
    expect(await barePut('lastWorkspace', { userId: 1, id: 2, lastSeen: 3 }, name)).toEqual({
      state: 'missing',
    });
    expect(await databaseNames()).not.toContain(name);
    // Dexie still creates its database afterwards as usual.
    const db = openDatabase(name);
    await db.open();
    expect(db.verno).toBe(5);
    db.close();
  });

  it('answers missing for a store an older version does not have yet, and Dexie upgrades it', async () => {
    const name = newName();
    const v1 = new Dexie(name);
    v1.version(1).stores({ closedElements: 'id', lastWorkspace: 'userId' });
    await v1.open();
    v1.close();
    const entry = { owner: 'public', key: 'k', data: 1, savedAt: 1 };
    expect(await barePut('offlineEntries', entry, name)).toEqual({ state: 'missing' });
    const db = openDatabase(name);
    await db.offlineEntries.put(entry);
    expect(await bareGet('offlineEntries', ['public', 'k'], name)).toEqual({
      state: 'done',
      value: entry,
    });
    db.close();
  });

  it('does not hold up an upgrade by Dexie', async () => {
    const name = newName();
    const v1 = new Dexie(name);
    v1.version(1).stores({ closedElements: 'id', lastWorkspace: 'userId' });
    await v1.open();
    v1.close();
    const reading = bareGet('lastWorkspace', 1, name);
    const db = openDatabase(name);
    await db.open();
    expect(await reading).toMatchObject({ state: expect.stringMatching(/done|failed/) });
    expect(db.verno).toBe(5);
    db.close();
  });
});
