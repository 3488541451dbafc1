/**
 * GeoPackage diffs through the real push and download protocol: a client pushes a changeset
 * instead of the whole file, the server checks and applies it, and another client pulls the
 * diff (`diff=True`) and applies it locally with the same rows as a result; a diff for
 * another base is refused with nothing changed; a file uploaded whole gets its diff
 * computed by the server; the row-level history of a diff push comes from the diff.
 */
import { createHash, randomUUID } from 'node:crypto';
import { readFile, writeFile } from 'node:fs/promises';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashPassword } from '../../server/src/auth/passwords';
import { insertUser } from '../../server/src/db/queries/users';
import { projectMembers, type Project, type User } from '../../server/src/db/schema';
import { applyChangeset } from '../../server/src/geodiff/apply';
import { createChangeset } from '../../server/src/geodiff/create';
import { registerSpatialFunctions } from '../../server/src/geodiff/st-functions';
import { diffSqliteFiles } from '../../server/src/lib/sqlite-diff';
import { changesetWorkIdle } from '../../server/src/services/changesets';
import {
  diffDoesNotApply,
  diffOnlyForUpdates,
  diffOnlyForVersioned,
  diffWrongBase,
  invalidDiff,
} from '../../server/src/services/push/diffs';
import { geopackageFromFeatures, pointFeatures, scratch, type Scratch } from './support/geopackage';
import { createProject } from './support/seed';
import { createTestApp, problem, type TestApp, type TestClient } from './support/test-app';

const PASSWORD = 'Field-Password-1';
const FILE = 'data/trees.gpkg';
let t: TestApp;
let s: Scratch;
let ns: string;
const people: Record<string, User> = {};
const clients = new Map<string, TestClient>();
let projectCount = 0;
let n = 0;

const sha1 = (bytes: Uint8Array) => createHash('sha1').update(bytes).digest('hex');

async function as(username: string): Promise<TestClient> {
  let client = clients.get(username);
  if (!client) {
    client = t.client();
    await client.login(username, PASSWORD);
    clients.set(username, client);
  }
  return client;
}

async function newProject(): Promise<Project> {
  const project = await createProject(t, {
    name: `g${++projectCount}`,
    creatorId: people.alice!.id,
  });
  await t.database.db.insert(projectMembers).values([
    { projectId: project.id, userId: people.alice!.id, role: 'owner' },
    { projectId: project.id, userId: people.bob!.id, role: 'reader' },
  ]);
  return project;
}

/** A file in the scratch folder holding `bytes`. */
async function fileOf(bytes: Uint8Array): Promise<string> {
  const file = s.file(`f${++n}.gpkg`);
  await writeFile(file, bytes);
  return file;
}

/** Edits a copy of a GeoPackage as a GIS client would (triggers and R-tree included). */
async function edited(bytes: Buffer, sql: string): Promise<Buffer> {
  const file = await fileOf(bytes);
  const db = new Database(file);
  registerSpatialFunctions(db);
  db.exec(sql);
  db.close();
  return readFile(file);
}

