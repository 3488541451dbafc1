/**
 * The v2 pull (client-compat §6.2) as the python client makes it: GET /v2/projects/{id}/delta
 * and the diffs it lists from GET /v2/projects/{id}/raw/diff (…?file=<id> and …/<id>), with a
 * bearer token. A merged diff applied to the file at vN gives the file at vM row for row; it
 * is built once (merged_diffs); files pushed whole, removed, re-added, created and removed
 * inside the range; the 400s, 403s, 404s and the 422 of a chain that cannot be merged.
 */
import { copyFile, writeFile } from 'node:fs/promises';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashPassword } from '../../server/src/auth/passwords';
import { insertUser } from '../../server/src/db/queries/users';
import { mergedDiffs, type Project } from '../../server/src/db/schema';
import { applyChangeset } from '../../server/src/geodiff/apply';
import { createChangeset } from '../../server/src/geodiff/create';
import { readChangeset } from '../../server/src/geodiff/format';
import { registerSpatialFunctions } from '../../server/src/geodiff/st-functions';
import { SINCE_AFTER_TO, TO_EXCEEDS_LATEST } from '../../server/src/services/pull/delta';
import { DIFF_DOWNLOAD_ERROR } from '../../server/src/services/pull/merged-diffs';
import {
  editSqlite,
  geopackageFromFeatures,
  pointFeatures,
  scratch,
  tableRows,
  type Scratch,
} from './support/geopackage';
import { PythonClient, sha1 } from './support/python-client';
import { commit, createProject } from './support/seed';
import { ADMIN_PASSWORD, createTestApp, problem, type TestApp } from './support/test-app';

const GPKG = 'data/trees.gpkg';
const DELTA_KEYS = ['change', 'checksum', 'diffs', 'path', 'size', 'version'];

let t: TestApp;
let s: Scratch;
let admin: PythonClient;
let stranger: PythonClient;
let anonymous: PythonClient;
let project: Project;
/** The GeoPackage at v1 … v6 (v5 pushed whole), and the diffs between them. */
const gpkg: Buffer[] = [];
const diffs: Buffer[] = [];
let n = 0;

async function fileOf(bytes: Uint8Array): Promise<string> {
  const file = s.file(`f${++n}.gpkg`);
  await writeFile(file, bytes);
  return file;
}

const edited = (bytes: Buffer, sql: string) =>
  editSqlite(s, bytes, (db) => {
    registerSpatialFunctions(db);
    db.exec(sql);
  });

const rowsOf = (file: string) => tableRows(file, 'trees');

/** The file `base` with the changeset applied. */
async function applied(base: Buffer, diff: Buffer): Promise<string> {
  const file = await fileOf(base);
  applyChangeset(file, readChangeset(diff));
  return file;
}

/** The diff between two versions of the GeoPackage (1-based). */
async function diffOf(from: number, to: number): Promise<Buffer> {
  return Buffer.from(createChangeset(await fileOf(gpkg[from - 1]!), await fileOf(gpkg[to - 1]!)));
}

const text = (content: string) => Buffer.from(content);

interface Delta {
  to_version: string;
  items: {
    path: string;
    size: number;
    checksum: string;
    version: string;
    change: string;
    diffs: { id: string }[];
  }[];
}

async function delta(client: PythonClient, query: string, id = project.id): Promise<Delta> {
  const response = await client.get(`/v2/projects/${id}/delta?${query}`);
  expect(response.statusCode, response.body).toBe(200);
  return response.json() as Delta;
}

/** The python client's query encoding (urlencode: `/` as %2F, space as +). */
const formEncoded = (value: string) => encodeURIComponent(value).replace(/%20/g, '+');
/** The python client's path encoding (quote: `/` kept). */
const pathEncoded = (value: string) => value.split('/').map(encodeURIComponent).join('/');

const rawDiff = (client: PythonClient, id: string, projectId = project.id) =>
  client.get(`/v2/projects/${projectId}/raw/diff/${pathEncoded(id)}`);
const rawDiffByQuery = (client: PythonClient, id: string, projectId = project.id) =>
  client.get(`/v2/projects/${projectId}/raw/diff?file=${formEncoded(id)}`);

