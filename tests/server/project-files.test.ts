/**
 * Versions made by commitVersion, project details (latest, version=, since=, by_uuid), raw
 * file downloads with ranges, and ZIP archives.
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashPassword } from '../../server/src/auth/passwords';
import { insertUser } from '../../server/src/db/queries/users';
import { setWorkspaceMember } from '../../server/src/db/queries/workspaces';
import {
  blobs,
  fileHistory,
  projects,
  projectMembers,
  projectVersions,
  type Project,
  type User,
} from '../../server/src/db/schema';
import {
  commitVersion,
  InvalidChangesError,
  MissingBlobError,
  VersionMismatchError,
} from '../../server/src/services/versions';
import { commit, createProject, putBytes } from './support/seed';
import {
  ADMIN_PASSWORD,
  createTestApp,
  problem,
  type TestApp,
  type TestClient,
} from './support/test-app';
import { readZip } from './support/zip-reader';

const PASSWORD = 'Field-Password-1';
let t: TestApp;
const people: Record<string, User> = {};
const clients = new Map<string, TestClient>();
let survey: Project;
let open: Project;
let gone: Project;
/** Times of v1..v3 of survey. */
const versionTimes: Date[] = [];

const PNG = Buffer.concat([
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  Buffer.alloc(100, 7),
]);
const GPKG_V1 = Buffer.concat([Buffer.from('SQLite format 3\0'), Buffer.alloc(200, 1)]);
const GPKG_V2 = Buffer.concat([Buffer.from('SQLite format 3\0'), Buffer.alloc(300, 2)]);
const GPKG_DIFF = Buffer.from([0x43, 0x48, 0x00, 0x01, 0x02]);
const README = 'Survey of the north field.\n';
const SVG = '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>';

async function as(username: string | null): Promise<TestClient> {
  if (username === null) return t.client();
  let client = clients.get(username);
  if (!client) {
    client = t.client();
    await client.login(username, username === 'admin' ? ADMIN_PASSWORD : PASSWORD);
    clients.set(username, client);
  }
  return client;
}

const isoZ = (date: Date) => date.toISOString().replace(/\.\d{3}Z$/, 'Z');

beforeAll(async () => {
  t = await createTestApp();
  const db = t.database.db;
  const passwordHash = await hashPassword(PASSWORD);
  for (const username of ['alice', 'bob', 'carol', 'dave', 'erin']) {
    people[username] = await insertUser(db, {
      username,
      email: `${username}@example.com`,
      passwordHash,
      verifiedEmail: true,
    });
  }
  await setWorkspaceMember(db, t.setup.workspaceId, people.erin!.id, 'admin');

  survey = await createProject(t, { name: 'survey', creatorId: people.alice!.id });
  await db.insert(projectMembers).values([
    { projectId: survey.id, userId: people.alice!.id, role: 'owner' },
    { projectId: survey.id, userId: people.bob!.id, role: 'writer' },
    { projectId: survey.id, userId: people.carol!.id, role: 'reader' },
  ]);
  t.clock.advance(1000);
  versionTimes.push(t.clock.now());
  await commit(
    t,
    survey.id,
    {
      added: {
        'project.qgs': '<qgis version="3.34"></qgis>\n',
        'data/survey.gpkg': GPKG_V1,
        'notes.txt': 'first notes\n',
        'photos/a.png': PNG,
        'README.md': README,
      },
    },
    { authorId: people.alice!.id },
  );
  t.clock.advance(60_000);
  versionTimes.push(t.clock.now());
  await commit(
    t,
    survey.id,
    {
      diffUpdated: { 'data/survey.gpkg': [GPKG_V2, GPKG_DIFF] },
      removed: ['notes.txt'],
      added: { 'page.svg': SVG, 'Übersicht (1).txt': 'ü\n' },
    },
    { authorId: people.bob!.id },
  );
  t.clock.advance(60_000);
  versionTimes.push(t.clock.now());
  await commit(t, survey.id, { updated: { 'README.md': `${README}More.\n` } });

  open = await createProject(t, { name: 'open', public: true, creatorId: people.alice!.id });
  await commit(t, open.id, { added: { 'a.txt': 'public text\n' } });
  gone = await createProject(t, { name: 'gone', public: true });
  await commit(t, gone.id, { added: { 'a.txt': 'soon gone\n' } });
  await db.update(projects).set({ removedAt: t.clock.now() }).where(eq(projects.id, gone.id));
});

