/**
 * Comparing two versions (issue 20, schemas/compare.ts): the files added, updated and
 * removed, and the net row-level changes of a GeoPackage edited in several versions (each
 * changed row once, from its value in `from` to its value in `to`; inserted-then-deleted
 * rows not at all); swapping from and to gives the reverse; paging; 4xx answers.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { upsertProjectMembers } from '../../server/src/db/queries/projects';
import type { Project } from '../../server/src/db/schema';
import type { ChangesetEntry } from '../../server/src/schemas/changesets';
import type { CompareRows, Comparison } from '../../server/src/schemas/compare';
import {
  editGeoPackage,
  geopackageFromFeatures,
  pointFeatures,
  scratch,
  type Scratch,
} from './support/geopackage';
import { commit, createProject, signedInUser } from './support/seed';
import { ADMIN_PASSWORD, createTestApp, type TestApp, type TestClient } from './support/test-app';

const GPKG = 'data/trees.gpkg';
let t: TestApp;
let s: Scratch;
let admin: TestClient;
let reader: TestClient;
let stranger: TestClient;
let project: Project;

const compareUrl = (from: string, to: string) =>
  `/app/project/compare/${t.config.globalWorkspace}/${project.name}?from=${from}&to=${to}`;
const rowsUrl = (from: string, to: string, path = GPKG, extra = '') =>
  `/app/project/compare/${t.config.globalWorkspace}/${project.name}/rows?from=${from}&to=${to}&path=${encodeURIComponent(path)}${extra}`;

async function rows(from: string, to: string, path = GPKG, extra = ''): Promise<CompareRows> {
  const response = await reader.get(rowsUrl(from, to, path, extra));
  expect(response.statusCode, response.body).toBe(200);
  return response.json() as CompareRows;
}

/** fid → the entry of that row (fid read from the changes). */
function byFid(entries: ChangesetEntry[]): Map<number, ChangesetEntry> {
  return new Map(
    entries.map((e) => [
      Number(e.changes.find((c) => c.name === 'fid')![e.type === 'insert' ? 'new' : 'old']),
      e,
    ]),
  );
}

const value = (entry: ChangesetEntry, name: string) => entry.changes.find((c) => c.name === name);

beforeAll(async () => {
  t = await createTestApp();
  s = await scratch();
  admin = t.client();
  await admin.login('admin', ADMIN_PASSWORD);
  const readerUser = await signedInUser(t, 'reader');
  reader = readerUser.client;
  stranger = (await signedInUser(t, 'stranger')).client;

  const v1 = await geopackageFromFeatures(s, 'v1', 'trees', pointFeatures(10));
  const v2 = await editGeoPackage(
    s,
    v1,
    `UPDATE trees SET name = 'a' WHERE fid = 1;
     INSERT INTO trees (fid, geom, name, height) SELECT 100, geom, 'brief', 1 FROM trees WHERE fid = 2;
     UPDATE trees SET height = 10 WHERE fid = 2;`,
  );
  const v3 = await editGeoPackage(
    s,
    v2,
    `UPDATE trees SET name = 'b' WHERE fid = 1; DELETE FROM trees WHERE fid IN (100, 5);`,
  );
  const v4 = await editGeoPackage(
    s,
    v3,
    `UPDATE trees SET name = 'c', height = 99 WHERE fid = 1;
     INSERT INTO trees (fid, geom, name, height) SELECT 101, geom, 'late', 7 FROM trees WHERE fid = 3;
     UPDATE trees SET height = 3 WHERE fid = 2;`,
  );
  const other = await geopackageFromFeatures(s, 'other', 'poles', pointFeatures(3));
  const reshaped = await editGeoPackage(s, v1, `ALTER TABLE trees ADD COLUMN note TEXT;`);

  project = await createProject(t, { name: 'compare' });
  await upsertProjectMembers(t.database.db, project.id, [
    { userId: readerUser.user.id, role: 'reader' },
  ]);
  await commit(t, project.id, {
    added: { [GPKG]: v1, 'a.txt': 'a1', 'b.txt': 'b1', 'same.txt': 's' },
  });
  await commit(t, project.id, { updated: { [GPKG]: v2, 'a.txt': 'a2' }, added: { 'c.txt': 'c2' } });
  await commit(t, project.id, { updated: { [GPKG]: v3 }, removed: ['b.txt'] });
  await commit(t, project.id, {
    updated: { [GPKG]: v4, 'a.txt': 'a1' },
    added: { 'poles.gpkg': other },
  });
  // v5: the layer's columns change.
  await commit(t, project.id, { updated: { [GPKG]: reshaped } });
});

afterAll(async () => {
  await s?.cleanup();
  await t?.close();
});

