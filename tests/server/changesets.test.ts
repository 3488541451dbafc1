/**
 * Row-level changesets of GeoPackages: real files made by GDAL's ogr2ogr, versions made by
 * the real push protocol, changesets computed in the background after the commit and read
 * through the API (version detail summary and the changeset call), including the cases
 * whose changes cannot be calculated, the queue's once-only claims and its retries.
 */
import { createHash, randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashPassword } from '../../server/src/auth/passwords';
import { insertUser } from '../../server/src/db/queries/users';
import {
  fileChangesets,
  fileHistory,
  projectMembers,
  type Project,
  type User,
} from '../../server/src/db/schema';
import { ChangesetSchema, type Changeset } from '../../server/src/schemas/changesets';
import { COMPUTE_CHANGESETS_JOB } from '../../server/src/services/changesets';
import {
  CHANGESET_RETRY_MS,
  changesetWorkIdle,
  runPendingChangesets,
} from '../../server/src/services/changesets';
import { CHUNK_SIZE } from '../../server/src/storage/upload-staging';
import {
  editSqlite,
  geopackageFromFeatures,
  pointFeatures,
  scratch,
  type Feature,
  type Scratch,
} from './support/geopackage';
import { contractErrors } from './support/contract';
import { commit, createProject } from './support/seed';
import { createTestApp, problem, type TestApp, type TestClient } from './support/test-app';

const PASSWORD = 'Field-Password-1';
let t: TestApp;
let s: Scratch;
const people: Record<string, User> = {};
const clients = new Map<string, TestClient>();
let projectCount = 0;

const sha1 = (bytes: Buffer) => createHash('sha1').update(bytes).digest('hex');

async function as(username: string): Promise<TestClient> {
  let client = clients.get(username);
  if (!client) {
    client = t.client();
    await client.login(username, PASSWORD);
    clients.set(username, client);
  }
  return client;
}

async function newProject(isPublic = false): Promise<Project> {
  const project = await createProject(t, {
    name: `p${++projectCount}`,
    public: isPublic,
    creatorId: people.alice!.id,
  });
  await t.database.db
    .insert(projectMembers)
    .values({ projectId: project.id, userId: people.alice!.id, role: 'owner' });
  return project;
}

/** One version through the real v1 push: start, chunks, finish. */
async function push(
  project: Project,
  version: string,
  changes: { added?: Record<string, Buffer>; updated?: Record<string, Buffer> },
): Promise<void> {
  const client = await as('alice');
  const chunks = new Map<string, Buffer>();
  const list = (files: Record<string, Buffer> = {}) =>
    Object.entries(files).map(([path, bytes]) => {
      const ids = Array.from({ length: Math.ceil(bytes.length / CHUNK_SIZE) }, () => randomUUID());
      ids.forEach((id, i) => chunks.set(id, bytes.subarray(i * CHUNK_SIZE, (i + 1) * CHUNK_SIZE)));
      return { path, size: bytes.length, checksum: sha1(bytes), chunks: ids };
    });
  const start = await client.post(`/v1/project/push/waymark/${project.name}`, {
    version,
    changes: { added: list(changes.added), updated: list(changes.updated), removed: [] },
  });
  expect(start.statusCode, start.body).toBe(200);
  const { transaction } = start.json() as { transaction: string };
  for (const [id, bytes] of chunks) {
    const response = await client.request('POST', `/v1/project/push/chunk/${transaction}/${id}`, {
      payload: bytes,
      headers: { 'content-type': 'application/octet-stream' },
    });
    expect(response.statusCode).toBe(200);
  }
  const finish = await client.post(`/v1/project/push/finish/${transaction}`);
  expect(finish.statusCode, finish.body).toBe(200);
}

const changesetUrl = (project: Project, version: string, path: string) =>
  `/v1/resource/changesets/waymark/${project.name}/${version}?path=${encodeURIComponent(path)}`;

