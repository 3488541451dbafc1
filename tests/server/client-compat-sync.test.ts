/**
 * Desktop and mobile clients, part 2 (client-compat §4–§6, §9, §10): a project's life as the
 * python client lives it, call by call, with a bearer token and no cookies: create, push of
 * text and binary files in two versions (v1 protocol), download by inclusive ranges at each
 * version, pull with `since`, the versions list and detail, a file's history, a stale push,
 * a removal-only push, by_names, the list and remove.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashPassword } from '../../server/src/auth/passwords';
import { insertUser } from '../../server/src/db/queries/users';
import { geopackageFromFeatures, pointFeatures, scratch } from './support/geopackage';
import { commit, createProject } from './support/seed';
import {
  ALLOWED_FILE_KEYS,
  PythonClient,
  sha1,
  type FileEntry,
  type ProjectInfo,
} from './support/python-client';
import { ADMIN_PASSWORD, createTestApp, type TestApp } from './support/test-app';

const NS = 'waymark';
const PROJECT = `${NS}/survey`;
const MiB = 1024 * 1024;

let t: TestApp;
let client: PythonClient;

/** What the client pushed at each version: path → bytes. */
const v1Files: Record<string, Buffer> = {
  'notes.txt': Buffer.from('first notes\n'),
  // Over 10 MiB: two upload chunks.
  'photos/site.jpg': Buffer.concat([
    Buffer.from([0xff, 0xd8, 0xff, 0xe0]),
    randomBytes(10 * MiB + 4321),
  ]),
  'empty.txt': Buffer.alloc(0),
};
const v2Changes = {
  updated: {
    'notes.txt': Buffer.from('second notes, longer than the first\n'),
    'photos/site.jpg': Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe1]), randomBytes(3 * MiB)]),
  },
  added: { 'data/points.csv': Buffer.from('id,x,y\n1,0.5,0.25\n') },
};
const v2Files: Record<string, Buffer> = { ...v1Files, ...v2Changes.updated, ...v2Changes.added };

let v1Reply: ProjectInfo;
let v2Reply: ProjectInfo;

/** Every file entry holds mtime and only keys the client can store (client-compat §9). */
function expectStorableEntries(files: FileEntry[]): void {
  for (const file of files) {
    for (const key of Object.keys(file)) expect(ALLOWED_FILE_KEYS.has(key), key).toBe(true);
    expect(file).toHaveProperty('mtime');
    expect(typeof file.mtime).toBe('string');
  }
}

function checksums(files: FileEntry[]): Record<string, string> {
  return Object.fromEntries(files.map((f) => [f.path, f.checksum]));
}

function expected(files: Record<string, Buffer>): Record<string, string> {
  return Object.fromEntries(Object.entries(files).map(([p, b]) => [p, sha1(b)]));
}

beforeAll(async () => {
  t = await createTestApp();
  client = new PythonClient(t.app);
  await client.login('admin', ADMIN_PASSWORD);
});

afterAll(async () => {
  await t.close();
});

