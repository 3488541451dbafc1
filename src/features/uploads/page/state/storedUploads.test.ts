import { Dexie } from 'dexie';
import { afterEach, describe, expect, it } from 'vitest';
import { DATABASE_NAME, openDatabase, type UploadRecord } from '@/db/db';
import { UPLOADS_DATABASE, UPLOADS_STORE, hasStoredUploads } from './storedUploads';

let n = 0;
const names: string[] = [];
function newName(): string {
  n += 1;
  const name = `waymark-stored-${n}`;
  names.push(name);
  return name;
}

afterEach(async () => {
  for (const name of names.splice(0)) await openDatabase(name).delete();
});

const record = (id: string): UploadRecord =>
  ({ id, projectPath: 'ws/p', phase: 'queued', createdAt: 1 }) as UploadRecord;

async function databaseNames(): Promise<string[]> {
  return (await indexedDB.databases()).map((info) => info.name ?? '');
}

/** The newest schema version the Dexie module declares (what an upgrade ends at). */
const LATEST_VERSION = openDatabase('waymark-declared-version').verno;

describe('hasStoredUploads', () => {
  it('reads the database and table the Dexie module defines', () => {
    expect(UPLOADS_DATABASE).toBe(DATABASE_NAME);
    expect(openDatabase(newName()).tables.map((table) => table.name)).toContain(UPLOADS_STORE);
  });

  it('answers false without creating a database that does not exist', async () => {
    const name = newName();
    expect(await hasStoredUploads(name)).toBe(false);
    expect(await databaseNames()).not.toContain(name);
    // Dexie still creates its database afterwards as usual.
    const db = openDatabase(name);
    await db.open();
    expect(db.verno).toBe(LATEST_VERSION);
    db.close();
  });

  it('answers false for an empty queue and true once an upload is stored', async () => {
    const name = newName();
    const db = openDatabase(name);
    await db.open();
    expect(await hasStoredUploads(name)).toBe(false);
    await db.uploads.put(record('u1'));
    expect(await hasStoredUploads(name)).toBe(true);
    await db.uploads.delete('u1');
    expect(await hasStoredUploads(name)).toBe(false);
    db.close();
  });

  it('answers false for a version 1 database (before the upload queue) and lets Dexie upgrade it', async () => {
    const name = newName();
    const v1 = new Dexie(name);
    v1.version(1).stores({ closedElements: 'id', lastWorkspace: 'userId' });
    await v1.open();
    v1.close();
    expect(await hasStoredUploads(name)).toBe(false);
    const db = openDatabase(name);
    await db.open();
    expect(db.verno).toBe(LATEST_VERSION);
    db.close();
  });

  it('does not hold up an open Dexie connection', async () => {
    const name = newName();
    const db = openDatabase(name);
    await db.open();
    await db.uploads.put(record('u2'));
    const answers = await Promise.all([hasStoredUploads(name), db.uploads.count()]);
    expect(answers).toEqual([true, 1]);
    db.close();
  });
});