/** The answer of a changeset, checked against its contract (so the stored text cannot drift). */
function changesetOf(response: { json: () => unknown }): Changeset {
  const answer = response.json();
  expect(contractErrors(ChangesetSchema, answer)).toEqual([]);
  return answer as Changeset;
}

/** Ten trees, then: 3 inserted (11-13), 1 renamed (1), 1 moved (2), 1 deleted (3). */
const BEFORE: Feature[] = pointFeatures(10);
const AFTER: Feature[] = [
  ...BEFORE.filter((f) => f.id !== 3).map((f) => {
    if (f.id === 1) return { ...f, properties: { ...f.properties, name: 'old oak' } };
    if (f.id === 2)
      return { ...f, geometry: { type: 'Point' as const, coordinates: [-0.5, 51.25] } };
    return f;
  }),
  ...pointFeatures(3, 11),
];

let v1: Buffer;
let v2: Buffer;

beforeAll(async () => {
  t = await createTestApp();
  s = await scratch();
  const passwordHash = await hashPassword(PASSWORD);
  for (const username of ['alice', 'mallory']) {
    people[username] = await insertUser(t.database.db, {
      username,
      email: `${username}@example.com`,
      passwordHash,
      verifiedEmail: true,
    });
  }
  v1 = await geopackageFromFeatures(s, 'v1', 'trees', BEFORE);
  v2 = await geopackageFromFeatures(s, 'v2', 'trees', AFTER);
});

afterAll(async () => {
  await t?.close();
  await s?.cleanup();
});

