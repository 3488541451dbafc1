/**
 * Conflict files (issue 20, schemas/conflicts.ts) as the desktop client leaves them: listed
 * with their originals; 'Keep this copy' (the original gets the copy's bytes, the copy goes)
 * and 'Discard copy' as new versions; edit-conflict files read as base / ours / theirs per
 * field and kept by writing theirs back into the GeoPackage; 4xx answers.
 */
import { writeFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { upsertProjectMembers } from '../../server/src/db/queries/projects';
import type { Project } from '../../server/src/db/schema';
import type { ConflictList, EditConflict } from '../../server/src/schemas/conflicts';
import {
  editGeoPackage,
  geopackageFromFeatures,
  pointFeatures,
  scratch,
  tableRows,
  type Scratch,
} from './support/geopackage';
import { PythonClient, sha1 } from './support/python-client';
import { createProject, filesAtVersion, signedInUser } from './support/seed';
import { ADMIN_PASSWORD, createTestApp, type TestApp, type TestClient } from './support/test-app';

const COPY = 'notes (conflicted copy, admin v1).txt';
const QGIS_COPY = 'maps/proj (conflicted copy, admin v1).qgz~';
const EDIT = 'survey (edit conflict, admin v2).json';
const GPKG_COPY = 'survey (conflicted copy, admin v1).gpkg';
let t: TestApp;
let s: Scratch;
let admin: TestClient;
let reader: TestClient;
let desktop: PythonClient;
let project: Project;
let survey: Buffer;

const base = () => `${t.config.globalWorkspace}/${project.name}`;
const resolve = (client: TestClient, path: string, action: string) =>
  client.post(`/app/project/conflicts/${base()}/resolve`, { path, action });

const editConflict = {
  geodiff: [
    {
      table: 'trees',
      type: 'conflict',
      fid: '1',
      changes: [{ column: 2, base: 'tree 1', old: 'theirs', new: 'ours' }],
    },
    {
      table: 'trees',
      type: 'conflict',
      fid: '2',
      // The file no longer holds ours (4): left alone.
      changes: [{ column: 3, base: 3, old: 30, new: 4 }],
    },
  ],
};

beforeAll(async () => {
  t = await createTestApp();
  s = await scratch();
  admin = t.client();
  await admin.login('admin', ADMIN_PASSWORD);
  const { user, client } = await signedInUser(t, 'reader');
  reader = client;
  desktop = new PythonClient(t.app);
  await desktop.login('admin', ADMIN_PASSWORD);

  const v1 = await geopackageFromFeatures(s, 'survey', 'trees', pointFeatures(5));
  survey = await editGeoPackage(s, v1, `UPDATE trees SET name = 'ours' WHERE fid = 1`);
  project = await createProject(t, { name: 'conflicts' });
  await upsertProjectMembers(t.database.db, project.id, [{ userId: user.id, role: 'reader' }]);
  // The desktop client pushes the project, then the files a conflicting pull left.
  await desktop.pushV1(base(), 'v0', {
    added: {
      'notes.txt': Buffer.from('server notes'),
      'maps/proj.qgz': Buffer.from('qgis project'),
      'survey.gpkg': survey,
    },
  });
  await desktop.pushV1(base(), 'v1', {
    added: {
      [COPY]: Buffer.from('my field notes'),
      [QGIS_COPY]: Buffer.from('my qgis project'),
      [EDIT]: Buffer.from(JSON.stringify(editConflict, null, 3)),
      [GPKG_COPY]: await editGeoPackage(s, survey, `UPDATE trees SET height = 77 WHERE fid = 3`),
      'broken (edit conflict, admin v2).json': Buffer.from('{"geodiff": 3}'),
    },
  });
});

afterAll(async () => {
  await s?.cleanup();
  await t?.close();
});

describe('GET /app/project/conflicts/{namespace}/{name}', () => {
  it('lists the conflict files with the file each refers to', async () => {
    const response = await reader.get(`/app/project/conflicts/${base()}`);
    expect(response.statusCode, response.body).toBe(200);
    const { conflicts } = response.json() as ConflictList;
    expect(conflicts.map((c) => [c.path, c.kind, c.original, c.original_exists])).toEqual([
      ['broken (edit conflict, admin v2).json', 'edit_conflict', null, false],
      [QGIS_COPY, 'conflicted_copy', 'maps/proj.qgz', true],
      [COPY, 'conflicted_copy', 'notes.txt', true],
      [GPKG_COPY, 'conflicted_copy', 'survey.gpkg', true],
      [EDIT, 'edit_conflict', 'survey.gpkg', true],
    ]);
    expect(conflicts.find((c) => c.path === COPY)).toMatchObject({
      user: 'admin',
      version: 'v1',
      size: 14,
      checksum: sha1(Buffer.from('my field notes')),
    });
  });
});

describe('GET /app/project/conflicts/{namespace}/{name}/edit', () => {
  it('reads base, ours and theirs per field with the column names', async () => {
    const response = await reader.get(
      `/app/project/conflicts/${base()}/edit?path=${encodeURIComponent(EDIT)}`,
    );
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toEqual({
      path: EDIT,
      original: 'survey.gpkg',
      original_exists: true,
      user: 'admin',
      version: 'v2',
      fields: [
        {
          table: 'trees',
          fid: '1',
          column: 2,
          name: 'name',
          base: 'tree 1',
          ours: 'ours',
          theirs: 'theirs',
        },
        { table: 'trees', fid: '2', column: 3, name: 'height', base: 3, ours: 4, theirs: 30 },
      ],
    } satisfies EditConflict);
  });

  it('answers 400 for other files and unreadable ones, 404 for missing ones', async () => {
    const edit = (path: string) =>
      reader.get(`/app/project/conflicts/${base()}/edit?path=${encodeURIComponent(path)}`);
    expect((await edit(COPY)).statusCode).toBe(400);
    expect((await edit('notes.txt')).statusCode).toBe(400);
    expect((await edit('broken (edit conflict, admin v2).json')).statusCode).toBe(400);
    expect((await edit('gone (edit conflict, admin v2).json')).statusCode).toBe(404);
  });
});

describe('GET /app/project/conflicts/{namespace}/{name}/rows', () => {
  const rows = (path: string, extra = '') =>
    reader.get(`/app/project/conflicts/${base()}/rows?path=${encodeURIComponent(path)}${extra}`);

  it('shows the rows a GeoPackage copy changes against its original', async () => {
    const response = await rows(GPKG_COPY);
    expect(response.statusCode, response.body).toBe(200);
    const body = response.json();
    expect(body).toMatchObject({
      path: GPKG_COPY,
      original: 'survey.gpkg',
      original_exists: true,
      status: 'done',
      summary: [{ table: 'trees', insert: 0, update: 1, delete: 0 }],
      count: 1,
    });
    expect(
      body.entries[0].changes.find((c: { name: string }) => c.name === 'height'),
    ).toMatchObject({
      old: 4.5,
      new: 77,
    });
  });

  it('answers 400 for other files, 404 for missing ones', async () => {
    expect((await rows(COPY)).statusCode).toBe(400);
    expect((await rows(EDIT)).statusCode).toBe(400);
    expect((await rows('survey.gpkg')).statusCode).toBe(400);
    expect((await rows('gone (conflicted copy, a v1).gpkg')).statusCode).toBe(404);
    expect((await rows(GPKG_COPY, '&per_page=0')).statusCode).toBe(400);
  });
});

describe('POST /app/project/conflicts/{namespace}/{name}/resolve', () => {
  it("'Keep this copy': the original holds the copy's bytes and the copy is gone", async () => {
    const response = await resolve(admin, COPY, 'keep');
    expect(response.statusCode, response.body).toBe(201);
    expect(response.json()).toEqual({
      version: 'v3',
      origin: { action: 'keep_copy', version: null, path: COPY, original: 'notes.txt' },
      changes: { added: 0, updated: 1, removed: 1 },
    });
    const files = await filesAtVersion(t, project.id, 3);
    expect(files.get('notes.txt')!.toString()).toBe('my field notes');
    expect(files.has(COPY)).toBe(false);
    const detail = await reader.get(`/v1/project/version/${base()}/v3`);
    expect(detail.json().origin).toMatchObject({ action: 'keep_copy', original: 'notes.txt' });
  });

  it("'Discard copy': a version without the copy, the original unchanged", async () => {
    const response = await resolve(admin, QGIS_COPY, 'discard');
    expect(response.statusCode, response.body).toBe(201);
    expect(response.json().origin).toEqual({
      action: 'discard_copy',
      version: null,
      path: QGIS_COPY,
      original: null,
    });
    const files = await filesAtVersion(t, project.id, 4);
    expect(files.has(QGIS_COPY)).toBe(false);
    expect(files.get('maps/proj.qgz')!.toString()).toBe('qgis project');
  });

  it('keeping an edit conflict writes theirs back where the file still holds ours', async () => {
    const response = await resolve(admin, EDIT, 'keep');
    expect(response.statusCode, response.body).toBe(201);
    expect(response.json().changes).toEqual({ added: 0, updated: 1, removed: 1 });
    const files = await filesAtVersion(t, project.id, 5);
    expect(files.has(EDIT)).toBe(false);
    const file = s.file('kept.gpkg');
    await writeFile(file, files.get('survey.gpkg')!);
    const rows = tableRows(file, 'trees') as unknown[][];
    expect(rows[0]![2]).toBe('theirs');
    expect(rows[1]![3]).toBe(3);
    // Stored as a diff update, as the clients pull it.
    const detail = await reader.get(`/v1/project/version/${base()}/v5`);
    const updated = detail.json().changes.updated as { path: string; diff?: unknown }[];
    expect(updated.find((f) => f.path === 'survey.gpkg')!.diff).toBeDefined();
  });

  it('refuses readers, other files, missing ones and unknown actions', async () => {
    const broken = 'broken (edit conflict, admin v2).json';
    expect((await resolve(reader, broken, 'discard')).statusCode).toBe(403);
    expect((await resolve(admin, 'notes.txt', 'discard')).statusCode).toBe(400);
    expect((await resolve(admin, COPY, 'discard')).statusCode).toBe(404);
    expect((await resolve(admin, broken, 'merge')).statusCode).toBe(400);
    // An edit conflict without its GeoPackage cannot be kept; it can be discarded.
    expect((await resolve(admin, broken, 'keep')).statusCode).toBe(400);
    expect((await resolve(admin, broken, 'discard')).statusCode).toBe(201);
    expect((await resolve(admin, GPKG_COPY, 'discard')).statusCode).toBe(201);
    const { conflicts } = (
      await reader.get(`/app/project/conflicts/${base()}`)
    ).json() as ConflictList;
    expect(conflicts).toEqual([]);
  });
});