afterAll(async () => {
  await t?.close();
});

describe('commitVersion', () => {
  it('made whole versions: rows, counts, sizes, tags', async () => {
    const db = t.database.db;
    const [row] = await db.select().from(projects).where(eq(projects.id, survey.id));
    const latestSize =
      Buffer.byteLength('<qgis version="3.34"></qgis>\n') +
      GPKG_V2.length +
      PNG.length +
      Buffer.byteLength(`${README}More.\n`) +
      Buffer.byteLength(SVG) +
      Buffer.byteLength('ü\n');
    expect(row).toMatchObject({
      latestVersion: 3,
      diskUsage: latestSize,
      tags: ['valid_qgis', 'input_use'],
      updatedAt: versionTimes[2],
    });
    const versions = await db
      .select()
      .from(projectVersions)
      .where(eq(projectVersions.projectId, survey.id))
      .orderBy(projectVersions.name);
    expect(versions.map((v) => [v.name, v.changes, v.authorId])).toEqual([
      [0, { added: 0, updated: 0, updated_diff: 0, removed: 0 }, people.alice!.id],
      [1, { added: 5, updated: 0, updated_diff: 0, removed: 0 }, people.alice!.id],
      [2, { added: 2, updated: 0, updated_diff: 1, removed: 1 }, people.bob!.id],
      [3, { added: 0, updated: 1, updated_diff: 0, removed: 0 }, 1],
    ]);
    expect(versions[3]!.projectSize).toBe(latestSize);
    const history = await db
      .select({ path: fileHistory.path, change: fileHistory.change, v: fileHistory.versionName })
      .from(fileHistory)
      .where(eq(fileHistory.projectId, survey.id));
    expect(history).toHaveLength(10);
    expect(history).toContainEqual({ path: 'notes.txt', change: 'delete', v: 2 });
    expect(history).toContainEqual({ path: 'data/survey.gpkg', change: 'update_diff', v: 2 });
    const blob = await putBytes(t, GPKG_DIFF);
    expect(await db.select().from(blobs).where(eq(blobs.key, blob.key))).toHaveLength(1);
  });

  it('refuses contradicting or malformed changes and writes nothing', async () => {
    const db = t.database.db;
    const blob = await putBytes(t, 'x');
    const file = (path: string) => ({ path, size: 1, checksum: blob.sha1, blobKey: blob.key });
    const attempt = (input: Partial<Parameters<typeof commitVersion>[1]>) =>
      db.transaction((tx) =>
        commitVersion(tx, {
          project: { id: survey.id },
          author: null,
          at: t.clock.now(),
          blobStore: t.app.ctx.blobStore,
          ...input,
        }),
      );
    await expect(attempt({ added: [file('README.md')] })).rejects.toThrow(InvalidChangesError);
    await expect(attempt({ updated: [file('nope.txt')] })).rejects.toThrow(InvalidChangesError);
    await expect(attempt({ removed: [{ path: 'notes.txt' }] })).rejects.toThrow(
      InvalidChangesError,
    );
    await expect(attempt({ added: [file('../escape.txt')] })).rejects.toThrow(InvalidChangesError);
    await expect(attempt({ added: [file('a/../../b')] })).rejects.toThrow(InvalidChangesError);
    await expect(attempt({ added: [file('x.txt')], removed: [{ path: 'x.txt' }] })).rejects.toThrow(
      InvalidChangesError,
    );
    await expect(attempt({ added: [file('x.txt')], baseVersion: 2 })).rejects.toThrow(
      VersionMismatchError,
    );
    await expect(
      attempt({ added: [{ ...file('x.txt'), blobKey: 'f'.repeat(64) }] }),
    ).rejects.toThrow(MissingBlobError);
    const [row] = await db.select().from(projects).where(eq(projects.id, survey.id));
    expect(row!.latestVersion).toBe(3);
  });

  it('tags only projects with exactly one QGIS project file', async () => {
    const p = await createProject(t, { name: 'tags' });
    expect((await commit(t, p.id, { added: { 'a.qgz': 'PK\u0003\u0004' } })).tags).toEqual([
      'valid_qgis',
      'input_use',
    ]);
    expect((await commit(t, p.id, { added: { 'b.QGS': '<qgis/>' } })).tags).toEqual([]);
    expect((await commit(t, p.id, { removed: ['a.qgz'] })).tags).toEqual([
      'valid_qgis',
      'input_use',
    ]);
  });
});