describe('a push that changes a GeoPackage', () => {
  it('shows exactly the inserted, updated and deleted rows with values and geometries', async () => {
    const project = await newProject();
    await push(project, 'v0', { added: { 'data/survey.gpkg': v1 } });
    await push(project, 'v1', { updated: { 'data/survey.gpkg': v2 } });
    // The push returned without waiting; the background work finishes on its own.
    await changesetWorkIdle(t.app.ctx);

    const client = await as('alice');
    const response = await client.get(changesetUrl(project, 'v2', 'data/survey.gpkg'));
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers['content-type']).toMatch(/^application\/json/);
    const entries = changesetOf(response).filter((e) => e.table === 'trees');
    const column = (name: string, type: string, values: { old?: unknown; new?: unknown }) => ({
      column: ['fid', 'geom', 'name', 'height'].indexOf(name),
      name,
      type,
      ...values,
    });
    const inserted = (id: number) => ({
      table: 'trees',
      type: 'insert',
      changes: [
        column('fid', 'integer', { new: id }),
        column('geom', 'geometry', { new: `POINT (${id} 0.5)` }),
        column('name', 'text', { new: `tree ${id}` }),
        column('height', 'double', { new: id * 1.5 }),
      ],
    });
    expect(entries).toEqual([
      inserted(11),
      inserted(12),
      inserted(13),
      {
        table: 'trees',
        type: 'update',
        changes: [
          column('fid', 'integer', { old: 1 }),
          column('name', 'text', { old: 'tree 1', new: 'old oak' }),
        ],
      },
      {
        table: 'trees',
        type: 'update',
        changes: [
          column('fid', 'integer', { old: 2 }),
          column('geom', 'geometry', { old: 'POINT (2 0.5)', new: 'POINT (-0.5 51.25)' }),
        ],
      },
      {
        table: 'trees',
        type: 'delete',
        changes: [
          column('fid', 'integer', { old: 3 }),
          column('geom', 'geometry', { old: 'POINT (3 0.5)' }),
          column('name', 'text', { old: 'tree 3' }),
          column('height', 'double', { old: 4.5 }),
        ],
      },
    ]);
    // Only gpkg_contents besides the layer (GDAL's bookkeeping; the client hides it).
    const tables = new Set(changesetOf(response).map((e) => e.table));
    expect([...tables].filter((name) => name !== 'trees')).toEqual(
      [...tables].filter((name) => name === 'gpkg_contents'),
    );

    // The version carries the summary.
    const detail = await client.get(`/v1/project/version/waymark/${project.name}/v2`);
    const changeset = (detail.json() as { changesets: Record<string, unknown> }).changesets[
      'data/survey.gpkg'
    ] as { status: string; size: number; summary: { table: string }[] };
    expect(changeset.status).toBe('done');
    expect(changeset.size).toBe(Buffer.byteLength(response.body));
    expect(changeset.summary.find((row) => row.table === 'trees')).toEqual({
      table: 'trees',
      insert: 3,
      update: 2,
      delete: 1,
    });
    const list = await client.get(
      `/v1/project/versions/paginated/waymark/${project.name}?page=1&per_page=10`,
    );
    const versions = (list.json() as { versions: { name: string; changesets: object }[] }).versions;
    expect(versions[0]!.changesets).toEqual({ 'data/survey.gpkg': changeset });
    expect(versions[1]!.changesets).toEqual({});
  });

  it('gives the clear result for a table without a primary key, and still makes the version', async () => {
    const withNotes = (rows: string[]) =>
      editSqlite(s, v1, (db) => {
        db.exec('CREATE TABLE notes (txt TEXT)');
        const insert = db.prepare('INSERT INTO notes VALUES (?)');
        for (const row of rows) insert.run(row);
      });
    const project = await newProject();
    await push(project, 'v0', { added: { 'survey.gpkg': await withNotes(['a', 'b']) } });
    await push(project, 'v1', { updated: { 'survey.gpkg': await withNotes(['a', 'c']) } });
    await changesetWorkIdle(t.app.ctx);

    const client = await as('alice');
    const response = await client.get(changesetUrl(project, 'v2', 'survey.gpkg'));
    expect(response.statusCode).toBe(422);
    expect(problem(response).detail).toBe(
      'Changes cannot be calculated: no primary key in table notes',
    );
    const detail = await client.get(`/v1/project/version/waymark/${project.name}/v2`);
    expect(detail.statusCode).toBe(200);
    expect(detail.json()).toMatchObject({
      name: 'v2',
      changes: { updated: [{ path: 'survey.gpkg', change: 'updated' }] },
      changesets: {
        'survey.gpkg': {
          status: 'error',
          size: 0,
          error: 'Changes cannot be calculated: no primary key in table notes',
        },
      },
    });

    // An unchanged table without a primary key does not stand in the way.
    await push(project, 'v2', {
      updated: {
        'survey.gpkg': await editSqlite(s, await withNotes(['a', 'c']), (db) => {
          db.prepare('UPDATE gpkg_contents SET description = ? WHERE table_name = ?').run(
            'surveyed trees',
            'trees',
          );
        }),
      },
    });
    await changesetWorkIdle(t.app.ctx);
    const v3 = await client.get(changesetUrl(project, 'v3', 'survey.gpkg'));
    expect(v3.statusCode).toBe(200);
    expect(v3.json()).toEqual([
      {
        table: 'gpkg_contents',
        type: 'update',
        changes: [
          { column: 0, name: 'table_name', type: 'text', old: 'trees' },
          { column: 3, name: 'description', type: 'text', old: '', new: 'surveyed trees' },
        ],
      },
    ]);
  });

  it('gives the clear result for a schema change, and still makes the version', async () => {
    const project = await newProject();
    const widened = AFTER.map((f) => ({ ...f, properties: { ...f.properties, age: 12 } }));
    await push(project, 'v0', { added: { 'survey.gpkg': v1 } });
    await push(project, 'v1', {
      updated: { 'survey.gpkg': await geopackageFromFeatures(s, 'wide', 'trees', widened) },
    });
    await changesetWorkIdle(t.app.ctx);
    const client = await as('alice');
    const response = await client.get(changesetUrl(project, 'v2', 'survey.gpkg'));
    expect(response.statusCode).toBe(422);
    expect(problem(response).detail).toBe(
      'Changes cannot be calculated: schema changed in table trees',
    );
    const versions = await client.get(
      `/v1/project/versions/paginated/waymark/${project.name}?page=1&per_page=10`,
    );
    expect(versions.json()).toMatchObject({
      count: 2,
      versions: [
        { name: 'v2', changesets: { 'survey.gpkg': { status: 'error' } } },
        { name: 'v1' },
      ],
    });

    // A new layer is a schema change too.
    const layers = await editSqlite(s, v1, (db) =>
      db.exec('CREATE TABLE extra (id INTEGER PRIMARY KEY)'),
    );
    await push(project, 'v2', { updated: { 'survey.gpkg': layers } });
    await changesetWorkIdle(t.app.ctx);
    expect(problem(await client.get(changesetUrl(project, 'v3', 'survey.gpkg'))).detail).toBe(
      'Changes cannot be calculated: schema changed in table extra',
    );
  });

  it('gives the clear result for an unreadable file', async () => {
    const project = await newProject();
    await push(project, 'v0', { added: { 'survey.gpkg': v1 } });
    await push(project, 'v1', { updated: { 'survey.gpkg': Buffer.from('not a database at all') } });
    await changesetWorkIdle(t.app.ctx);
    const response = await (await as('alice')).get(changesetUrl(project, 'v2', 'survey.gpkg'));
    expect(response.statusCode).toBe(422);
    expect(problem(response).detail).toBe('Changes cannot be calculated: file unreadable');
  });
});