describe('a project through the python client', () => {
  it('creates the project (POST /v1/project/{ws}, any 2xx)', async () => {
    const response = await client.post(`/v1/project/${NS}`, { name: 'survey', public: false });
    expect(response.statusCode, response.body).toBe(200);
    const info = await client.info(PROJECT);
    expect(info).toMatchObject({ name: 'survey', namespace: NS, version: 'v0', files: [] });
    expect(info.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    // create --from-dir: /config, then info since=v0 before the first push.
    expect((await client.config()).version).toBeTruthy();
    const since = await client.info(PROJECT, '?since=v0');
    expect(since.version).toBe('v0');
  });

  it('pushes text and binary files (v1 push), checksums equal to what was sent', async () => {
    v1Reply = await client.pushV1(PROJECT, 'v0', { added: v1Files });
    expect(v1Reply.version).toBe('v1');
    expect(v1Reply.name).toBe('survey');
    expect(v1Reply.namespace).toBe(NS);
    expect(checksums(v1Reply.files)).toEqual(expected(v1Files));
    expectStorableEntries(v1Reply.files);
  });

  it('pushes the second version: updates and an addition', async () => {
    v2Reply = await client.pushV1(PROJECT, 'v1', v2Changes);
    expect(v2Reply.version).toBe('v2');
    expect(checksums(v2Reply.files)).toEqual(expected(v2Files));
    expectStorableEntries(v2Reply.files);
  });

  it('downloads every file in client ranges at each version, byte for byte', async () => {
    for (const [version, files] of [
      ['v1', v1Files],
      ['v2', v2Files],
    ] as const) {
      const info = await client.info(PROJECT, `?version=${version}`);
      expect(info.version).toBe(version);
      expectStorableEntries(info.files);
      expect(checksums(info.files)).toEqual(expected(files));
      for (const file of info.files) {
        // 0-byte files are never requested: the client creates them.
        if (file.size === 0) continue;
        const bytes = await client.download(PROJECT, file, version);
        expect(bytes.equals(files[file.path]!), `${file.path} at ${version}`).toBe(true);
        expect(sha1(bytes)).toBe(file.checksum);
      }
    }
  });

  it('serves exact 206 slices for inclusive ranges that tile the file', async () => {
    const info = await client.info(PROJECT, '?version=v1');
    const photo = info.files.find((f) => f.path === 'photos/site.jpg')!;
    // Parts of 1 MiB + 1 bytes, as the client tiles with its own part size.
    const bytes = await client.download(PROJECT, photo, 'v1', MiB);
    expect(bytes.equals(v1Files['photos/site.jpg']!)).toBe(true);

    const response = await client.get(
      `/v1/project/raw/${PROJECT}?file=photos%2Fsite.jpg&version=v1&diff=False`,
      { range: `bytes=${MiB + 1}-${2 * MiB + 1}` },
    );
    expect(response.statusCode).toBe(206);
    expect(response.headers['content-range']).toBe(
      `bytes ${MiB + 1}-${2 * MiB + 1}/${v1Files['photos/site.jpg']!.length}`,
    );
    expect(
      response.rawPayload.equals(v1Files['photos/site.jpg']!.subarray(MiB + 1, 2 * MiB + 2)),
    ).toBe(true);
  });

  it('pulls with since: the changes after the local version', async () => {
    const since = await client.info(PROJECT, '?since=v1');
    expect(since.version).toBe('v2');
    expect(checksums(since.files)).toEqual(expected(v2Files));
    expectStorableEntries(since.files);
    // Non-versioned files need no history; what changed since v1 is found by checksum.
    for (const file of since.files) expect(file.history).toEqual({});
    const changed = since.files.filter((f) => checksums(v1Reply.files)[f.path] !== f.checksum);
    expect(changed.map((f) => f.path).sort()).toEqual(
      ['data/points.csv', 'notes.txt', 'photos/site.jpg'].sort(),
    );
    // Up to date: the same version.
    expect((await client.info(PROJECT, '?since=v2')).version).toBe('v2');
  });

  it('lists versions ascending with count = the newest version number', async () => {
    const response = await client.get(
      `/v1/project/versions/paginated/${PROJECT}?page=1&per_page=100&descending=False`,
    );
    expect(response.statusCode, response.body).toBe(200);
    const body = response.json() as { count: number; versions: { name: string }[] };
    expect(body.count).toBe(2);
    expect(body.versions.map((v) => v.name)).toEqual(['v1', 'v2']);
  });

  it('shows a version by project id (show-version)', async () => {
    const response = await client.get(`/v1/project/version/${v2Reply.id}/v2`);
    expect(response.statusCode, response.body).toBe(200);
    const version = response.json();
    for (const key of ['namespace', 'project_name', 'name', 'author', 'created']) {
      expect(typeof version[key], key).toBe('string');
    }
    expect(version).toMatchObject({
      namespace: NS,
      project_name: 'survey',
      name: 'v2',
      author: 'admin',
    });
    // The GeoPackage report parses it with fromisoformat after stripping Z.
    expect(version.created).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d{1,6})?Z$/);
    const paths = (list: { path: string }[]) => list.map((f) => f.path).sort();
    expect(paths(version.changes.added)).toEqual(['data/points.csv']);
    expect(paths(version.changes.updated)).toEqual(['notes.txt', 'photos/site.jpg']);
    expect(version.changes.removed).toEqual([]);
  });

  it("shows a file's history (show-file-history)", async () => {
    const response = await client.get(`/v1/resource/history/${PROJECT}?path=notes.txt`);
    expect(response.statusCode, response.body).toBe(200);
    const body = response.json();
    expect(body.path).toBe('notes.txt');
    expect(Object.keys(body.history)).toEqual(['v2', 'v1']);
    expect(body.history.v2.change).toBe('updated');
    expect(body.history.v1.change).toBe('added');
  });

  it('refuses a push from a stale version with the reference error', async () => {
    const response = await client.post(`/v1/project/push/${PROJECT}`, {
      version: 'v1',
      changes: {
        added: [{ path: 'late.txt', size: 4, checksum: sha1(Buffer.from('late')), chunks: ['c1'] }],
        updated: [],
        removed: [],
      },
    });
    expect(response.statusCode).toBe(400);
    expect(response.headers['content-type']).toBe('application/problem+json');
    // The client's sync retries on a detail containing this.
    expect(response.json().detail).toBe('Version mismatch');
  });

  it('makes a removal-only push at once and answers the new project object', async () => {
    const stored = v2Reply.files.find((f) => f.path === 'empty.txt')!;
    const reply = await client.pushV1(PROJECT, 'v2', {
      removed: { 'empty.txt': { checksum: stored.checksum, size: stored.size } },
    });
    expect(reply).not.toHaveProperty('transaction');
    expect(reply.version).toBe('v3');
    expect(reply.files.map((f) => f.path).sort()).toEqual(
      ['data/points.csv', 'notes.txt', 'photos/site.jpg'].sort(),
    );
    expectStorableEntries(reply.files);
  });

  it('finds the project by names and by id, lists it with the CLI columns', async () => {
    const byNames = await client.post('/v1/project/by_names', {
      projects: [PROJECT, `${NS}/missing`, 'no-slash'],
    });
    expect(byNames.statusCode, byNames.body).toBe(200);
    const map = byNames.json();
    expect(map[PROJECT]).toMatchObject({ name: 'survey', namespace: NS, version: 'v3' });
    expect(map[`${NS}/missing`]).toEqual({ error: 404 });
    expect(map['no-slash']).toEqual({ error: 404 });

    const byId = await client.get(`/v1/project/by_uuid/${v2Reply.id}`);
    expect(byId.statusCode).toBe(200);
    expect(byId.json().version).toBe('v3');
    // project_info(id, version=...) goes to by_uuid with the same parameters.
    const byIdAt = await client.get(`/v1/project/by_uuid/${v2Reply.id}?version=v1`);
    expect(checksums(byIdAt.json().files)).toEqual(expected(v1Files));
    const byIdSince = await client.get(`/v1/project/by_uuid/${v2Reply.id}?since=v2`);
    expect(byIdSince.json().files.every((f: FileEntry) => 'history' in f)).toBe(true);

    const list = await client.get(`/v1/project/paginated?page=1&per_page=50&only_namespace=${NS}`);
    expect(list.statusCode, list.body).toBe(200);
    const page = list.json() as {
      count: number;
      projects: { namespace: string; name: string; disk_usage: number; version: string }[];
    };
    expect(page.count).toBeGreaterThanOrEqual(1);
    const item = page.projects.find((p) => p.name === 'survey')!;
    expect(item).toMatchObject({ namespace: NS, version: 'v3' });
    expect(typeof item.disk_usage).toBe('number');
  });

  it('refuses by_names past 50 projects', async () => {
    const names = Array.from({ length: 51 }, (_, i) => `${NS}/p${i}`);
    const response = await client.post('/v1/project/by_names', { projects: names });
    expect(response.statusCode).toBe(400);
    expect(response.json().detail).toBe('Too many projects');
  });

  it('clones and then removes a project (clone, remove)', async () => {
    const clone = await client.post(`/v1/project/clone/${PROJECT}`, {
      namespace: NS,
      project: 'survey-copy',
    });
    expect(clone.statusCode, clone.body).toBe(200);
    const copy = await client.info(`${NS}/survey-copy`);
    expect(checksums(copy.files)).toEqual(checksums((await client.info(PROJECT)).files));

    const removed = await client.delete(`/v1/project/${NS}/survey-copy`);
    expect(removed.statusCode, removed.body).toBe(200);
    expect((await client.get(`/v1/project/${NS}/survey-copy`)).statusCode).toBe(404);
    const again = await client.delete(`/v1/project/${NS}/survey-copy`);
    expect(again.statusCode).toBe(404);
  });
});