describe('GET /v1/project/{namespace}/{name}', () => {
  it('answers the ProjectDetail with the latest files, by path', async () => {
    const response = await (await as('alice')).get('/v1/project/waymark/survey');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('application/json');
    const body = response.json();
    expect(Object.keys(body).sort()).toEqual(
      [
        'access',
        'created',
        'creator',
        'disk_usage',
        'files',
        'id',
        'locked_until',
        'name',
        'namespace',
        'permissions',
        'public',
        'removed_at',
        'role',
        'tags',
        'updated',
        'uploads',
        'version',
        'workspace_id',
      ].sort(),
    );
    expect(body).toMatchObject({
      id: survey.id,
      name: 'survey',
      namespace: 'waymark',
      workspace_id: t.setup.workspaceId,
      version: 'v3',
      created: isoZ(survey.createdAt),
      updated: isoZ(versionTimes[2]!),
      creator: people.alice!.id,
      public: false,
      removed_at: null,
      locked_until: null,
      tags: ['valid_qgis', 'input_use'],
      uploads: [],
      role: 'owner',
      permissions: { upload: true, update: true, delete: true },
      access: {
        ownersnames: ['alice'],
        writersnames: ['alice', 'bob'],
        readersnames: ['alice', 'bob', 'carol'],
        public: false,
      },
    });
    const gpkg = await putBytes(t, GPKG_V2);
    const diff = await putBytes(t, GPKG_DIFF);
    expect(body.files.map((f: { path: string }) => f.path)).toEqual([
      'README.md',
      'data/survey.gpkg',
      'page.svg',
      'photos/a.png',
      'project.qgs',
      'Übersicht (1).txt',
    ]);
    expect(body.files[1]).toEqual({
      path: 'data/survey.gpkg',
      size: GPKG_V2.length,
      checksum: gpkg.sha1,
      mtime: isoZ(versionTimes[1]!),
      diff: {
        path: `data/survey.gpkg-diff-${diff.sha1.slice(0, 8)}`,
        size: 5,
        checksum: diff.sha1,
      },
    });
    expect(body.files[0]).not.toHaveProperty('diff');
    expect(body.files[0].mtime).toBe(isoZ(versionTimes[2]!));
  });

  it('gives each caller their role, and 403 without read access', async () => {
    const expectations: [string | null, number, string | null][] = [
      [null, 403, null],
      ['dave', 403, null],
      ['carol', 200, 'reader'],
      ['bob', 200, 'writer'],
      ['alice', 200, 'owner'],
      ['erin', 200, 'owner'],
      ['admin', 200, 'owner'],
    ];
    for (const [user, status, role] of expectations) {
      const response = await (await as(user)).get('/v1/project/waymark/survey');
      expect(response.statusCode, String(user)).toBe(status);
      if (status === 403) {
        expect(problem(response).detail).toBe('You do not have permissions for this project');
      } else {
        expect(response.json().role, String(user)).toBe(role);
      }
    }
    // Public projects: everybody reads, nobody else writes.
    for (const [user, role, perms] of [
      [null, 'reader', { upload: false, update: false, delete: false }],
      ['dave', 'reader', { upload: false, update: false, delete: false }],
      ['erin', 'owner', { upload: true, update: true, delete: true }],
    ] as const) {
      const response = await (await as(user)).get('/v1/project/waymark/open');
      expect(response.statusCode).toBe(200);
      expect(response.json()).toMatchObject({ role, permissions: perms, public: true });
    }
  });

  it('answers a generic 404 for unknown workspaces and projects, and removed ones', async () => {
    const generic =
      'The requested URL was not found on the server. If you entered the URL manually please check your spelling and try again.';
    for (const url of [
      '/v1/project/nowhere/survey',
      '/v1/project/waymark/nothing',
      '/v1/project/waymark/Survey',
      '/v1/project/waymark/gone',
    ]) {
      for (const user of [null, 'admin']) {
        const response = await (await as(user)).get(url);
        expect(response.statusCode, `${url} ${String(user)}`).toBe(404);
        expect(problem(response).detail).toBe(generic);
      }
    }
    // Workspace names are case-insensitive.
    expect((await (await as('carol')).get('/v1/project/WAYMARK/survey')).statusCode).toBe(200);
  });

  it('answers the project as of a version with version=vN', async () => {
    const response = await (await as('carol')).get('/v1/project/waymark/survey?version=v1');
    expect(response.statusCode).toBe(200);
    const body = response.json();
    for (const key of ['workspace_id', 'public', 'removed_at', 'locked_until']) {
      expect(body).not.toHaveProperty(key);
    }
    expect(body).toMatchObject({
      id: survey.id,
      version: 'v1',
      updated: isoZ(versionTimes[0]!),
      tags: ['valid_qgis', 'input_use'],
      role: 'reader',
    });
    expect(body.files.map((f: { path: string }) => f.path)).toEqual([
      'README.md',
      'data/survey.gpkg',
      'notes.txt',
      'photos/a.png',
      'project.qgs',
    ]);
    expect(body.files[1].size).toBe(GPKG_V1.length);
    expect(body.disk_usage).toBe(
      body.files.reduce((sum: number, f: { size: number }) => sum + f.size, 0),
    );
    const v0 = (await (await as('carol')).get('/v1/project/waymark/survey?version=v0')).json();
    expect(v0).toMatchObject({ version: 'v0', files: [], disk_usage: 0, tags: [] });
  });

  it('checks the version and since parameters', async () => {
    const carol = await as('carol');
    let response = await carol.get('/v1/project/waymark/survey?version=v9');
    expect(response.statusCode).toBe(404);
    expect(problem(response).detail).toBe('Project at requested version does not exist');
    response = await carol.get('/v1/project/waymark/survey?version=v1&since=v1');
    expect(response.statusCode).toBe(400);
    expect(problem(response).detail).toBe(
      "Parameters 'since' and 'version' are mutually exclusive",
    );
    response = await carol.get('/v1/project/waymark/survey?version=1');
    expect(response.statusCode).toBe(400);
    expect((await carol.get('/v1/project/waymark/survey?version=')).json().version).toBe('v3');
  });

  it('adds the history of versioned files with since=vN', async () => {
    const response = await (await as('carol')).get('/v1/project/waymark/survey?since=v1');
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body.version).toBe('v3');
    const gpkg = body.files.find((f: { path: string }) => f.path === 'data/survey.gpkg');
    expect(Object.keys(gpkg.history)).toEqual(['v2', 'v1']);
    expect(gpkg.history.v2).toMatchObject({ change: 'updated', size: GPKG_V2.length });
    expect(gpkg.history.v2.diff).toMatchObject({ size: 5 });
    expect(gpkg.history.v1).toMatchObject({ change: 'added', size: GPKG_V1.length });
    expect(gpkg).toMatchObject({ location: 'v2/data/survey.gpkg' });
    expect(gpkg.diff.location).toMatch(/^v2\/data\/survey\.gpkg-diff-/);
    const readme = body.files.find((f: { path: string }) => f.path === 'README.md');
    expect(readme).toMatchObject({ history: {}, diff: null, location: 'v3/README.md' });
    const later = (await (await as('carol')).get('/v1/project/waymark/survey?since=v3')).json();
    expect(
      later.files.find((f: { path: string }) => f.path === 'data/survey.gpkg').history,
    ).toEqual({});
  });
});