describe('GET /app/project/compare/{namespace}/{name}', () => {
  it('lists the files added, updated and removed, and the reverse when swapped', async () => {
    const response = await reader.get(compareUrl('v1', 'v4'));
    expect(response.statusCode, response.body).toBe(200);
    const body = response.json() as Comparison;
    expect(body.from).toBe('v1');
    expect(body.to).toBe('v4');
    // a.txt went back to its v1 bytes: unchanged; same.txt unchanged.
    expect(body.files.map((f) => [f.path, f.change, f.versioned])).toEqual([
      ['b.txt', 'removed', false],
      ['c.txt', 'added', false],
      [GPKG, 'updated', true],
      ['poles.gpkg', 'added', true],
    ]);
    const geo = body.files.find((f) => f.path === GPKG)!;
    expect(geo.from).toMatchObject({ version: 'v1' });
    expect(geo.to).toMatchObject({ version: 'v4' });
    expect(body.files.find((f) => f.path === 'b.txt')!.to).toBeNull();

    const reverse = (await reader.get(compareUrl('v4', 'v1'))).json() as Comparison;
    expect(reverse.files.map((f) => [f.path, f.change])).toEqual([
      ['b.txt', 'added'],
      ['c.txt', 'removed'],
      [GPKG, 'updated'],
      ['poles.gpkg', 'removed'],
    ]);
    expect(reverse.files.find((f) => f.path === GPKG)!.from).toEqual(geo.to);
  });

  it('answers 400 for bad versions, 404 for missing ones, 403 without read access', async () => {
    expect((await reader.get(compareUrl('1', 'v2'))).statusCode).toBe(400);
    expect((await reader.get(compareUrl('v1', 'v99'))).statusCode).toBe(404);
    expect(
      (await reader.get(`/app/project/compare/${t.config.globalWorkspace}/${project.name}?from=v1`))
        .statusCode,
    ).toBe(400);
    expect((await stranger.get(compareUrl('v1', 'v2'))).statusCode).toBe(403);
    expect((await t.client().get(compareUrl('v1', 'v2'))).statusCode).toBe(403);
  });
});

describe('GET /app/project/compare/{namespace}/{name}/rows', () => {
  it('shows each changed row once with its net change from v1 to v4', async () => {
    const body = await rows('v1', 'v4');
    expect(body.status).toBe('done');
    expect(body.error).toBeNull();
    expect(body.summary).toEqual([{ table: 'trees', insert: 1, update: 1, delete: 1 }]);
    expect(body.count).toBe(3);
    const entries = byFid(body.entries);
    // fid 1 edited in v2, v3 and v4: once, from v1's values to v4's.
    expect(entries.get(1)!.type).toBe('update');
    expect(value(entries.get(1)!, 'name')).toMatchObject({ old: 'tree 1', new: 'c' });
    expect(value(entries.get(1)!, 'height')).toMatchObject({ old: 1.5, new: 99 });
    // fid 2 ended where it started; fid 100 was inserted in v2 and deleted in v3.
    expect(entries.has(2)).toBe(false);
    expect(entries.has(100)).toBe(false);
    expect(entries.get(5)!.type).toBe('delete');
    expect(entries.get(101)!.type).toBe('insert');
    expect(value(entries.get(101)!, 'name')).toMatchObject({ new: 'late' });
  });

  it('swapping from and to gives the reverse', async () => {
    const body = await rows('v4', 'v1');
    expect(body.summary).toEqual([{ table: 'trees', insert: 1, update: 1, delete: 1 }]);
    const entries = byFid(body.entries);
    expect(value(entries.get(1)!, 'name')).toMatchObject({ old: 'c', new: 'tree 1' });
    expect(entries.get(5)!.type).toBe('insert');
    expect(entries.get(101)!.type).toBe('delete');
  });

  it('pages the entries; a file on one side only is all inserts; equal files have none', async () => {
    const all = await rows('v1', 'v4');
    const second = await rows('v1', 'v4', GPKG, '&page=2&per_page=1');
    expect(second.count).toBe(3);
    expect(second.page).toBe(2);
    expect(second.per_page).toBe(1);
    expect(second.entries).toEqual([all.entries[1]]);
    expect((await rows('v1', 'v4', GPKG, '&page=9&per_page=1')).entries).toEqual([]);

    const added = await rows('v3', 'v4', 'poles.gpkg');
    expect(added.summary).toEqual([{ table: 'poles', insert: 3, update: 0, delete: 0 }]);
    const removed = await rows('v4', 'v3', 'poles.gpkg');
    expect(removed.summary).toEqual([{ table: 'poles', insert: 0, update: 0, delete: 3 }]);
    const same = await rows('v4', 'v4');
    expect(same).toMatchObject({ status: 'done', summary: [], count: 0, entries: [] });
  });

  it('says why when the rows cannot be compared (a table changed its columns)', async () => {
    const body = await rows('v4', 'v5');
    expect(body.status).toBe('error');
    expect(body.error).toMatch(/schema of table trees changed/);
    expect(body.entries).toEqual([]);
  });

  it('refuses what it cannot compare with 400 and 404', async () => {
    expect((await reader.get(rowsUrl('v1', 'v4', 'a.txt'))).statusCode).toBe(400);
    expect((await reader.get(rowsUrl('v1', 'v4', 'none.gpkg'))).statusCode).toBe(404);
    expect((await reader.get(rowsUrl('v1', 'v4', GPKG, '&per_page=100000'))).statusCode).toBe(400);
    expect((await reader.get(rowsUrl('v1', 'v4', GPKG, '&page=0'))).statusCode).toBe(400);
    expect((await reader.get(rowsUrl('v1', 'x', GPKG))).statusCode).toBe(400);
    expect((await stranger.get(rowsUrl('v1', 'v4'))).statusCode).toBe(403);
  });
});