describe('rename (PATCH /v2/projects/{id})', () => {
  it('renames, refuses invalid and taken names with the reference answers', async () => {
    for (const name of ['first-name', 'taken-name']) {
      const created = await client.post(`/v1/project/${NS}`, { name, public: false });
      expect(created.statusCode, created.body).toBe(200);
    }
    const { id } = await client.info(`${NS}/first-name`);
    const patch = (name: string) =>
      t.app.inject({
        method: 'PATCH',
        url: `/v2/projects/${id}`,
        headers: { authorization: client.authorization!, 'content-type': 'application/json' },
        payload: JSON.stringify({ name }),
      });

    const invalid = await patch('bad/name');
    expect(invalid.statusCode).toBe(400);
    expect(invalid.json()).toMatchObject({
      code: 'InvalidProjectName',
      detail: 'Please use only alphanumeric or the following -_. characters.',
    });
    const taken = await patch('taken-name');
    expect(taken.statusCode).toBe(409);
    expect(taken.json().detail).toBe('Name already exist within workspace');

    const renamed = await patch('new-name');
    expect(renamed.statusCode, renamed.body).toBe(204);
    expect((await client.info(`${NS}/new-name`)).id).toBe(id);
    expect((await client.get(`/v1/project/${NS}/first-name`)).statusCode).toBe(404);
  });
});

