/**
 * GeoPackage changesets in the v2 push (client-compat §5.2, §7; api-reference §1.9): an
 * updated .gpkg entry with `diff` whose chunks hold the changeset makes a version whose file
 * is the stored one with the diff applied, and the diff is served with `diff=True`. A diff on
 * another base is 422 UploadError at the check; one that does not apply is 422 DataSyncError
 * (`failed_files: {path: "sync error: …"}`) and nothing changes.
 */
import { createHash } from 'node:crypto';
import { readFile, writeFile } from 'node:fs/promises';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashPassword } from '../../server/src/auth/passwords';
import { insertUser } from '../../server/src/db/queries/users';
import { projectMembers, type Project, type User } from '../../server/src/db/schema';
import { createChangeset } from '../../server/src/geodiff/create';
import { registerSpatialFunctions } from '../../server/src/geodiff/st-functions';
import { diffWrongBase } from '../../server/src/services/push/diffs';
import { geopackageFromFeatures, pointFeatures, scratch, type Scratch } from './support/geopackage';
import { createProject } from './support/seed';
import { createTestApp, type TestApp, type TestClient } from './support/test-app';

const PASSWORD = 'Field-Password-1';
const FILE = 'data/trees.gpkg';
let t: TestApp;
let s: Scratch;
let alice: User;
let client: TestClient;
let v1: Buffer;
let count = 0;
let n = 0;

const sha1 = (bytes: Uint8Array) => createHash('sha1').update(bytes).digest('hex');

async function fileOf(bytes: Uint8Array): Promise<string> {
  const file = s.file(`f${++n}.gpkg`);
  await writeFile(file, bytes);
  return file;
}

async function edited(bytes: Buffer, sql: string): Promise<Buffer> {
  const file = await fileOf(bytes);
  const db = new Database(file);
  registerSpatialFunctions(db);
  db.exec(sql);
  db.close();
  return readFile(file);
}

function rowsOf(file: string): Record<string, unknown[]> {
  const db = new Database(file, { readonly: true });
  try {
    return Object.fromEntries(
      ['trees', 'gpkg_contents', 'rtree_trees_geom'].map((name) => [
        name,
        db
          .prepare(`SELECT * FROM "${name}" ORDER BY 1`)
          .raw(true)
          .all()
          .map((row) =>
            (row as unknown[]).map((v) => (Buffer.isBuffer(v) ? v.toString('hex') : v)),
          ),
      ]),
    );
  } finally {
    db.close();
  }
}

async function newProject(): Promise<Project> {
  const project = await createProject(t, { name: `d${++count}`, creatorId: alice.id });
  await t.database.db
    .insert(projectMembers)
    .values({ projectId: project.id, userId: alice.id, role: 'owner' });
  return project;
}

async function chunk(project: Project, bytes: Uint8Array): Promise<string> {
  const response = await client.request('POST', `/v2/projects/${project.id}/chunks`, {
    payload: Buffer.from(bytes),
    headers: { 'content-type': 'application/octet-stream' },
  });
  expect(response.statusCode, response.body).toBe(200);
  return (response.json() as { id: string }).id;
}

function versions(
  project: Project,
  version: string,
  changes: { added?: unknown[]; updated?: unknown[] },
) {
  return client.post(`/v2/projects/${project.id}/versions`, {
    version,
    changes: { added: changes.added ?? [], updated: changes.updated ?? [], removed: [] },
  });
}

/** A diff-update entry as the python client makes it, its diff sent as a v2 chunk. */
async function diffEntry(project: Project, base: Uint8Array, newSize: number, diff: Uint8Array) {
  return {
    path: FILE,
    size: newSize,
    checksum: sha1(base),
    chunks: [await chunk(project, diff)],
    diff: { path: `${FILE}-diff-${count}-${++n}`, checksum: sha1(diff), size: diff.length },
  };
}

const raw = (project: Project, query: string) =>
  client.get(`/v1/project/raw/${t.config.globalWorkspace}/${project.name}?${query}`);

/** A project whose v1 holds FILE = v1. */
async function projectWithV1(): Promise<Project> {
  const project = await newProject();
  const added = await versions(project, 'v0', {
    added: [
      { path: FILE, size: v1.length, checksum: sha1(v1), chunks: [await chunk(project, v1)] },
    ],
  });
  expect(added.statusCode, added.body).toBe(201);
  return project;
}

const EDIT = `UPDATE trees SET name = 'renamed' WHERE fid = 1;
  DELETE FROM trees WHERE fid IN (5, 6);
  INSERT INTO trees (fid, geom, name, height) SELECT 100, geom, 'new tree', 7.25 FROM trees WHERE fid = 9;`;