describe('GET /v1/resource/changesets/…', () => {
  it('answers 202 while the changes are being calculated, then the list', async () => {
    const project = await newProject(true);
    await commit(t, project.id, { added: { 'data.sqlite': v1, 'a.txt': 'a' } });
    const plain = await editSqlite(s, Buffer.alloc(0), (db) => {
      db.exec('CREATE TABLE readings (id INTEGER PRIMARY KEY, raw BLOB, at DATETIME)');
    });
    await commit(t, project.id, { updated: { 'data.sqlite': plain, 'a.txt': 'b' } });
    const withRow = await editSqlite(s, plain, (db) => {
      db.prepare('INSERT INTO readings VALUES (?, ?, ?)').run(
        7,
        Buffer.from([1, 2, 3]),
        '2026-11-21T10:00:00Z',
      );
    });
    await commit(t, project.id, { updated: { 'data.sqlite': withRow } });
    // Versions made without a push are not started: they wait for the job.
    const anonymous = t.client();
    let response = await anonymous.get(changesetUrl(project, 'v3', 'data.sqlite'));
    expect(response.statusCode).toBe(202);
    expect(response.json()).toEqual({ status: 'pending', detail: 'Changes are being calculated' });
    const detail = await anonymous.get(`/v1/project/version/${project.id}/v3`);
    expect(detail.json()).toMatchObject({
      changesets: { 'data.sqlite': { status: 'pending', size: 0 } },
    });

    expect(await t.app.scheduler.runDue()).toMatchObject({ [COMPUTE_CHANGESETS_JOB]: 'ran' });
    response = await anonymous.get(changesetUrl(project, 'v3', 'data.sqlite'));
    expect(response.statusCode).toBe(200);
    expect(changesetOf(response)).toEqual([
      {
        table: 'readings',
        type: 'insert',
        changes: [
          { column: 0, name: 'id', type: 'integer', new: 7 },
          { column: 1, name: 'raw', type: 'blob', new: 'AQID' },
          { column: 2, name: 'at', type: 'datetime', new: '2026-11-21T10:00:00Z' },
        ],
      },
    ]);
    // v2 replaced a GeoPackage by another database: its tables differ.
    response = await anonymous.get(changesetUrl(project, 'v2', 'data.sqlite'));
    expect(problem(response).detail).toMatch(
      /^Changes cannot be calculated: schema changed in table /,
    );
  });

  it('answers 404 for unknown versions, unchanged files, additions and other files', async () => {
    const project = await newProject(true);
    await commit(t, project.id, { added: { 'a.gpkg': v1, 'b.gpkg': v1, 'notes.txt': 'x' } });
    await commit(t, project.id, { updated: { 'a.gpkg': v2, 'notes.txt': 'y' } });
    await runPendingChangesets(t.app.ctx);
    const client = t.client();
    let response = await client.get(changesetUrl(project, 'v9', 'a.gpkg'));
    expect(response.statusCode).toBe(404);
    expect(problem(response).detail).toBe(
      `Version v9 in project waymark/${project.name} not found`,
    );
    response = await client.get(changesetUrl(project, 'v2', 'b.gpkg'));
    expect(problem(response).detail).toBe('File b.gpkg not found');
    response = await client.get(changesetUrl(project, 'v1', 'a.gpkg'));
    expect(problem(response).detail).toBe('Diff not found');
    response = await client.get(changesetUrl(project, 'v2', 'notes.txt'));
    expect(problem(response).detail).toBe('Diff not found');
    response = await client.get(changesetUrl(project, 'v2', 'a.gpkg'));
    expect(response.statusCode).toBe(200);
    response = await client.get(changesetUrl(project, '2', 'a.gpkg'));
    expect(response.statusCode).toBe(400);
    response = await client.get(`/v1/resource/changesets/waymark/${project.name}/v2`);
    expect(response.statusCode).toBe(400);
  });

  it('follows read access', async () => {
    const project = await newProject();
    await commit(t, project.id, { added: { 'a.gpkg': v1 } });
    await commit(t, project.id, { updated: { 'a.gpkg': v2 } });
    await runPendingChangesets(t.app.ctx);
    const url = changesetUrl(project, 'v2', 'a.gpkg');
    let response = await t.client().get(url);
    expect(response.statusCode).toBe(403);
    expect(problem(response).detail).toBe('You do not have permissions for this project');
    response = await (await as('mallory')).get(url);
    expect(response.statusCode).toBe(403);
    expect((await (await as('alice')).get(url)).statusCode).toBe(200);
  });
});