describe('GET /v1/project/by_uuid/{id}', () => {
  it('answers the same detail as by name', async () => {
    const carol = await as('carol');
    const byId = await carol.get(`/v1/project/by_uuid/${survey.id}`);
    expect(byId.statusCode).toBe(200);
    expect(byId.json()).toEqual((await carol.get('/v1/project/waymark/survey')).json());
    expect((await carol.get(`/v1/project/by_uuid/${survey.id.toUpperCase()}`)).statusCode).toBe(
      200,
    );
  });

  it('answers 404 for invalid, unknown and removed ids, 403 without access', async () => {
    const carol = await as('carol');
    for (const id of ['nope', '00000000-0000-0000-0000-000000000000', gone.id]) {
      expect((await carol.get(`/v1/project/by_uuid/${id}`)).statusCode).toBe(404);
    }
    const response = await (await as('dave')).get(`/v1/project/by_uuid/${survey.id}`);
    expect(response.statusCode).toBe(403);
    expect(problem(response).detail).toBe('You do not have permissions for this project');
  });
});

const raw = (file: string, extra = '') =>
  `/v1/project/raw/waymark/survey?file=${encodeURIComponent(file)}${extra}`;

describe('GET /v1/project/raw/{namespace}/{name}', () => {
  it('streams the file with its sniffed type and download headers', async () => {
    const gpkg = await putBytes(t, GPKG_V2);
    const response = await (await as('carol')).get(raw('data/survey.gpkg', '&random=0.123'));
    expect(response.statusCode).toBe(200);
    expect(response.rawPayload.equals(GPKG_V2)).toBe(true);
    expect(response.headers).toMatchObject({
      'content-type': 'application/vnd.sqlite3',
      'content-length': String(GPKG_V2.length),
      'content-disposition': "attachment; filename*=UTF-8''survey.gpkg",
      etag: `"${gpkg.sha1}"`,
      'accept-ranges': 'bytes',
      'x-content-type-options': 'nosniff',
    });
  });

  it('never serves markup as a renderable type', async () => {
    const carol = await as('carol');
    const types: Record<string, string> = {
      'README.md': 'text/plain',
      'page.svg': 'text/plain',
      'photos/a.png': 'image/png',
      'project.qgs': 'text/plain',
      'Übersicht (1).txt': 'text/plain',
    };
    for (const [file, type] of Object.entries(types)) {
      const response = await carol.get(raw(file));
      expect(response.statusCode, file).toBe(200);
      expect(response.headers['content-type'], file).toBe(type);
    }
    expect((await carol.get(raw('Übersicht (1).txt'))).headers['content-disposition']).toBe(
      "attachment; filename*=UTF-8''%C3%9Cbersicht%20%281%29.txt",
    );
  });

  it('serves earlier versions, and 404 for files absent at that version', async () => {
    const carol = await as('carol');
    let response = await carol.get(raw('data/survey.gpkg', '&version=v1'));
    expect(response.rawPayload.equals(GPKG_V1)).toBe(true);
    response = await carol.get(raw('notes.txt', '&version=v1'));
    expect(response.body).toBe('first notes\n');
    for (const extra of ['', '&version=v2', '&version=v3']) {
      response = await carol.get(raw('notes.txt', extra));
      expect(response.statusCode).toBe(404);
      expect(problem(response).detail).toBe('File notes.txt not found');
    }
    response = await carol.get(raw('page.svg', '&version=v1'));
    expect(problem(response).detail).toBe('File page.svg not found');
    response = await carol.get(raw('README.md', '&version=v7'));
    expect(response.statusCode).toBe(404);
    response = await carol.get(raw('README.md', '&version=7'));
    expect(response.statusCode).toBe(400);
    response = await carol.get('/v1/project/raw/waymark/survey');
    expect(problem(response).detail).toBe("Missing query parameter 'file'");
  });

  it('serves exact byte ranges', async () => {
    const carol = await as('carol');
    const size = GPKG_V2.length;
    const cases: [string, number, number][] = [
      ['bytes=0-15', 0, 15],
      ['bytes=16-', 16, size - 1],
      ['bytes=-10', size - 10, size - 1],
      ['bytes=5-5', 5, 5],
      ['bytes=100-100000', 100, size - 1],
      ['bytes=-100000', 0, size - 1],
    ];
    for (const [range, start, end] of cases) {
      const response = await carol.get(raw('data/survey.gpkg'), { headers: { range } });
      expect(response.statusCode, range).toBe(206);
      expect(response.headers['content-range']).toBe(`bytes ${start}-${end}/${size}`);
      expect(response.headers['content-length']).toBe(String(end - start + 1));
      expect(response.headers['content-type']).toBe('application/vnd.sqlite3');
      expect(response.rawPayload.equals(GPKG_V2.subarray(start, end + 1)), range).toBe(true);
    }
  });

  it('answers 416 for unsatisfiable ranges and the whole file for ignored ones', async () => {
    const carol = await as('carol');
    const size = GPKG_V2.length;
    for (const range of [`bytes=${size}-`, `bytes=${size + 5}-${size + 9}`, 'bytes=-0']) {
      const response = await carol.get(raw('data/survey.gpkg'), { headers: { range } });
      expect(response.statusCode, range).toBe(416);
      expect(response.headers['content-range']).toBe(`bytes */${size}`);
      expect(problem(response).status).toBe(416);
    }
    for (const range of ['bytes=0-1,4-5', 'bytes=9-2', 'lines=1-2']) {
      const response = await carol.get(raw('data/survey.gpkg'), { headers: { range } });
      expect(response.statusCode, range).toBe(200);
      expect(response.rawPayload.length).toBe(size);
    }
    // If-Range with another ETag: the whole (changed) file.
    const response = await carol.get(raw('data/survey.gpkg'), {
      headers: { range: 'bytes=0-3', 'if-range': '"0000"' },
    });
    expect(response.statusCode).toBe(200);
  });

  it('answers HEAD with type and size only, and 304 for a matching ETag', async () => {
    const carol = await as('carol');
    let response = await carol.request('HEAD', raw('photos/a.png'));
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('image/png');
    expect(response.headers['content-length']).toBe(String(PNG.length));
    expect(response.rawPayload.length).toBe(0);
    response = await carol.request('HEAD', raw('photos/a.png'), {
      headers: { range: 'bytes=0-9' },
    });
    expect(response.statusCode).toBe(206);
    expect(response.headers['content-length']).toBe('10');
    const etag = String(response.headers.etag);
    response = await carol.get(raw('photos/a.png'), { headers: { 'if-none-match': etag } });
    expect(response.statusCode).toBe(304);
    expect(response.rawPayload.length).toBe(0);
  });

  it('keeps every path inside the project', async () => {
    const carol = await as('carol');
    const attempts = [
      '../survey/README.md',
      'a/../../b',
      'data/../README.md',
      './README.md',
      '/etc/passwd',
      '/README.md',
      '..\\README.md',
      'README.md\u0000.png',
      'C:/README.md',
    ];
    for (const file of attempts) {
      const response = await carol.get(raw(file));
      expect(response.statusCode, JSON.stringify(file)).toBe(404);
      expect(problem(response).detail).toBe(`File ${file} not found`);
    }
    // Percent-encoded dots are decoded once; encoded twice they are just a name.
    let response = await carol.get('/v1/project/raw/waymark/survey?file=%2e%2e/README.md');
    expect(problem(response).detail).toBe('File ../README.md not found');
    response = await carol.get('/v1/project/raw/waymark/survey?file=%252e%252e%2FREADME.md');
    expect(problem(response).detail).toBe('File %2e%2e/README.md not found');
  });

  it('serves diffs of versioned files only for a version that has one', async () => {
    const carol = await as('carol');
    let response = await carol.get(raw('data/survey.gpkg', '&version=v2&diff=true'));
    expect(response.statusCode).toBe(200);
    expect(response.rawPayload.equals(GPKG_DIFF)).toBe(true);
    expect(response.headers['content-disposition']).toMatch(/survey\.gpkg-diff-/);
    response = await carol.get(raw('data/survey.gpkg', '&diff=True'));
    expect(response.statusCode).toBe(400);
    expect(problem(response).detail).toBe(
      'Changeset must be requested for particular file version',
    );
    response = await carol.get(raw('data/survey.gpkg', '&version=v1&diff=true'));
    expect(response.statusCode).toBe(404);
    expect(problem(response).detail).toBe('No diff in particular file data/survey.gpkg version');
    response = await carol.get(raw('README.md', '&version=v1&diff=true'));
    expect(response.statusCode).toBe(404);
    expect(problem(response).detail).toBe('No diff in particular file README.md)');
    // The diff checks come before the permission check, as in the reference.
    response = await (await as('dave')).get(raw('README.md', '&diff=true'));
    expect(response.statusCode).toBe(404);
  });

  it('needs read access', async () => {
    for (const user of [null, 'dave']) {
      const response = await (await as(user)).get(raw('README.md'));
      expect(response.statusCode).toBe(403);
      expect(problem(response).detail).toBe('You do not have permissions for this project');
    }
    const response = await t.client().get('/v1/project/raw/waymark/open?file=a.txt');
    expect(response.statusCode).toBe(200);
    expect(response.body).toBe('public text\n');
    expect((await t.client().get('/v1/project/raw/waymark/gone?file=a.txt')).statusCode).toBe(404);
  });
});

