/**
 * A project's history: the versions list (pagination, order, v0 left out), version detail by
 * project id and by namespace/name, a file's history, the zip of a version, and who may read
 * them (public projects anonymously, private ones only with read access).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashPassword } from '../../server/src/auth/passwords';
import { insertUser } from '../../server/src/db/queries/users';
import { projectMembers, type Project, type User } from '../../server/src/db/schema';
import { commit, createProject, type SeedChanges } from './support/seed';
import { createTestApp, problem, type TestApp, type TestClient } from './support/test-app';
import { readZip } from './support/zip-reader';

const PASSWORD = 'Field-Password-1';
const NO_PERMISSIONS = 'You do not have permissions for this project';
let t: TestApp;
const people: Record<string, User> = {};
const clients = new Map<string, TestClient>();
let survey: Project;
let open: Project;
const times: Date[] = [];

async function as(username: string): Promise<TestClient> {
  let client = clients.get(username);
  if (!client) {
    client = t.client();
    await client.login(username, PASSWORD);
    clients.set(username, client);
  }
  return client;
}

const isoZ = (date: Date) => date.toISOString().replace(/\.\d{3}Z$/, 'Z');

beforeAll(async () => {
  t = await createTestApp();
  const db = t.database.db;
  const passwordHash = await hashPassword(PASSWORD);
  for (const username of ['alice', 'bob', 'mallory']) {
    people[username] = await insertUser(db, {
      username,
      email: `${username}@example.com`,
      passwordHash,
      verifiedEmail: true,
    });
  }
  survey = await createProject(t, { name: 'survey', creatorId: people.alice!.id });
  await db.insert(projectMembers).values([
    { projectId: survey.id, userId: people.alice!.id, role: 'owner' },
    { projectId: survey.id, userId: people.bob!.id, role: 'reader' },
  ]);
  // v1: two files; v2: one updated; v3: notes removed, a photo added; v4: notes back.
  const steps: SeedChanges[] = [
    { added: { 'notes.txt': 'first notes\n', 'data/a.csv': 'id,name\n1,a\n' } },
    { updated: { 'data/a.csv': 'id,name\n1,a\n2,b\n' } },
    { removed: ['notes.txt'], added: { 'photos/p.jpg': 'JPEG bytes' } },
    { added: { 'notes.txt': 'second notes, longer\n' } },
  ];
  for (const [i, step] of steps.entries()) {
    t.clock.advance(60_000);
    times.push(t.clock.now());
    await commit(t, survey.id, step, {
      authorId: i === 3 ? people.bob!.id : people.alice!.id,
      userAgent: `agent ${i + 1}`,
    });
  }
  open = await createProject(t, { name: 'open', public: true, creatorId: people.alice!.id });
  await commit(t, open.id, { added: { 'readme.txt': 'hello' } });
});

afterAll(async () => {
  await t?.close();
});

interface VersionItem {
  id: string;
  name: string;
  author?: string;
  created: string;
  project_name: string;
  namespace: string;
  project_size: number;
  user_agent: string | null;
  changes: Record<string, unknown>;
  changesets: Record<string, unknown>;
}

describe('GET /v1/project/versions/paginated/{namespace}/{name}', () => {
  const url = (query: string) => `/v1/project/versions/paginated/waymark/survey?${query}`;

  it('lists versions newest first by default, without v0, with their counts', async () => {
    const response = await (await as('alice')).get(url('page=1&per_page=50'));
    expect(response.statusCode).toBe(200);
    const body = response.json() as { count: number; versions: VersionItem[] };
    expect(body.count).toBe(4);
    expect(body.versions.map((v) => v.name)).toEqual(['v4', 'v3', 'v2', 'v1']);
    expect(body.versions[1]).toEqual({
      id: 'v3',
      name: 'v3',
      author: 'alice',
      created: isoZ(times[2]!),
      project_name: 'survey',
      namespace: 'waymark',
      project_size: Buffer.byteLength('id,name\n1,a\n2,b\n') + Buffer.byteLength('JPEG bytes'),
      user_agent: 'agent 3',
      changes: { added: 1, updated: 0, updated_diff: 0, removed: 1 },
      changesets: {},
    });
    expect(body.versions[0]!.author).toBe('bob');
  });

  it('pages in either order, and a page past the end is a 404', async () => {
    const alice = await as('alice');
    let response = await alice.get(url('page=2&per_page=3'));
    expect(response.json()).toMatchObject({ count: 4, versions: [{ name: 'v1' }] });
    response = await alice.get(url('page=1&per_page=3&descending=false'));
    expect((response.json() as { versions: VersionItem[] }).versions.map((v) => v.name)).toEqual([
      'v1',
      'v2',
      'v3',
    ]);
    response = await alice.get(url('page=2&per_page=2&descending=False'));
    expect((response.json() as { versions: VersionItem[] }).versions.map((v) => v.name)).toEqual([
      'v3',
      'v4',
    ]);
    expect((await alice.get(url('page=3&per_page=2'))).statusCode).toBe(404);
    expect((await alice.get(url('page=0&per_page=2'))).statusCode).toBe(404);
    response = await alice.get(url('per_page=2'));
    expect(response.statusCode).toBe(400);
    expect(problem(response).status).toBe(400);
    expect((await alice.get(url('page=1&per_page=x'))).statusCode).toBe(400);
  });

  it('is open to anonymous visitors of public projects only', async () => {
    const anonymous = t.client();
    let response = await anonymous.get(
      '/v1/project/versions/paginated/waymark/open?page=1&per_page=10',
    );
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({
      count: 1,
      versions: [{ name: 'v1', author: 'admin' }],
    });
    response = await anonymous.get(url('page=1&per_page=10'));
    expect(response.statusCode).toBe(403);
    expect(problem(response).detail).toBe(NO_PERMISSIONS);
    response = await (await as('mallory')).get(url('page=1&per_page=10'));
    expect(response.statusCode).toBe(403);
    expect((await (await as('bob')).get(url('page=1&per_page=10'))).statusCode).toBe(200);
    response = await anonymous.get(
      '/v1/project/versions/paginated/waymark/nothing?page=1&per_page=10',
    );
    expect(response.statusCode).toBe(404);
  });
});

describe('GET /v1/project/version/…', () => {
  it('answers the same detail by project id and by namespace and name', async () => {
    const bob = await as('bob');
    const byId = await bob.get(`/v1/project/version/${survey.id}/v3`);
    expect(byId.statusCode).toBe(200);
    const byName = await bob.get('/v1/project/version/waymark/survey/v3');
    expect(byName.statusCode).toBe(200);
    expect(byName.json()).toEqual(byId.json());
    const body = byId.json() as VersionItem & {
      changes: Record<'added' | 'updated' | 'removed', Record<string, unknown>[]>;
    };
    expect(body).toMatchObject({ id: 'v3', name: 'v3', author: 'alice', user_agent: 'agent 3' });
    expect(body.created).toBe(isoZ(times[2]!));
    expect(body.changes.added).toEqual([
      {
        path: 'photos/p.jpg',
        size: 10,
        checksum: expect.stringMatching(/^[0-9a-f]{40}$/),
        mtime: isoZ(times[2]!),
        change: 'added',
        expiration: null,
      },
    ]);
    expect(body.changes.updated).toEqual([]);
    // A removal shows the file as it was before.
    expect(body.changes.removed).toEqual([
      expect.objectContaining({
        path: 'notes.txt',
        size: Buffer.byteLength('first notes\n'),
        checksum: expect.stringMatching(/^[0-9a-f]{40}$/),
        mtime: isoZ(times[0]!),
        change: 'removed',
      }),
    ]);
    const v2 = (await bob.get('/v1/project/version/waymark/survey/v2')).json() as typeof body;
    expect(v2.changes.updated.map((f) => [f.path, f.change])).toEqual([['data/a.csv', 'updated']]);
    // v0 exists too (the empty initial version).
    const v0 = (await bob.get(`/v1/project/version/${survey.id}/v0`)).json() as typeof body;
    expect(v0.changes).toEqual({ added: [], updated: [], removed: [] });
  });

  it('refuses malformed and unknown versions and projects', async () => {
    const alice = await as('alice');
    let response = await alice.get(`/v1/project/version/${survey.id}/500`);
    expect(response.statusCode).toBe(400);
    response = await alice.get(`/v1/project/version/${survey.id}/v9`);
    expect(response.statusCode).toBe(404);
    expect(problem(response).detail).toBe('Version v9 in project waymark/survey not found');
    response = await alice.get('/v1/project/version/not-a-uuid/v1');
    expect(response.statusCode).toBe(404);
    response = await alice.get('/v1/project/version/waymark/nothing/v1');
    expect(response.statusCode).toBe(404);
  });

  it('follows read access: public projects anonymously, private ones only for readers', async () => {
    const anonymous = t.client();
    expect((await anonymous.get(`/v1/project/version/${open.id}/v1`)).statusCode).toBe(200);
    expect((await anonymous.get('/v1/project/version/waymark/open/v1')).statusCode).toBe(200);
    let response = await anonymous.get(`/v1/project/version/${survey.id}/v1`);
    expect(response.statusCode).toBe(403);
    expect(problem(response).detail).toBe(NO_PERMISSIONS);
    response = await (await as('mallory')).get('/v1/project/version/waymark/survey/v1');
    expect(response.statusCode).toBe(403);
  });
});

describe('GET /v1/resource/history/{namespace}/{name}?path=', () => {
  it('lists every change of the file, newest first', async () => {
    const response = await (
      await as('bob')
    ).get('/v1/resource/history/waymark/survey?path=notes.txt');
    expect(response.statusCode).toBe(200);
    const body = response.json() as {
      path: string;
      size: number;
      history: Record<string, { change: string; size: number; path: string }>;
    };
    expect(body).toMatchObject({
      path: 'notes.txt',
      size: Buffer.byteLength('second notes, longer\n'),
    });
    expect(Object.keys(body.history)).toEqual(['v4', 'v3', 'v1']);
    expect(Object.values(body.history).map((h) => [h.change, h.size])).toEqual([
      ['added', Buffer.byteLength('second notes, longer\n')],
      ['removed', Buffer.byteLength('first notes\n')],
      ['added', Buffer.byteLength('first notes\n')],
    ]);
    const csv = (
      await (await as('bob')).get('/v1/resource/history/waymark/survey?path=data%2Fa.csv')
    ).json() as typeof body;
    expect(Object.entries(csv.history).map(([v, h]) => [v, h.change])).toEqual([
      ['v2', 'updated'],
      ['v1', 'added'],
    ]);
  });

  it('answers 404 for a path that never existed, 400 without a path, 403 without access', async () => {
    const bob = await as('bob');
    let response = await bob.get('/v1/resource/history/waymark/survey?path=nope.txt');
    expect(response.statusCode).toBe(404);
    expect(problem(response).detail).toBe('File nope.txt not found');
    expect((await bob.get('/v1/resource/history/waymark/survey')).statusCode).toBe(400);
    response = await t.client().get('/v1/resource/history/waymark/survey?path=notes.txt');
    expect(response.statusCode).toBe(403);
    response = await t.client().get('/v1/resource/history/waymark/open?path=readme.txt');
    expect(response.statusCode).toBe(200);
  });
});

describe('version download', () => {
  it('zips the project as it was at the version', async () => {
    const alice = await as('alice');
    const response = await alice.get('/v1/project/download/waymark/survey?format=zip&version=v3');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-disposition']).toBe(
      "attachment; filename*=UTF-8''survey-v3.zip",
    );
    const files = Object.fromEntries(
      readZip(response.rawPayload).entries.map((e) => [e.name, e.data.toString()]),
    );
    expect(files).toEqual({ 'data/a.csv': 'id,name\n1,a\n2,b\n', 'photos/p.jpg': 'JPEG bytes' });
    const v1 = await alice.get('/v1/project/download/waymark/survey?format=zip&version=v1');
    expect(readZip(v1.rawPayload).entries.map((e) => [e.name, e.data.toString()])).toEqual([
      ['data/a.csv', 'id,name\n1,a\n'],
      ['notes.txt', 'first notes\n'],
    ]);
    const anonymous = await t
      .client()
      .get('/v1/project/download/waymark/survey?format=zip&version=v1');
    expect(anonymous.statusCode).toBe(403);
  });
});