beforeAll(async () => {
  t = await createTestApp();
  s = await scratch();
  alice = await insertUser(t.database.db, {
    username: 'alice',
    email: 'alice@example.com',
    passwordHash: await hashPassword(PASSWORD),
    verifiedEmail: true,
  });
  client = t.client();
  await client.login('alice', PASSWORD);
  v1 = await geopackageFromFeatures(s, 'v1', 'trees', pointFeatures(30));
});

afterAll(async () => {
  await t?.close();
  await s?.cleanup();
});

describe('v2 push with GeoPackage diffs', () => {
  it('applies a diff: the new file has its rows, and diff=True serves the diff', async () => {
    const project = await projectWithV1();
    const v2 = await edited(v1, EDIT);
    const aliceFile = await fileOf(v2);
    const diff = createChangeset(await fileOf(v1), aliceFile);
    expect(diff.length).toBeGreaterThan(0);
    const entry = await diffEntry(project, v1, v2.length, diff);

    const check = await client.post(`/v2/projects/${project.id}/versions`, {
      version: 'v1',
      check_only: true,
      changes: { added: [], updated: [entry], removed: [] },
    });
    expect(check.statusCode, check.body).toBe(204);
    const response = await versions(project, 'v1', { updated: [entry] });
    expect(response.statusCode, response.body).toBe(201);
    const body = response.json() as {
      version: string;
      files: { path: string; checksum: string; size: number }[];
    };
    expect(body.version).toBe('v2');
    const listed = body.files.find((f) => f.path === FILE)!;

    const latest = await raw(project, `file=${FILE}&version=v2&diff=False`);
    expect(latest.statusCode).toBe(200);
    expect(sha1(latest.rawPayload)).toBe(listed.checksum);
    expect(latest.rawPayload.length).toBe(listed.size);
    expect(rowsOf(await fileOf(latest.rawPayload))).toEqual(rowsOf(aliceFile));
    expect(rowsOf(await fileOf(latest.rawPayload))).not.toEqual(rowsOf(await fileOf(v1)));

    const served = await raw(project, `file=${FILE}&version=v2&diff=True`);
    expect(served.statusCode).toBe(200);
    expect(served.rawPayload.equals(Buffer.from(diff))).toBe(true);
    const history = await client.get(
      `/v1/project/${t.config.globalWorkspace}/${project.name}?since=v1`,
    );
    const file = (
      history.json() as { files: { path: string; history: Record<string, { diff?: unknown }> }[] }
    ).files.find((f) => f.path === FILE)!;
    expect(file.history.v2!.diff).toEqual(entry.diff);
  });

  it('refuses a diff on another base, and one that does not apply, changing nothing', async () => {
    const project = await projectWithV1();
    const v2 = await edited(v1, EDIT);
    const diff = createChangeset(await fileOf(v1), await fileOf(v2));
    const ok = await versions(project, 'v1', {
      updated: [await diffEntry(project, v1, v2.length, diff)],
    });
    expect(ok.statusCode, ok.body).toBe(201);
    const stored = (await raw(project, `file=${FILE}`)).rawPayload;

    // Declared on v1's bytes while the project holds the applied file.
    const wrongBase = await versions(project, 'v2', {
      updated: [await diffEntry(project, v1, v2.length, diff)],
    });
    expect(wrongBase.statusCode).toBe(422);
    expect(wrongBase.json()).toMatchObject({
      code: 'UploadError',
      detail: `${diffWrongBase(FILE)} (UploadError)`,
    });

    // The same diff on the right base: applied twice, it does not apply; nor do junk bytes.
    for (const bytes of [diff, Buffer.from([0x54, 0x09])]) {
      const refused = await versions(project, 'v2', {
        updated: [await diffEntry(project, stored, v2.length, bytes)],
      });
      expect(refused.statusCode, refused.body).toBe(422);
      const problem = refused.json() as { code: string; failed_files: Record<string, string> };
      expect(problem.code).toBe('DataSyncError');
      expect(Object.keys(problem.failed_files)).toEqual([FILE]);
      expect(problem.failed_files[FILE]).toMatch(/^sync error: /);
    }
    const after = await client.get(`/v1/project/${t.config.globalWorkspace}/${project.name}`);
    expect(after.json().version).toBe('v2');
    expect((await raw(project, `file=${FILE}`)).rawPayload.equals(stored)).toBe(true);
  });
});