describe('the changeset queue', () => {
  it('computes each changeset once when several workers run together', async () => {
    const project = await newProject();
    const files = ['a.gpkg', 'b.gpkg', 'c.gpkg', 'd.gpkg'];
    await commit(t, project.id, { added: Object.fromEntries(files.map((f) => [f, v1])) });
    await commit(t, project.id, { updated: Object.fromEntries(files.map((f) => [f, v2])) });
    const handled = await Promise.all([
      runPendingChangesets(t.app.ctx),
      runPendingChangesets(t.app.ctx),
      runPendingChangesets(t.app.ctx),
    ]);
    expect(handled.reduce((a, b) => a + b, 0)).toBe(4);
    const rows = await t.database.db
      .select({ status: fileChangesets.status, attempts: fileChangesets.attempts })
      .from(fileChangesets)
      .where(eq(fileChangesets.projectId, project.id));
    expect(rows).toEqual(files.map(() => ({ status: 'done', attempts: 1 })));
  });

  it('retries a failed computation later, and gives up after three attempts', async () => {
    const project = await newProject();
    await commit(t, project.id, { added: { 'a.gpkg': v1 } });
    await commit(t, project.id, { updated: { 'a.gpkg': v2 } });
    // The old bytes are gone from the store (a broken disk, say).
    const [old] = await t.database.db
      .select({ blobKey: fileHistory.blobKey })
      .from(fileHistory)
      .where(and(eq(fileHistory.projectId, project.id), eq(fileHistory.versionName, 1)));
    await t.app.ctx.blobStore.delete(old!.blobKey!);

    const url = changesetUrl(project, 'v2', 'a.gpkg');
    const alice = await as('alice');
    for (let attempt = 1; attempt <= 3; attempt++) {
      expect(await runPendingChangesets(t.app.ctx)).toBe(1);
      // Not again before the retry time.
      expect(await runPendingChangesets(t.app.ctx)).toBe(0);
      const response = await alice.get(url);
      expect(response.statusCode).toBe(attempt < 3 ? 202 : 422);
      t.clock.advance(CHANGESET_RETRY_MS);
    }
    expect(problem(await alice.get(url)).detail).toBe(
      'Changes cannot be calculated: the calculation failed',
    );
  });
});