describe('GET /v1/project/download/{namespace}/{name}?format=zip', () => {
  it('streams the latest files as a ZIP archive', async () => {
    const response = await (
      await as('carol')
    ).get('/v1/project/download/waymark/survey?format=zip');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('application/zip');
    expect(response.headers['content-disposition']).toBe(
      "attachment; filename*=UTF-8''survey-v3.zip",
    );
    const archive = readZip(response.rawPayload);
    const files = Object.fromEntries(archive.entries.map((e) => [e.name, e.data]));
    expect(Object.keys(files)).toEqual([
      'README.md',
      'data/survey.gpkg',
      'page.svg',
      'photos/a.png',
      'project.qgs',
      'Übersicht (1).txt',
    ]);
    expect(files['data/survey.gpkg']!.equals(GPKG_V2)).toBe(true);
    expect(files['README.md']!.toString()).toBe(`${README}More.\n`);
    expect(files['photos/a.png']!.equals(PNG)).toBe(true);
    const png = archive.entries.find((e) => e.name === 'photos/a.png')!;
    expect(png.method).toBe(0); // stored: already compressed
    expect(archive.entries.find((e) => e.name === 'README.md')!.mtime.getTime()).toBe(
      Math.floor(versionTimes[2]!.getTime() / 2000) * 2000,
    );
  });

  it('archives an earlier version with version=vN', async () => {
    const response = await (
      await as('carol')
    ).get('/v1/project/download/waymark/survey?format=zip&version=v1');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-disposition']).toBe(
      "attachment; filename*=UTF-8''survey-v1.zip",
    );
    const archive = readZip(response.rawPayload);
    expect(archive.entries.map((e) => e.name)).toContain('notes.txt');
    expect(archive.entries.find((e) => e.name === 'data/survey.gpkg')!.data.equals(GPKG_V1)).toBe(
      true,
    );
    const empty = await (await as('carol')).get('/v1/project/download/waymark/survey?version=v0');
    expect(readZip(empty.rawPayload).entries).toEqual([]);
  });

  it('answers errors before streaming', async () => {
    const carol = await as('carol');
    let response = await carol.get('/v1/project/download/waymark/survey?format=tar');
    expect(response.statusCode).toBe(400);
    expect(problem(response).detail).toBe("'tar' is not one of ['zip']");
    response = await carol.get('/v1/project/download/waymark/survey?format=zip&version=v8');
    expect(response.statusCode).toBe(404);
    expect(problem(response).detail).toBe('Project at requested version does not exist');
    response = await (await as('dave')).get('/v1/project/download/waymark/survey?format=zip');
    expect(response.statusCode).toBe(403);
    response = await t.client().get('/v1/project/download/waymark/gone?format=zip');
    expect(response.statusCode).toBe(404);
    response = await t.client().get('/v1/project/download/waymark/open?format=zip');
    expect(response.statusCode).toBe(200);

    const db = t.database.db;
    await db
      .update(projects)
      .set({ diskUsage: 11 * 1024 ** 3 })
      .where(eq(projects.id, open.id));
    try {
      response = await t.client().get('/v1/project/download/waymark/open?format=zip');
      expect(response.statusCode).toBe(400);
      expect(problem(response).detail).toBe(
        'The total size of requested files is too large to download as a single zip, please use different method/client for download',
      );
    } finally {
      await db.update(projects).set({ diskUsage: 12 }).where(eq(projects.id, open.id));
    }
    response = await carol.request('HEAD', '/v1/project/download/waymark/survey?format=zip');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('application/zip');
    expect(response.rawPayload.length).toBe(0);
  });
});