beforeAll(async () => {
  t = await createTestApp();
  s = await scratch();
  admin = new PythonClient(t.app);
  await admin.login('admin', ADMIN_PASSWORD);
  await insertUser(t.database.db, {
    username: 'stranger',
    email: 'stranger@example.com',
    passwordHash: await hashPassword('Stranger-Password-1'),
    verifiedEmail: true,
  });
  stranger = new PythonClient(t.app);
  await stranger.login('stranger', 'Stranger-Password-1');
  anonymous = new PythonClient(t.app);

  gpkg.push(await geopackageFromFeatures(s, 'v1', 'trees', pointFeatures(40)));
  const edits = [
    `UPDATE trees SET name = 'renamed' WHERE fid = 1;
     INSERT INTO trees (fid, geom, name, height) SELECT 100, geom, 'new', 1 FROM trees WHERE fid = 2;
     DELETE FROM trees WHERE fid = 3;`,
    `UPDATE trees SET name = 'again', height = 2 WHERE fid = 1;
     UPDATE trees SET name = 'grown' WHERE fid = 100;
     INSERT INTO trees (fid, geom, name, height) SELECT 3, geom, 'back', 3 FROM trees WHERE fid = 4;`,
    `DELETE FROM trees WHERE fid IN (100, 5);
     UPDATE trees SET geom = (SELECT geom FROM trees WHERE fid = 9) WHERE fid = 8;`,
    `UPDATE trees SET height = 55 WHERE fid BETWEEN 10 AND 14;`,
    `UPDATE trees SET name = 'six' WHERE fid = 20;`,
  ];
  for (const sql of edits) gpkg.push(await edited(gpkg.at(-1)!, sql));
  for (let v = 2; v <= gpkg.length; v++) diffs.push(await diffOf(v - 1, v));

  project = await createProject(t, { name: 'survey' });
  const at = (v: number): [Buffer, Buffer] => [gpkg[v - 1]!, diffs[v - 2]!];
  // v1: the GeoPackage and three text files.
  await commit(t, project.id, {
    added: { [GPKG]: gpkg[0]!, 'notes.txt': text('notes 1'), 'old.txt': text('old file') },
  });
  // v2: diff; notes updated; brief.txt comes (and goes in v3).
  await commit(t, project.id, {
    diffUpdated: { [GPKG]: at(2) },
    updated: { 'notes.txt': text('notes 2') },
    added: { 'brief.txt': text('brief') },
  });
  // v3: diff; brief.txt and old.txt removed; a photo added.
  await commit(t, project.id, {
    diffUpdated: { [GPKG]: at(3) },
    removed: ['brief.txt', 'old.txt'],
    added: { 'photo.jpg': text('jpeg bytes') },
  });
  // v4: diff.
  await commit(t, project.id, { diffUpdated: { [GPKG]: at(4) } });
  // v5: the GeoPackage pushed whole; notes.txt removed.
  await commit(t, project.id, { updated: { [GPKG]: gpkg[4]! }, removed: ['notes.txt'] });
  // v6: diff again; notes.txt added again.
  await commit(t, project.id, {
    diffUpdated: { [GPKG]: at(6) },
    added: { 'notes.txt': text('notes 6') },
  });
});

afterAll(async () => {
  await t?.close();
  await s?.cleanup();
});