describe('names with spaces, as the client encodes them', () => {
  it('percent-encodes path segments and form-encodes the file query (+ and %2F)', async () => {
    const created = await client.post(`/v1/project/${NS}`, { name: 'my proj', public: false });
    expect(created.statusCode, created.body).toBe(200);
    const project = `${NS}/my%20proj`;
    const bytes = Buffer.from('day one\n');
    const reply = await client.pushV1(project, 'v0', { added: { 'field notes/day 1.txt': bytes } });
    expect(reply.name).toBe('my proj');
    const file = reply.files[0]!;
    expect(file.path).toBe('field notes/day 1.txt');
    // The helper sends file=field+notes%2Fday+1.txt.
    expect((await client.download(project, file, 'v1')).equals(bytes)).toBe(true);
    const history = await client.get(
      `/v1/resource/history/${project}?path=field+notes%2Fday+1.txt`,
    );
    expect(history.statusCode, history.body).toBe(200);
  });
});

describe('delete now (DELETE /v2/projects/{id})', () => {
  it('deletes the project at once: the name is free again', async () => {
    const created = await client.post(`/v1/project/${NS}`, { name: 'short-lived', public: false });
    expect(created.statusCode).toBe(200);
    await client.pushV1(`${NS}/short-lived`, 'v0', { added: { 'a.txt': Buffer.from('a') } });
    const { id } = await client.info(`${NS}/short-lived`);
    const deleted = await client.delete(`/v2/projects/${id}`);
    expect(deleted.statusCode, deleted.body).toBe(204);
    expect((await client.get(`/v1/project/by_uuid/${id}`)).statusCode).toBe(404);
    expect((await client.delete(`/v2/projects/${id}`)).statusCode).toBe(404);
    const again = await client.post(`/v1/project/${NS}`, { name: 'short-lived', public: false });
    expect(again.statusCode, again.body).toBe(200);
  });
});