/** Every row of the user tables, gpkg_contents and the R-tree, ordered. */
function rowsOf(file: string): Record<string, unknown[]> {
  const db = new Database(file, { readonly: true });
  try {
    const names = ['trees', 'gpkg_contents', 'rtree_trees_geom'];
    return Object.fromEntries(
      names.map((name) => [
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

interface PushEntry {
  path: string;
  size: number;
  checksum: string;
  chunks: string[];
  diff?: unknown;
}

/** Push start with raw entries, then the chunks, then finish; returns the finish reply. */
async function push(
  client: TestClient,
  project: Project,
  version: string,
  changes: { added?: PushEntry[]; updated?: PushEntry[] },
  chunks: Map<string, Uint8Array>,
) {
  const start = await client.post(`/v1/project/push/${ns}/${project.name}`, {
    version,
    changes: { added: changes.added ?? [], updated: changes.updated ?? [], removed: [] },
  });
  expect(start.statusCode, start.body).toBe(200);
  const { transaction } = start.json() as { transaction: string };
  for (const [id, bytes] of chunks) {
    const sent = await client.request('POST', `/v1/project/push/chunk/${transaction}/${id}`, {
      payload: Buffer.from(bytes),
      headers: { 'content-type': 'application/octet-stream' },
    });
    expect(sent.statusCode, sent.body).toBe(200);
  }
  return client.post(`/v1/project/push/finish/${transaction}`);
}

/** A whole-file entry (one chunk; test files are small). */
function whole(path: string, bytes: Uint8Array, chunks: Map<string, Uint8Array>): PushEntry {
  const id = randomUUID();
  chunks.set(id, bytes);
  return { path, size: bytes.length, checksum: sha1(bytes), chunks: [id] };
}

/** A diff-update entry as the python client makes it (client-compat §5). */
function diffEntry(
  path: string,
  base: Uint8Array,
  newSize: number,
  diff: Uint8Array,
  chunks: Map<string, Uint8Array>,
): PushEntry {
  const id = randomUUID();
  chunks.set(id, diff);
  return {
    path,
    size: newSize,
    checksum: sha1(base),
    chunks: [id],
    diff: { path: `${path}-diff-${randomUUID()}`, checksum: sha1(diff), size: diff.length },
  };
}

const raw = (client: TestClient, project: Project, query: string) =>
  client.get(`/v1/project/raw/${ns}/${project.name}?${query}`);

let v1: Buffer;

beforeAll(async () => {
  t = await createTestApp();
  ns = t.config.globalWorkspace;
  s = await scratch();
  const passwordHash = await hashPassword(PASSWORD);
  for (const username of ['alice', 'bob']) {
    people[username] = await insertUser(t.database.db, {
      username,
      email: `${username}@example.com`,
      passwordHash,
      verifiedEmail: true,
    });
  }
  v1 = await geopackageFromFeatures(s, 'v1', 'trees', pointFeatures(30));
});

afterAll(async () => {
  await t?.close();
  await s?.cleanup();
});

const EDIT_1 = `UPDATE trees SET name = 'renamed' WHERE fid = 1;
  UPDATE trees SET geom = (SELECT geom FROM trees WHERE fid = 20) WHERE fid = 2;
  DELETE FROM trees WHERE fid IN (5, 6);
  INSERT INTO trees (fid, geom, name, height) SELECT 100, geom, 'new tree', 7.25 FROM trees WHERE fid = 9;`;

describe('a push by diff and a pull by diff', () => {
  it('gives the same rows at both clients, and history from the diff', async () => {
    const project = await newProject();
    const alice = await as('alice');
    const bob = await as('bob');
    let chunks = new Map<string, Uint8Array>();
    const first = await push(alice, project, 'v0', { added: [whole(FILE, v1, chunks)] }, chunks);
    expect(first.statusCode, first.body).toBe(200);

    // Bob downloads v1 (his basefile).
    const bobBase = await raw(bob, project, `file=${FILE}&version=v1&diff=False`);
    expect(bobBase.statusCode).toBe(200);
    const bobFile = await fileOf(bobBase.rawPayload);

    // Alice edits and pushes a diff.
    const v2 = await edited(v1, EDIT_1);
    const aliceFile = await fileOf(v2);
    const diff = createChangeset(await fileOf(v1), aliceFile);
    expect(diff.length).toBeGreaterThan(0);
    chunks = new Map();
    const entry = diffEntry(FILE, v1, v2.length, diff, chunks);
    const second = await push(alice, project, 'v1', { updated: [entry] }, chunks);
    expect(second.statusCode, second.body).toBe(200);
    const detail = second.json() as {
      version: string;
      files: { path: string; checksum: string; size: number; diff?: unknown }[];
    };
    expect(detail.version).toBe('v2');
    const listed = detail.files.find((f) => f.path === FILE)!;
    expect(listed.diff).toEqual(entry.diff);

    // The stored file is v1 with the diff applied: its checksum and size are listed.
    const latest = await raw(alice, project, `file=${FILE}&version=v2&diff=False`);
    expect(sha1(latest.rawPayload)).toBe(listed.checksum);
    expect(latest.rawPayload.length).toBe(listed.size);
    const stored = await fileOf(latest.rawPayload);
    expect(rowsOf(stored)).toEqual(rowsOf(aliceFile));

    // Bob pulls: the history offers the diff, he downloads it and applies it.
    const since = await bob.get(`/v1/project/${ns}/${project.name}?since=v1`);
    expect(since.statusCode).toBe(200);
    const file = (
      since.json() as { files: { path: string; history: Record<string, { diff?: unknown }> }[] }
    ).files.find((f) => f.path === FILE)!;
    expect(file.history.v2!.diff).toEqual(entry.diff);
    const pulled = await raw(bob, project, `file=${FILE}&version=v2&diff=True`);
    expect(pulled.statusCode).toBe(200);
    expect(Buffer.from(diff).equals(pulled.rawPayload)).toBe(true);
    applyChangeset(bobFile, new Uint8Array(pulled.rawPayload));
    expect(rowsOf(bobFile)).toEqual(rowsOf(aliceFile));

    // Row-level history comes from the diff: the same changes a comparison finds.
    await changesetWorkIdle(t.app.ctx);
    const history = await alice.get(
      `/v1/resource/changesets/${ns}/${project.name}/v2?path=${encodeURIComponent(FILE)}`,
    );
    expect(history.statusCode, history.body).toBe(200);
    const compared = await diffSqliteFiles(await fileOf(v1), aliceFile);
    // Stored as jsonb: compared whatever the order of keys.
    const canon = (v: unknown): unknown =>
      Array.isArray(v)
        ? v.map(canon)
        : v && typeof v === 'object'
          ? Object.fromEntries(
              Object.keys(v)
                .sort()
                .map((k) => [k, canon((v as Record<string, unknown>)[k])]),
            )
          : v;
    const key = (e: unknown) => JSON.stringify(canon(e));
    expect((history.json() as unknown[]).map(key).sort()).toEqual(compared.entries.map(key).sort());
  });

  it('refuses a diff for another base, and one that does not apply, changing nothing', async () => {
    const project = await newProject();
    const alice = await as('alice');
    let chunks = new Map<string, Uint8Array>();
    expect(
      (await push(alice, project, 'v0', { added: [whole(FILE, v1, chunks)] }, chunks)).statusCode,
    ).toBe(200);
    const v2 = await edited(v1, EDIT_1);
    const diff = createChangeset(await fileOf(v1), await fileOf(v2));
    chunks = new Map();
    const ok = await push(
      alice,
      project,
      'v1',
      { updated: [diffEntry(FILE, v1, v2.length, diff, chunks)] },
      chunks,
    );
    expect(ok.statusCode, ok.body).toBe(200);
    const storedV2 = (await raw(alice, project, `file=${FILE}`)).rawPayload;

    // Based on v1's bytes while the project holds v2: refused at push start.
    const start = await alice.post(`/v1/project/push/${ns}/${project.name}`, {
      version: 'v2',
      changes: {
        added: [],
        updated: [diffEntry(FILE, v1, v2.length, diff, new Map())],
        removed: [],
      },
    });
    expect(start.statusCode).toBe(400);
    expect(problem(start).detail).toBe(diffWrongBase(FILE));

    // The same diff again, declared on the right base: it does not apply (applied twice).
    chunks = new Map();
    const again = await push(
      alice,
      project,
      'v2',
      { updated: [diffEntry(FILE, storedV2, v2.length, diff, chunks)] },
      chunks,
    );
    expect(again.statusCode).toBe(422);
    expect(problem(again).detail).toMatch(
      new RegExp(`^${diffDoesNotApply(FILE, '').replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}`),
    );
    const after = await alice.get(`/v1/project/${ns}/${project.name}`);
    expect(after.json().version).toBe('v2');
    expect((await raw(alice, project, `file=${FILE}`)).rawPayload.equals(storedV2)).toBe(true);

    // Not a changeset at all.
    chunks = new Map();
    const junk = await push(
      alice,
      project,
      'v2',
      { updated: [diffEntry(FILE, storedV2, v2.length, Buffer.from([0x54, 0x09]), chunks)] },
      chunks,
    );
    expect(junk.statusCode).toBe(422);
    expect((await alice.get(`/v1/project/${ns}/${project.name}`)).json().version).toBe('v2');
  });

  it('refuses malformed diff entries at push start', async () => {
    const project = await newProject();
    const alice = await as('alice');
    const chunks = new Map<string, Uint8Array>();
    const added = await push(
      alice,
      project,
      'v0',
      { added: [whole(FILE, v1, chunks), whole('notes.txt', Buffer.from('x'), chunks)] },
      chunks,
    );
    expect(added.statusCode).toBe(200);
    const start = (changes: { added?: PushEntry[]; updated?: PushEntry[] }) =>
      alice.post(`/v1/project/push/${ns}/${project.name}`, {
        version: 'v1',
        changes: { added: changes.added ?? [], updated: changes.updated ?? [], removed: [] },
      });
    const diff = Buffer.from([0x54, 1, 1, 0x74, 0]);
    const cases: [PushEntry[], PushEntry[], string][] = [
      [[diffEntry('other.gpkg', v1, 10, diff, new Map())], [], diffOnlyForUpdates('other.gpkg')],
      [
        [],
        [diffEntry('notes.txt', Buffer.from('x'), 1, diff, new Map())],
        diffOnlyForVersioned('notes.txt'),
      ],
      [
        [],
        [{ ...diffEntry(FILE, v1, 10, diff, new Map()), diff: { path: 'x' } }],
        invalidDiff(FILE),
      ],
    ];
    for (const [addedEntries, updatedEntries, detail] of cases) {
      const response = await start({ added: addedEntries, updated: updatedEntries });
      expect(response.statusCode, detail).toBe(400);
      expect(problem(response).detail).toBe(detail);
    }
    const text = await start({
      updated: [{ ...diffEntry(FILE, v1, 10, diff, new Map()), diff: 'text' }],
    });
    expect(text.statusCode).toBe(400);
    expect(problem(text).detail).toMatch(/diff/);
  });
});

describe('a GeoPackage uploaded whole', () => {
  it('gets its diff computed, so a pull can take the diff', async () => {
    const project = await newProject();
    const alice = await as('alice');
    const bob = await as('bob');
    let chunks = new Map<string, Uint8Array>();
    expect(
      (await push(alice, project, 'v0', { added: [whole(FILE, v1, chunks)] }, chunks)).statusCode,
    ).toBe(200);
    const v2 = await edited(v1, EDIT_1);
    chunks = new Map();
    const second = await push(alice, project, 'v1', { updated: [whole(FILE, v2, chunks)] }, chunks);
    expect(second.statusCode, second.body).toBe(200);
    await changesetWorkIdle(t.app.ctx);

    const since = await bob.get(`/v1/project/${ns}/${project.name}?since=v1`);
    const file = (
      since.json() as {
        files: {
          path: string;
          checksum: string;
          history: Record<string, { diff?: { path: string; size: number } }>;
        }[];
      }
    ).files.find((f) => f.path === FILE)!;
    // The whole file is still what is listed; the history offers a diff as well.
    expect(file.checksum).toBe(sha1(v2));
    const offered = file.history.v2!.diff!;
    expect(offered.path).toMatch(/^data\/trees\.gpkg-diff-/);
    const pulled = await raw(bob, project, `file=${FILE}&version=v2&diff=True`);
    expect(pulled.statusCode).toBe(200);
    expect(pulled.rawPayload.length).toBe(offered.size);
    const bobFile = await fileOf(v1);
    applyChangeset(bobFile, new Uint8Array(pulled.rawPayload));
    expect(rowsOf(bobFile)).toEqual(rowsOf(await fileOf(v2)));
    // Like the reference, the update became a diff update.
    const versions = await alice.get(
      `/v1/project/versions/paginated/${ns}/${project.name}?page=1&per_page=10&descending=False`,
    );
    expect(versions.statusCode, versions.body).toBe(200);
    const listedV2 = (
      versions.json() as { versions: { name: string; changes: Record<string, number> }[] }
    ).versions.find((v) => v.name === 'v2')!;
    expect(listedV2.changes).toMatchObject({ updated: 0, updated_diff: 1 });
    // The row-level history still comes from comparing the files.
    const history = await alice.get(
      `/v1/resource/changesets/${ns}/${project.name}/v2?path=${encodeURIComponent(FILE)}`,
    );
    expect(history.statusCode, history.body).toBe(200);
    expect((history.json() as unknown[]).length).toBe(5);
  });

  it('gets no diff when its tables changed shape', async () => {
    const project = await newProject();
    const alice = await as('alice');
    let chunks = new Map<string, Uint8Array>();
    await push(alice, project, 'v0', { added: [whole(FILE, v1, chunks)] }, chunks);
    const v2 = await edited(v1, 'ALTER TABLE trees ADD COLUMN note TEXT');
    chunks = new Map();
    await push(alice, project, 'v1', { updated: [whole(FILE, v2, chunks)] }, chunks);
    await changesetWorkIdle(t.app.ctx);
    const since = await alice.get(`/v1/project/${ns}/${project.name}?since=v1`);
    const file = (
      since.json() as { files: { path: string; history: Record<string, { diff?: unknown }> }[] }
    ).files.find((f) => f.path === FILE)!;
    expect(file.history.v2!.diff).toBeUndefined();
    expect((await raw(alice, project, `file=${FILE}&version=v2&diff=True`)).statusCode).toBe(404);
  });
});