describe('GET /v2/projects/{id}/delta', () => {
  it('answers the net changes of a range with the fields the client reads', async () => {
    const body = await delta(admin, 'since=v1&to=v4');
    expect(Object.keys(body).sort()).toEqual(['items', 'to_version']);
    expect(body.to_version).toBe('v4');
    for (const item of body.items) expect(Object.keys(item).sort()).toEqual(DELTA_KEYS);
    expect(body.items).toEqual([
      {
        path: GPKG,
        size: gpkg[3]!.length,
        checksum: sha1(gpkg[3]!),
        version: 'v4',
        change: 'update_diff',
        diffs: [{ id: `${GPKG}-diff-v2-v4` }],
      },
      {
        path: 'notes.txt',
        size: 7,
        checksum: sha1(text('notes 2')),
        version: 'v2',
        change: 'update',
        diffs: [],
      },
      // Removed: described as it last was.
      {
        path: 'old.txt',
        size: 8,
        checksum: sha1(text('old file')),
        version: 'v3',
        change: 'delete',
        diffs: [],
      },
      {
        path: 'photo.jpg',
        size: 10,
        checksum: sha1(text('jpeg bytes')),
        version: 'v3',
        change: 'create',
        diffs: [],
      },
    ]);
    // brief.txt came in v2 and went in v3: nothing.
  });

  it('takes the latest version without `to`, and lists one stored diff by its name', async () => {
    const body = await delta(admin, 'since=v5');
    expect(body.to_version).toBe('v6');
    const item = body.items.find((i) => i.path === GPKG)!;
    expect(item.change).toBe('update_diff');
    expect(item.diffs).toHaveLength(1);
    const served = await rawDiff(admin, item.diffs[0]!.id);
    expect(served.statusCode, served.body).toBe(200);
    expect(served.rawPayload.equals(diffs[4]!)).toBe(true);
    expect(served.headers['content-type']).toBe('application/octet-stream');
    expect(body.items.find((i) => i.path === 'notes.txt')!.change).toBe('create');
  });

  it('says update, not update_diff, when the file was pushed whole inside the range', async () => {
    const body = await delta(admin, 'since=v3');
    const item = body.items.find((i) => i.path === GPKG)!;
    expect(item).toMatchObject({
      change: 'update',
      diffs: [],
      size: gpkg[5]!.length,
      checksum: sha1(gpkg[5]!),
      version: 'v6',
    });
    // notes.txt removed in v5 and added again in v6: an update.
    expect(body.items.find((i) => i.path === 'notes.txt')).toMatchObject({
      change: 'update',
      checksum: sha1(text('notes 6')),
    });
  });

  it('answers no items when since equals to, and the whole project from v0', async () => {
    expect(await delta(admin, 'since=v4&to=v4')).toEqual({ to_version: 'v4', items: [] });
    const all = await delta(admin, 'since=v0');
    expect(all.items.map((i) => [i.path, i.change])).toEqual([
      [GPKG, 'create'],
      ['notes.txt', 'create'],
      ['photo.jpg', 'create'],
    ]);
  });

  it('refuses bad versions with 400 and a short answer', async () => {
    const cases: [string, string | null][] = [
      ['since=v4&to=v2', SINCE_AFTER_TO],
      ['since=v1&to=v7', TO_EXCEEDS_LATEST],
      ['since=v9', SINCE_AFTER_TO],
      ['since=v1&to=v99999999999999999999', TO_EXCEEDS_LATEST],
      ['since=4', null],
      ['since=v-1', null],
      ['', null],
      ['since=v1&to=latest', null],
    ];
    for (const [query, detail] of cases) {
      const response = await admin.get(`/v2/projects/${project.id}/delta?${query}`);
      expect(response.statusCode, query).toBe(400);
      expect(response.headers['content-type']).toBe('application/problem+json');
      if (detail) expect(problem(response).detail, query).toBe(detail);
    }
  });

  it('needs read access as downloads do; unknown projects are 404', async () => {
    expect((await stranger.get(`/v2/projects/${project.id}/delta?since=v1`)).statusCode).toBe(403);
    expect((await anonymous.get(`/v2/projects/${project.id}/delta?since=v1`)).statusCode).toBe(403);
    const unknown = '00000000-0000-4000-8000-000000000000';
    expect((await admin.get(`/v2/projects/${unknown}/delta?since=v1`)).statusCode).toBe(404);
    expect((await admin.get('/v2/projects/not-a-uuid/delta?since=v1')).statusCode).toBe(404);
  });
});