describe('sharing as the CLI does it (share-add, share-remove)', () => {
  it('edits the name lists of the access object and PUTs it back whole', async () => {
    await insertUser(t.database.db, {
      username: 'jane',
      email: 'jane@example.com',
      passwordHash: await hashPassword('Jane-Password-1'),
      verifiedEmail: true,
    });
    const created = await client.post(`/v1/project/${NS}`, { name: 'shared', public: false });
    expect(created.statusCode).toBe(200);
    type Access = Record<string, unknown> & {
      writersnames: string[];
      editorsnames: string[];
      readersnames: string[];
      readers: number[];
    };
    const put = (access: Access) =>
      t.app.inject({
        method: 'PUT',
        url: `/v1/project/${NS}/shared`,
        headers: { authorization: client.authorization!, 'content-type': 'application/json' },
        payload: JSON.stringify({ access }),
      });

    // share-add jane writer: inclusive, so writers, editors and readers; id lists untouched.
    const access = (await client.info(`${NS}/shared`)).access as Access;
    const added = await put({
      ...access,
      writersnames: [...access.writersnames, 'jane'],
      editorsnames: [...access.editorsnames, 'jane'],
      readersnames: [...access.readersnames, 'jane'],
    });
    expect(added.statusCode, added.body).toBe(200);
    const after = added.json().access as Access;
    expect(after.writersnames).toContain('jane');
    expect(after.readersnames).toContain('jane');

    // The jane client can now push.
    const jane = new PythonClient(t.app);
    await jane.login('jane', 'Jane-Password-1');
    const pushed = await jane.pushV1(`${NS}/shared`, 'v0', {
      added: { 'a.txt': Buffer.from('a') },
    });
    expect(pushed.version).toBe('v1');
    expect(pushed.role).toBe('writer');

    // share-remove jane: out of every name list, the id lists sent back as received.
    const without = (list: string[]) => list.filter((name) => name !== 'jane');
    const removed = await put({
      ...after,
      writersnames: without(after.writersnames),
      editorsnames: without(after.editorsnames),
      readersnames: without(after.readersnames),
    });
    expect(removed.statusCode, removed.body).toBe(200);
    expect(removed.json().access.readersnames).not.toContain('jane');
    expect((await jane.get(`/v1/project/${NS}/shared`)).statusCode).toBe(403);
  });
});

describe('GeoPackages sent whole (no changeset)', () => {
  it('pull with since lists their history, so the client downloads the full file', async () => {
    const s = await scratch();
    try {
      const first = await geopackageFromFeatures(s, 'v1', 'trees', pointFeatures(3));
      const second = await geopackageFromFeatures(s, 'v2', 'trees', pointFeatures(5));
      const created = await client.post(`/v1/project/${NS}`, { name: 'gpkg', public: false });
      expect(created.statusCode).toBe(200);
      const path = `${NS}/gpkg`;
      await client.pushV1(path, 'v0', { added: { 'data/trees.gpkg': first } });
      await client.pushV1(path, 'v1', { updated: { 'data/trees.gpkg': second } });

      const since = await client.info(path, '?since=v1');
      expectStorableEntries(since.files);
      const file = since.files.find((f) => f.path === 'data/trees.gpkg')!;
      expect(file.checksum).toBe(sha1(second));
      const history = file.history as Record<string, { change: string; diff?: unknown }>;
      expect(Object.keys(history)).toEqual(['v2', 'v1']);
      expect(history.v2!.change).toBe('updated');
      // No diff for v2: the client does not apply changesets but fetches the whole file.
      expect(history.v2!.diff).toBeUndefined();
      const bytes = await client.download(path, file, since.version);
      expect(bytes.equals(second)).toBe(true);
    } finally {
      await s.cleanup();
    }
  });
});

describe('downloads at the edges of the client parts', () => {
  it('answers an empty 200 for the last part past the end (size 100 MiB + 1)', async () => {
    const project = await createProject(t, { name: 'big' });
    const bytes = Buffer.alloc(100 * MiB + 1, 7);
    bytes[100 * MiB] = 9;
    await commit(t, project.id, { added: { 'big.bin': bytes } });
    const info = await client.info(`${NS}/big`);
    const file = info.files[0]!;
    // Parts 0 and 1: bytes=0-104857600 (the whole file), bytes=104857601-209715201 (past it).
    const downloaded = await client.download(`${NS}/big`, file, 'v1');
    expect(sha1(downloaded)).toBe(file.checksum);

    // Any other range past the end stays a 416.
    const other = await client.get(`/v1/project/raw/${NS}/big?file=big.bin&version=v1`, {
      range: `bytes=${100 * MiB + 5}-${100 * MiB + 10}`,
    });
    expect(other.statusCode).toBe(416);
  });
});