describe('a project with 10,000 files', () => {
  it('is committed and served quickly, files in one query', async () => {
    const project = await createProject(t, { name: 'big' });
    const blob = await putBytes(t, 'same bytes in every file\n');
    const added = Array.from({ length: 10_000 }, (_, i) => ({
      path: `dir${String(i % 100).padStart(3, '0')}/file${String(i).padStart(5, '0')}.txt`,
      size: blob.size,
      checksum: blob.sha1,
      blobKey: blob.key,
    }));
    let started = performance.now();
    await t.database.db.transaction((tx) =>
      commitVersion(tx, {
        project,
        author: null,
        at: t.clock.now(),
        added,
        blobStore: t.app.ctx.blobStore,
      }),
    );
    const commitMs = performance.now() - started;
    const admin = await as('admin');
    await admin.get('/v1/project/waymark/big'); // warm-up
    started = performance.now();
    const response = await admin.get('/v1/project/waymark/big');
    const detailMs = performance.now() - started;
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body.files).toHaveLength(10_000);
    expect(body.disk_usage).toBe(10_000 * blob.size);
    expect(body.files[0].path).toBe('dir000/file00000.txt');
    console.info(
      `10,000 files: commit ${commitMs.toFixed(0)} ms, detail ${detailMs.toFixed(0)} ms, ${(response.rawPayload.length / 1024).toFixed(0)} KiB`,
    );
  });
});
