/**
 * Edit batches (issue 34, schemas/edits.ts): one version per batch whose GeoPackage update
 * carries its changeset (listed by the changeset view; applied onto the previous version it
 * gives the new file, rows and R-tree, read back with the project's own geodiff reader);
 * photos from v2 chunks; Mm-push-id retries; permissions, read-only layers, not-null and
 * columns the schema no longer has; and the rebase onto a version that moved on, case by
 * case as geodiff's own tests (geodiff/tests/test_concurrent_commits.cpp and its testdata:
 * rebase_conflict/case1-4, update_delete, delete_update, 2_deletes, insert_multiple) on a
 * GeoPackage built by GDAL with geodiff's `simple` table (fid, geometry, name, rating).
 */
import { randomUUID } from 'node:crypto';
import { copyFile, readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { upsertProjectMembers } from '../../server/src/db/queries/projects';
import { and, eq } from 'drizzle-orm';
import { blobs, fileHistory, type Project } from '../../server/src/db/schema';
import { applyChangeset } from '../../server/src/geodiff/apply';
import { readChangeset } from '../../server/src/geodiff/format';
import type { ConflictList, EditConflict } from '../../server/src/schemas/conflicts';
import type { EditBatch, EditResult } from '../../server/src/schemas/edits';
import { changesetWorkIdle, runPendingChangesets } from '../../server/src/services/changesets';
import { editConflictPath } from '../../server/src/services/capture/edits';
import { scratchDir } from '../../server/src/services/capture/scratch';
import { fileCacheOf, fileStoreWorkIdle } from '../../server/src/services/file-store';
import {
  editGeoPackage,
  geopackageFromFeatures,
  scratch,
  tableRows,
  type Feature,
  type Scratch,
} from './support/geopackage';
import { sha1 } from './support/python-client';
import { commit, createProject, filesAtVersion, signedInUser } from './support/seed';
import {
  ADMIN_PASSWORD,
  createTestApp,
  problem,
  type TestApp,
  type TestClient,
} from './support/test-app';

const FIXTURE = path.resolve(import.meta.dirname, '../fixtures/qgis');
const FILE = 'survey.gpkg';

let t: TestApp;
let s: Scratch;
let admin: TestClient;
let reader: TestClient;
let survey: Project;
let simple: Buffer;
let projects = 0;

const editsUrl = (p: Project) => `/v2/projects/${p.id}/edits`;
const latestVersion = async (p: Project) =>
  ((await admin.get(`/v2/projects/${p.id}`)).json() as { version: string }).version;

async function send(
  p: Project,
  batch: EditBatch,
  options: { client?: TestClient; pushId?: string } = {},
) {
  return (options.client ?? admin).post(editsUrl(p), batch, {
    headers: { 'mm-push-id': options.pushId ?? randomUUID() },
  });
}

async function sent(p: Project, batch: EditBatch, status = 201): Promise<EditResult> {
  const response = await send(p, batch);
  expect(response.statusCode, response.body).toBe(status);
  return response.json() as EditResult;
}

/** geodiff's base.gpkg `simple` table: three points, name featureN, rating N. */
const SIMPLE: Feature[] = [1, 2, 3].map((id) => ({
  id,
  properties: { name: `feature${id}`, rating: id },
  geometry: { type: 'Point', coordinates: [id, id] },
}));

/** A project whose v1 is the simple GeoPackage and v2 the server's change `sql` (theirs). */
async function movedOn(sql: string): Promise<Project> {
  const p = await createProject(t, { name: `rebase-${++projects}` });
  await commit(t, p.id, { added: { 'base.gpkg': simple } });
  await commit(t, p.id, { updated: { 'base.gpkg': await editGeoPackage(s, simple, sql) } });
  return p;
}

async function fileAt(p: Project, version: number, file: string): Promise<string> {
  const bytes = (await filesAtVersion(t, p.id, version)).get(file);
  expect(bytes, `${file} at v${version}`).toBeDefined();
  const local = s.file(`${randomUUID()}.gpkg`);
  await writeFile(local, bytes!);
  return local;
}

async function rows(p: Project, version: number, table = 'simple', file = 'base.gpkg') {
  return tableRows(await fileAt(p, version, file), table);
}

const update = (fid: number, values: Record<string, string | number>) => ({
  file: 'base.gpkg',
  layer: 'simple',
  op: 'update' as const,
  fid,
  values,
});

async function conflictFile(p: Project, version: number, file: string) {
  const bytes = (await filesAtVersion(t, p.id, version)).get(file);
  return bytes ? (JSON.parse(bytes.toString('utf8')) as { geodiff: unknown[] }) : null;
}

beforeAll(async () => {
  t = await createTestApp(process.env.CAPTURE_DEBUG ? { logger: { level: 'error' } } : {});
  s = await scratch();
  admin = t.client();
  await admin.login('admin', ADMIN_PASSWORD);
  simple = await geopackageFromFeatures(s, 'simple', 'simple', SIMPLE, 'POINT');
  survey = await createProject(t, { name: 'survey' });
  await commit(t, survey.id, {
    added: {
      [FILE]: await readFile(path.join(FIXTURE, 'survey.gpkg')),
      'survey.qgs': await readFile(path.join(FIXTURE, 'survey.qgs')),
    },
  });
  const { user, client } = await signedInUser(t, 'reader');
  reader = client;
  await upsertProjectMembers(t.database.db, survey.id, [{ userId: user.id, role: 'reader' }]);
});

afterAll(async () => {
  await s?.cleanup();
  await t?.close();
});

describe('POST /v2/projects/{id}/edits', () => {
  it('makes one version whose GeoPackage update carries the changeset of its rows', async () => {
    const result = await sent(survey, {
      base_version: 'v1',
      changes: [
        {
          id: 'add',
          file: FILE,
          layer: 'trees',
          op: 'insert',
          fid: -1,
          values: { name: 'Young lime', status: 'good', healthy: true, height: 2.5 },
          geometry: { type: 'Point', coordinates: [21.015, 52.231] },
        },
        { file: FILE, layer: 'trees', op: 'update', fid: 2, values: { status: 'dead' } },
        { file: FILE, layer: 'trees', op: 'delete', fid: 3 },
      ],
    });
    expect(result).toMatchObject({
      version: 'v2',
      rebased_onto: 'v1',
      inserted: 1,
      updated: 1,
      deleted: 1,
      fids: [{ file: FILE, layer: 'trees', client_fid: -1, fid: 4 }],
      conflicts: [],
      conflict_files: [],
      photos: [],
    });
    const detail = (await admin.get(`/v1/project/version/${survey.id}/v2`)).json() as {
      changes: { updated_diff?: { path: string }[] } & Record<string, unknown>;
    };
    expect(JSON.stringify(detail)).toContain('survey.gpkg-diff-');

    // The changeset is computed in the background once the version is made.
    await changesetWorkIdle(t.app.ctx);
    await runPendingChangesets(t.app.ctx);
    const changes = await admin.get(
      `/v1/resource/changesets/${t.config.globalWorkspace}/survey/v2?path=${FILE}`,
    );
    expect(changes.statusCode, changes.body).toBe(200);
    const entries = changes.json() as { table: string; type: string }[];
    expect(entries.map((e) => [e.table, e.type]).sort()).toEqual([
      ['trees', 'delete'],
      ['trees', 'insert'],
      ['trees', 'update'],
    ]);

    const after = await fileAt(survey, 2, FILE);
    const trees = tableRows(after, 'trees');
    expect(trees.map((r) => r[0])).toEqual([1, 2, 4]);
    const added = trees.find((r) => r[0] === 4)!;
    expect(added.slice(2, 4)).toEqual(['Young lime', 'good']);
    expect(tableRows(after, 'rtree_trees_geom').map((r) => r[0])).toEqual([1, 2, 4]);
  });

  it('gives a diff that, applied onto the previous version, makes the new file', async () => {
    const p = await createProject(t, { name: 'diff-check' });
    await commit(t, p.id, { added: { 'base.gpkg': simple } });
    await sent(p, {
      base_version: 'v1',
      changes: [
        { ...update(1, { name: 'renamed' }) },
        {
          file: 'base.gpkg',
          layer: 'simple',
          op: 'update',
          fid: 2,
          geometry: { type: 'Point', coordinates: [7.5, 8.5] },
        },
        { file: 'base.gpkg', layer: 'simple', op: 'delete', fid: 3 },
        {
          file: 'base.gpkg',
          layer: 'simple',
          op: 'insert',
          fid: -7,
          values: { name: 'new', rating: 9 },
          geometry: { type: 'Point', coordinates: [-3, 4] },
        },
      ],
    });
    const [history] = await t.database.db
      .select()
      .from(fileHistory)
      .where(and(eq(fileHistory.projectId, p.id), eq(fileHistory.versionName, 2)));
    const diff = history!.diff as { blob_key: string } | null;
    expect(history!.change).toBe('update_diff');
    const chunks: Buffer[] = [];
    for await (const c of await t.app.ctx.blobStore.open(diff!.blob_key)) chunks.push(c as Buffer);
    const changeset = readChangeset(Buffer.concat(chunks));
    expect(changeset.map((g) => [g.name, g.changes.map((c) => c.op).sort()])).toEqual([
      ['simple', ['delete', 'insert', 'update', 'update']],
    ]);
    const previous = await fileAt(p, 1, 'base.gpkg');
    const rebuilt = s.file(`${randomUUID()}.gpkg`);
    await copyFile(previous, rebuilt);
    applyChangeset(rebuilt, changeset);
    const made = await fileAt(p, 2, 'base.gpkg');
    expect(tableRows(rebuilt, 'simple')).toEqual(tableRows(made, 'simple'));
    expect(tableRows(rebuilt, 'rtree_simple_geom')).toEqual(tableRows(made, 'rtree_simple_geom'));
    expect(tableRows(made, 'rtree_simple_geom').map((r) => r.slice(0, 2))).toEqual([
      [1, 1],
      [2, 7.5],
      [4, -3],
    ]);
  });

  it('stores the version a batch makes as its diff; every version reads back byte for byte', async () => {
    const p = await createProject(t, { name: 'stored-as-diff' });
    await commit(t, p.id, { added: { 'base.gpkg': simple } });
    await sent(p, { base_version: 'v1', changes: [update(1, { name: 'first edit' })] });
    await sent(p, { base_version: 'v2', changes: [update(2, { name: 'second edit' })] });
    // The page patches are made after the answers, in the background.
    await fileStoreWorkIdle(t.app.ctx);
    const history = await t.database.db
      .select({
        version: fileHistory.versionName,
        checksum: fileHistory.checksum,
        diff: fileHistory.diff,
        key: blobs.key,
        stored: blobs.stored,
        baseKey: blobs.baseKey,
        diffKey: blobs.diffKey,
        patchKey: blobs.patchKey,
      })
      .from(fileHistory)
      .innerJoin(blobs, eq(blobs.key, fileHistory.blobKey))
      .where(and(eq(fileHistory.projectId, p.id), eq(fileHistory.path, 'base.gpkg')))
      .orderBy(fileHistory.versionName);
    expect(history.map((h) => h.version)).toEqual([1, 2, 3]);
    const [v1, v2, v3] = history as [(typeof history)[0], (typeof history)[0], (typeof history)[0]];
    // v2 and v3: the diff the batch made, on the version before; no bytes in the store.
    for (const [made, before] of [
      [v2, v1],
      [v3, v2],
    ] as const) {
      expect(made).toMatchObject({ stored: false, baseKey: before.key });
      expect(made.diffKey).toBe((made.diff as { blob_key: string }).blob_key);
      expect(await t.app.ctx.blobStore.has(made.key)).toBe(false);
      // Its page patch (file-store/page-patch-store.ts), made after the batch, is stored.
      expect(await t.app.ctx.blobStore.has(made.patchKey!)).toBe(true);
    }
    // Rebuilt from the page patches (the cache emptied), each version is the one recorded.
    await fileCacheOf(t.app.ctx).clear();
    for (const h of history) {
      const local = await fileAt(p, h.version, 'base.gpkg');
      expect(sha1(await readFile(local)), `v${h.version}`).toBe(h.checksum);
    }
    expect((await rows(p, 3)).map((r) => r[2])).toEqual(['first edit', 'second edit', 'feature3']);
  });

  it('stores photos uploaded as v2 chunks in the same version', async () => {
    const photo = Buffer.from('\xff\xd8\xff\xe0 a small jpeg', 'latin1');
    const chunk = await admin.request('POST', `/v2/projects/${survey.id}/chunks`, {
      payload: photo,
      headers: { 'content-type': 'application/octet-stream' },
    });
    expect(chunk.statusCode, chunk.body).toBe(200);
    const before = await latestVersion(survey);
    const result = await sent(survey, {
      base_version: before,
      changes: [
        { file: FILE, layer: 'trees', op: 'update', fid: 1, values: { photo: 'photos/oak.jpg' } },
      ],
      photos: [
        {
          path: 'photos/oak.jpg',
          size: photo.length,
          checksum: sha1(photo),
          chunks: [(chunk.json() as { id: string }).id],
        },
      ],
    });
    expect(result.photos).toEqual(['photos/oak.jpg']);
    const files = await filesAtVersion(t, survey.id, Number(result.version.slice(1)));
    expect(files.get('photos/oak.jpg')).toEqual(photo);
  });

  it('answers a retry with the same Mm-push-id without a second version', async () => {
    const pushId = randomUUID();
    const before = await latestVersion(survey);
    const batch: EditBatch = {
      base_version: before,
      changes: [{ file: FILE, layer: 'trees', op: 'update', fid: 1, values: { notes: 'twice' } }],
    };
    const first = await send(survey, batch, { pushId });
    const again = await send(survey, batch, { pushId });
    expect(first.statusCode, first.body).toBe(201);
    expect(again.statusCode).toBe(201);
    expect(again.json()).toEqual(first.json());
    expect(await latestVersion(survey)).toBe(`v${Number(before.slice(1)) + 1}`);
  });

  it('refuses readers, visitors, read-only layers and missing required values', async () => {
    const batch: EditBatch = {
      base_version: 'v1',
      changes: [{ file: FILE, layer: 'trees', op: 'update', fid: 1, values: { notes: 'x' } }],
    };
    expect((await send(survey, batch, { client: reader })).statusCode).toBe(403);
    expect((await t.client().post(editsUrl(survey), batch)).statusCode).toBe(401);
    const plots = await send(survey, {
      base_version: 'v1',
      changes: [{ file: FILE, layer: 'plots', op: 'delete', fid: 1 }],
    });
    expect(plots.statusCode).toBe(422);
    expect(plots.json()).toMatchObject({
      code: 'ReadOnlyLayer',
      detail: 'Layer plots is read-only',
    });
    const nameless = await send(survey, {
      base_version: 'v1',
      changes: [{ file: FILE, layer: 'trees', op: 'insert', fid: -1, values: { status: 'good' } }],
    });
    expect(nameless.statusCode).toBe(422);
    expect(nameless.json()).toMatchObject({ code: 'NotNull' });
    const unknownTemporary = await send(survey, {
      base_version: 'v1',
      changes: [{ file: FILE, layer: 'trees', op: 'update', fid: -5, values: { notes: 'x' } }],
    });
    expect(unknownTemporary.statusCode).toBe(400);
    const bad = await send(survey, {
      base_version: 'v1',
      changes: [{ file: FILE, layer: 'trees', op: 'update', fid: 1, values: { height: 'tall' } }],
    });
    expect(bad.statusCode).toBe(400);
    const point = await send(survey, {
      base_version: 'v1',
      changes: [
        {
          file: FILE,
          layer: 'trees',
          op: 'update',
          fid: 1,
          geometry: {
            type: 'Polygon',
            coordinates: [
              [
                [0, 0],
                [1, 0],
                [1, 1],
                [0, 0],
              ],
            ],
          },
        },
      ],
    });
    expect(point.statusCode).toBe(400);
    expect(problem(point).detail).toMatch(/Polygon cannot be stored in a POINT layer/);
  });

  it('refuses a change to a column the latest version no longer has, with a clear message', async () => {
    const p = await createProject(t, { name: 'schema-moved' });
    await commit(t, p.id, { added: { 'base.gpkg': simple } });
    await commit(t, p.id, {
      updated: {
        'base.gpkg': await editGeoPackage(s, simple, 'ALTER TABLE simple DROP COLUMN rating'),
      },
    });
    const gone = await send(p, { base_version: 'v1', changes: [update(1, { rating: 5 })] });
    expect(gone.statusCode).toBe(422);
    expect(gone.json()).toMatchObject({
      code: 'UnknownColumn',
      detail: 'Column rating is no longer in layer simple: the change cannot be applied',
    });
    const never = await send(p, { base_version: 'v1', changes: [update(1, { colour: 'red' })] });
    expect(never.statusCode).toBe(400);
    expect(await latestVersion(p)).toBe('v2');
  });
});

describe('rebase onto a version that moved on (geodiff rules)', () => {
  it('case1: each side changed another column: both kept, no conflict', async () => {
    const p = await movedOn('UPDATE simple SET rating = 222 WHERE fid = 2');
    const result = await sent(p, {
      base_version: 'v1',
      changes: [update(2, { name: 'feature222' })],
    });
    expect(result).toMatchObject({
      version: 'v3',
      rebased_onto: 'v2',
      conflict_files: [],
      conflicts: [],
    });
    expect((await rows(p, 3)).find((r) => r[0] === 2)!.slice(2)).toEqual(['feature222', 222]);
  });

  it('case2: both sides made the same change: no version, no conflict', async () => {
    const p = await movedOn(`UPDATE simple SET name = 'feature222', rating = 222 WHERE fid = 2`);
    const result = await sent(
      p,
      { base_version: 'v1', changes: [update(2, { name: 'feature222', rating: 222 })] },
      200,
    );
    expect(result).toMatchObject({ version: 'v2', updated: 0, conflicts: [], conflict_files: [] });
  });

  it('case3: both changed both columns: ours kept, both recorded as an edit conflict', async () => {
    const p = await movedOn(`UPDATE simple SET name = 'feature2B', rating = 21 WHERE fid = 2`);
    const result = await sent(p, {
      base_version: 'v1',
      changes: [{ ...update(2, { name: 'feature2A', rating: 20 }), id: 'c3' }],
    });
    const conflictPath = editConflictPath('base.gpkg', 'admin', 2);
    expect(conflictPath).toBe('base (edit conflict, admin v2).json');
    expect(result).toMatchObject({
      version: 'v3',
      updated: 1,
      conflict_files: [conflictPath],
      conflicts: [
        {
          file: 'base.gpkg',
          layer: 'simple',
          fid: 2,
          change_id: 'c3',
          kind: 'both_changed',
          columns: ['name', 'rating'],
        },
      ],
    });
    expect((await rows(p, 3)).find((r) => r[0] === 2)!.slice(2)).toEqual(['feature2A', 20]);
    expect(await conflictFile(p, 3, conflictPath)).toEqual({
      geodiff: [
        {
          table: 'simple',
          type: 'conflict',
          fid: '2',
          changes: [
            { column: 2, base: 'feature2', old: 'feature2B', new: 'feature2A' },
            { column: 3, base: 2, old: 21, new: 20 },
          ],
        },
      ],
    });
    // The conflicts inbox lists it and reads it field by field.
    const base = `/app/project/conflicts/${t.config.globalWorkspace}/${p.name}`;
    const list = (await admin.get(base)).json() as ConflictList;
    expect(list.conflicts.map((c) => [c.path, c.kind, c.original])).toEqual([
      [conflictPath, 'edit_conflict', 'base.gpkg'],
    ]);
    const read = (
      await admin.get(`${base}/edit?path=${encodeURIComponent(conflictPath)}`)
    ).json() as EditConflict;
    expect(read.fields.map((f) => [f.name, f.base, f.theirs, f.ours])).toEqual([
      ['name', 'feature2', 'feature2B', 'feature2A'],
      ['rating', 2, 21, 20],
    ]);
  });

  it('case4: one column the same, one different: only the different one conflicts', async () => {
    const p = await movedOn(`UPDATE simple SET name = 'feature2B', rating = 222 WHERE fid = 2`);
    const result = await sent(p, {
      base_version: 'v1',
      changes: [update(2, { name: 'feature2A', rating: 222 })],
    });
    expect(result.conflicts.map((c) => c.columns)).toEqual([['name']]);
    expect(await conflictFile(p, 3, result.conflict_files[0]!)).toEqual({
      geodiff: [
        {
          table: 'simple',
          type: 'conflict',
          fid: '2',
          changes: [{ column: 2, base: 'feature2', old: 'feature2B', new: 'feature2A' }],
        },
      ],
    });
  });

  it('update_delete: an update of a feature deleted meanwhile is dropped and recorded', async () => {
    const p = await movedOn('DELETE FROM simple WHERE fid = 2');
    const result = await sent(p, {
      base_version: 'v1',
      changes: [update(2, { name: 'feature2A' }), update(1, { rating: 10 })],
    });
    expect(result.conflicts).toMatchObject([
      { fid: 2, kind: 'deleted_meanwhile', columns: ['name'] },
    ]);
    expect((await rows(p, 3)).map((r) => [r[0], r[3]])).toEqual([
      [1, 10],
      [3, 3],
    ]);
    expect(await conflictFile(p, 3, result.conflict_files[0]!)).toEqual({
      geodiff: [
        {
          table: 'simple',
          type: 'conflict',
          fid: '2',
          changes: [{ column: 2, base: 'feature2', new: 'feature2A' }],
        },
      ],
    });
  });

  it('delete_update: a delete of a feature changed meanwhile deletes it, without conflict', async () => {
    const p = await movedOn(`UPDATE simple SET name = 'moved' WHERE fid = 2`);
    const result = await sent(p, {
      base_version: 'v1',
      changes: [{ file: 'base.gpkg', layer: 'simple', op: 'delete', fid: 2 }],
    });
    expect(result).toMatchObject({ deleted: 1, conflicts: [], conflict_files: [] });
    expect((await rows(p, 3)).map((r) => r[0])).toEqual([1, 3]);
  });

  it('2_deletes: a delete of a feature deleted meanwhile is not needed', async () => {
    const p = await movedOn('DELETE FROM simple WHERE fid = 2');
    const result = await sent(
      p,
      {
        base_version: 'v1',
        changes: [{ file: 'base.gpkg', layer: 'simple', op: 'delete', fid: 2 }],
      },
      200,
    );
    expect(result).toMatchObject({
      version: 'v2',
      deleted: 0,
      conflict_files: [],
      conflicts: [{ fid: 2, kind: 'already_deleted' }],
    });
  });

  it('insert_multiple: inserts whose fids were taken meanwhile move past theirs', async () => {
    const p = await movedOn(
      `INSERT INTO simple (fid, geom, name, rating) SELECT 4, geom, 'theirs4', 4 FROM simple WHERE fid = 1;
       INSERT INTO simple (fid, geom, name, rating) SELECT 5, geom, 'theirs5', 5 FROM simple WHERE fid = 1;`,
    );
    const insert = (fid: number) => ({
      file: 'base.gpkg',
      layer: 'simple',
      op: 'insert' as const,
      fid,
      values: { name: `ours${fid}`, rating: fid },
      geometry: { type: 'Point', coordinates: [fid, -fid] },
    });
    const result = await sent(p, {
      base_version: 'v1',
      changes: [insert(4), insert(5), insert(6)],
    });
    // As geodiff's insert_multiple (A adds 4, 5; B adds 4, 5, 6 → 6, 7, 8 in rebased B).
    expect(result.fids.map((f) => [f.client_fid, f.fid])).toEqual([
      [4, 6],
      [5, 7],
      [6, 8],
    ]);
    expect((await rows(p, 3)).map((r) => [r[0], r[2]])).toEqual([
      [1, 'feature1'],
      [2, 'feature2'],
      [3, 'feature3'],
      [4, 'theirs4'],
      [5, 'theirs5'],
      [6, 'ours4'],
      [7, 'ours5'],
      [8, 'ours6'],
    ]);
    expect(result.conflict_files).toEqual([]);
  });

  it('leaves none of its working files behind (the changesets)', async () => {
    const dir = await scratchDir(t.app.ctx);
    expect(await readdir(path.dirname(dir))).toEqual([path.basename(dir)]);
    expect(await readdir(dir)).toEqual([]);
  });
});