describe('GET /v2/projects/{id}/raw/diff', () => {
  it('serves the merged diff: applied to v1 it gives v4 row for row, built once', async () => {
    const [item] = (await delta(admin, 'since=v1&to=v4')).items;
    const id = item!.diffs[0]!.id;
    const byPath = await rawDiff(admin, id);
    expect(byPath.statusCode, byPath.body).toBe(200);
    const merged = byPath.rawPayload;
    expect(byPath.headers['content-length']).toBe(String(merged.length));
    expect(byPath.headers.etag).toBe(`"${sha1(merged)}"`);

    const result = await applied(gpkg[0]!, merged);
    expect(rowsOf(result)).toEqual(rowsOf(await fileOf(gpkg[3]!)));
    expect(rowsOf(result)).not.toEqual(rowsOf(await fileOf(gpkg[0]!)));
    // Smaller than the three diffs it replaces (fid 1 updated twice, 100 came and went).
    expect(merged.length).toBeLessThan(diffs[0]!.length + diffs[1]!.length + diffs[2]!.length);

    // The query form gives the same bytes, from the one cached merge.
    const byQuery = await rawDiffByQuery(admin, id);
    expect(byQuery.statusCode).toBe(200);
    expect(byQuery.rawPayload.equals(merged)).toBe(true);
    const head = await t.app.inject({
      method: 'HEAD',
      url: `/v2/projects/${project.id}/raw/diff/${pathEncoded(id)}`,
      headers: { authorization: admin.authorization! },
    });
    expect(head.statusCode).toBe(200);
    expect(head.headers['content-length']).toBe(String(merged.length));
    expect(head.rawPayload.length).toBe(0);
    const cached = await t.database.db
      .select()
      .from(mergedDiffs)
      .where(eq(mergedDiffs.projectId, project.id));
    expect(cached).toHaveLength(1);
  });

  it('replays the client pull from v1: diffs applied to the basefile, the rest downloaded', async () => {
    const body = await delta(admin, 'since=v1&to=v4');
    const base = await fileOf(gpkg[0]!);
    const working = s.file('working.gpkg');
    await copyFile(base, working);
    for (const item of body.items.filter((i) => i.change === 'update_diff')) {
      for (const diff of item.diffs) {
        const response = await rawDiff(admin, diff.id);
        expect(response.statusCode).toBe(200);
        applyChangeset(working, readChangeset(response.rawPayload));
      }
    }
    const info = await admin.get(`/v2/projects/${project.id}?files_at_version=${body.to_version}`);
    const files = (info.json() as { files: { path: string; checksum: string }[] }).files;
    expect(files.find((f) => f.path === GPKG)!.checksum).toBe(sha1(gpkg[3]!));
    expect(rowsOf(working)).toEqual(rowsOf(await fileOf(gpkg[3]!)));
    for (const item of body.items.filter((i) => ['create', 'update'].includes(i.change))) {
      const bytes = await admin.download(
        `${t.config.globalWorkspace}/${project.name}`,
        { path: item.path, size: item.size, checksum: item.checksum, mtime: null },
        body.to_version,
      );
      expect(sha1(bytes)).toBe(item.checksum);
    }
  });

  it('answers 404 for unknown names and for a range that is not a chain of diffs', async () => {
    for (const id of [
      'nothing.gpkg-diff-1',
      `${GPKG}-diff-v2-v6`, // v5 was pushed whole
      `${GPKG}-diff-v4-v2`,
      `notes.txt-diff-v1-v2`,
    ]) {
      const response = await rawDiff(admin, id);
      expect(response.statusCode, id).toBe(404);
      expect(response.headers['content-type']).toBe('application/problem+json');
    }
    expect((await admin.get(`/v2/projects/${project.id}/raw/diff`)).statusCode).toBe(400);
    expect((await admin.get(`/v2/projects/${project.id}/raw/diff?file=`)).statusCode).toBe(400);
    expect(
      (await admin.get(`/v2/projects/${project.id}/raw/diff?file=${'x'.repeat(3000)}`)).statusCode,
    ).toBe(400);
    for (const bad of ['%00', 'a%0Ab', `${formEncoded(GPKG)}-diff-v2-v4%00`]) {
      const response = await admin.get(`/v2/projects/${project.id}/raw/diff?file=${bad}`);
      expect(response.statusCode, bad).toBe(400);
    }
    expect((await admin.get(`/v2/projects/${project.id}/raw/diff/a%00b`)).statusCode).toBe(400);
  });

  it('needs read access; public projects serve anonymous visitors', async () => {
    const id = `${GPKG}-diff-v2-v4`;
    expect((await rawDiff(stranger, id)).statusCode).toBe(403);
    expect((await rawDiffByQuery(anonymous, id)).statusCode).toBe(403);

    const open = await createProject(t, { name: 'open', public: true });
    await commit(t, open.id, { added: { [GPKG]: gpkg[0]! } });
    await commit(t, open.id, { diffUpdated: { [GPKG]: [gpkg[1]!, diffs[0]!] } });
    await commit(t, open.id, { diffUpdated: { [GPKG]: [gpkg[2]!, diffs[1]!] } });
    const body = await delta(anonymous, 'since=v1', open.id);
    const served = await rawDiff(anonymous, body.items[0]!.diffs[0]!.id, open.id);
    expect(served.statusCode).toBe(200);
    const result = await applied(gpkg[0]!, served.rawPayload);
    expect(rowsOf(result)).toEqual(rowsOf(await fileOf(gpkg[2]!)));
  });

  it('answers concurrent first requests for one chain alike, caching one merged diff', async () => {
    const busy = await createProject(t, { name: 'busy' });
    await commit(t, busy.id, { added: { [GPKG]: gpkg[1]! } });
    await commit(t, busy.id, { diffUpdated: { [GPKG]: [gpkg[2]!, diffs[1]!] } });
    await commit(t, busy.id, { diffUpdated: { [GPKG]: [gpkg[3]!, diffs[2]!] } });
    const responses = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        i % 2
          ? rawDiff(admin, `${GPKG}-diff-v2-v3`, busy.id)
          : rawDiffByQuery(admin, `${GPKG}-diff-v2-v3`, busy.id),
      ),
    );
    for (const response of responses) {
      expect(response.statusCode, response.body).toBe(200);
      expect(response.rawPayload.equals(responses[0]!.rawPayload)).toBe(true);
    }
    const result = await applied(gpkg[1]!, responses[0]!.rawPayload);
    expect(rowsOf(result)).toEqual(rowsOf(await fileOf(gpkg[3]!)));
    const cached = await t.database.db
      .select()
      .from(mergedDiffs)
      .where(eq(mergedDiffs.projectId, busy.id));
    expect(cached).toHaveLength(1);
  });

  it('releases merged diffs with the project when it is deleted', async () => {
    const gone = await createProject(t, { name: 'gone' });
    // A chain no other project has (merged diffs are blobs: equal chains share one).
    await commit(t, gone.id, { added: { [GPKG]: gpkg[2]! } });
    await commit(t, gone.id, { diffUpdated: { [GPKG]: [gpkg[3]!, diffs[2]!] } });
    await commit(t, gone.id, { diffUpdated: { [GPKG]: [gpkg[4]!, diffs[3]!] } });
    expect((await rawDiff(admin, `${GPKG}-diff-v2-v3`, gone.id)).statusCode).toBe(200);
    const [cached] = await t.database.db
      .select()
      .from(mergedDiffs)
      .where(eq(mergedDiffs.projectId, gone.id));
    expect(await t.app.ctx.blobStore.has(cached!.blobKey)).toBe(true);

    expect((await admin.delete(`/v2/projects/${gone.id}`)).statusCode).toBe(204);
    const rows = await t.database.db
      .select()
      .from(mergedDiffs)
      .where(eq(mergedDiffs.blobKey, cached!.blobKey));
    expect(rows).toEqual([]);
    expect(await t.app.ctx.blobStore.has(cached!.blobKey)).toBe(false);
    // The other projects' merged diffs are untouched.
    expect((await rawDiff(admin, `${GPKG}-diff-v2-v4`)).statusCode).toBe(200);
  });

  it('answers 422 DiffDownloadError when a stored diff of the chain cannot be read', async () => {
    const broken = await createProject(t, { name: 'broken' });
    await commit(t, broken.id, { added: { [GPKG]: gpkg[0]! } });
    await commit(t, broken.id, { diffUpdated: { [GPKG]: [gpkg[1]!, diffs[0]!] } });
    await commit(t, broken.id, { diffUpdated: { [GPKG]: [gpkg[2]!, text('not a changeset')] } });
    const response = await rawDiff(admin, `${GPKG}-diff-v2-v3`, broken.id);
    expect(response.statusCode).toBe(422);
    expect(response.headers['content-type']).toBe('application/problem+json');
    expect(response.json()).toMatchObject({ code: DIFF_DOWNLOAD_ERROR });
  });
});
