/**
 * Sharing (PUT /v1/project), the public flag, leaving, scheduled deletion, clone, creating
 * access requests and the template list.
 */
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { hashPassword } from '../../server/src/auth/passwords';
import { insertUser } from '../../server/src/db/queries/users';
import { insertWorkspace, setWorkspaceMember } from '../../server/src/db/queries/workspaces';
import {
  accessRequests,
  fileHistory,
  projectFiles,
  projectMembers,
  projects,
  type Project,
  type ProjectRole,
  type User,
} from '../../server/src/db/schema';
import { commit, createProject } from './support/seed';
import {
  ADMIN_PASSWORD,
  createTestApp,
  problem,
  type TestApp,
  type TestClient,
} from './support/test-app';

const PASSWORD = 'Field-Password-1';
const NO_PERMISSION = 'You do not have permissions for this project';
let t: TestApp;
let teamId: number;
const people: Record<string, User> = {};
const clients = new Map<string, TestClient>();

async function as(username: string | null): Promise<TestClient> {
  if (username === null) {
    const client = t.client();
    await client.init();
    return client;
  }
  let client = clients.get(username);
  if (!client) {
    client = t.client();
    await client.login(username, username === 'admin' ? ADMIN_PASSWORD : PASSWORD);
    clients.set(username, client);
  }
  return client;
}

let counter = 0;
/** A fresh private project in the global workspace: alice owner, bob writer, carol reader. */
async function sharedProject(files: Record<string, string> = { 'a.txt': 'a\n' }): Promise<Project> {
  const project = await createProject(t, {
    name: `p${++counter}`,
    creatorId: people.alice!.id,
  });
  await t.database.db.insert(projectMembers).values([
    { projectId: project.id, userId: people.alice!.id, role: 'owner' },
    { projectId: project.id, userId: people.bob!.id, role: 'writer' },
    { projectId: project.id, userId: people.carol!.id, role: 'reader' },
  ]);
  if (Object.keys(files).length > 0) await commit(t, project.id, { added: files });
  return project;
}

async function roles(projectId: string): Promise<Record<string, ProjectRole>> {
  const rows = await t.database.db
    .select({ userId: projectMembers.userId, role: projectMembers.role })
    .from(projectMembers)
    .where(eq(projectMembers.projectId, projectId));
  const byId = new Map(Object.values(people).map((u) => [u.id, u.username]));
  return Object.fromEntries(rows.map((r) => [byId.get(r.userId)!, r.role]));
}

beforeAll(async () => {
  t = await createTestApp();
  const db = t.database.db;
  const passwordHash = await hashPassword(PASSWORD);
  for (const username of ['alice', 'bob', 'carol', 'dave', 'erin', 'frank', 'TEMPLATES']) {
    people[username] = await insertUser(db, {
      username,
      email: `${username.toLowerCase()}@example.com`,
      passwordHash,
      verifiedEmail: true,
      active: username !== 'frank',
    });
  }
  const team = await insertWorkspace(db, { name: 'team', storage: 1000 });
  teamId = team.id;
  await setWorkspaceMember(db, teamId, people.alice!.id, 'admin');
  await setWorkspaceMember(db, t.setup.workspaceId, people.erin!.id, 'admin');
});

afterAll(async () => {
  await t?.close();
});

describe('PUT /v1/project/{namespace}/{name}', () => {
  let project: Project;
  const put = async (user: string | null, access: unknown) =>
    (await as(user)).request('PUT', `/v1/project/waymark/${project.name}`, { json: access });

  beforeEach(async () => {
    project = await sharedProject();
  });

  it('replaces each role given with the listed users (the web client sends cumulative lists)', async () => {
    const response = await put('alice', {
      access: {
        ownersnames: ['alice'],
        writersnames: ['alice', 'bob'],
        readersnames: ['alice', 'bob', 'carol', 'DAVE'],
      },
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({
      id: project.id,
      role: 'owner',
      access: {
        ownersnames: ['alice'],
        writersnames: ['alice', 'bob'],
        readersnames: ['alice', 'bob', 'carol', 'dave'],
      },
    });
    expect(await roles(project.id)).toEqual({
      alice: 'owner',
      bob: 'writer',
      carol: 'reader',
      dave: 'reader',
    });
  });

  it('removes users who held a given role but are not listed; other roles stay', async () => {
    let response = await put('alice', { access: { readersnames: ['dave'] } });
    expect(response.statusCode).toBe(200);
    expect(await roles(project.id)).toEqual({ alice: 'owner', bob: 'writer', dave: 'reader' });
    // Editors are writers here.
    response = await put('alice', { access: { editorsnames: ['erin'] } });
    expect(response.statusCode).toBe(200);
    expect(await roles(project.id)).toEqual({ alice: 'owner', erin: 'writer', dave: 'reader' });
    // Ids work too; a user listed twice gets the higher role.
    response = await put('alice', {
      access: { owners: [people.alice!.id, people.dave!.id], readers: [people.dave!.id] },
    });
    expect(response.statusCode).toBe(200);
    expect(await roles(project.id)).toEqual({ alice: 'owner', erin: 'writer', dave: 'owner' });
  });

  it('sets the public flag', async () => {
    const response = await put('alice', { access: { public: true } });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ public: true, access: { public: true } });
  });

  it('answers 422 for unknown users when nothing changed, 207 when some of it did', async () => {
    let response = await put('alice', {
      access: {
        ownersnames: ['alice'],
        writersnames: ['alice', 'bob'],
        readersnames: ['alice', 'bob', 'carol', 'ghost', 'frank'],
        // Usernames take precedence over ids.
        readers: [999],
      },
    });
    expect(response.statusCode).toBe(422);
    expect(response.headers['content-type']).toBe('application/problem+json');
    expect(response.json()).toMatchObject({
      code: 'UpdateProjectAccessError',
      detail: 'Project access could not be updated (UpdateProjectAccessError)',
      invalid_usernames: ['ghost', 'frank'],
      invalid_ids: [],
      status: 422,
    });
    response = await put('alice', { access: { writers: [people.bob!.id, 999] } });
    expect(response.statusCode).toBe(422);
    expect(response.json()).toMatchObject({ invalid_usernames: [], invalid_ids: [999] });

    response = await put('alice', {
      access: {
        ownersnames: ['alice'],
        writersnames: ['alice', 'bob'],
        readersnames: ['alice', 'bob', 'carol', 'dave', 'ghost'],
      },
    });
    expect(response.statusCode).toBe(207);
    expect(response.headers['content-type']).toBe('application/problem+json');
    const body = response.json();
    expect(body).toMatchObject({
      code: 'UpdateProjectAccessError',
      invalid_usernames: ['ghost'],
      invalid_ids: [],
    });
    expect(body.project).toMatchObject({
      id: project.id,
      access: { readersnames: ['alice', 'bob', 'carol', 'dave'] },
    });
  });

  it('needs the owner role (or workspace admin) and an access object', async () => {
    for (const user of ['bob', 'carol']) {
      const response = await put(user, { access: { public: true } });
      expect(response.statusCode).toBe(403);
      expect(problem(response).detail).toBe(NO_PERMISSION);
    }
    expect((await put('dave', { access: { public: true } })).statusCode).toBe(403);
    expect((await put('erin', { access: { public: false } })).statusCode).toBe(200);
    const anonymous = await put(null, { access: {} });
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.json()).toBe('Authentication information is missing or invalid.');
    const missing = await put('alice', { settings: {} });
    expect(missing.statusCode).toBe(400);
    expect(problem(missing).detail).toBe("'access' is a required property");
    const wrong = await put('alice', { access: { readers: ['bob'] } });
    expect(wrong.statusCode).toBe(400);
    expect(
      (
        await (
          await as('alice')
        ).request('PUT', '/v1/project/waymark/nope', { json: { access: {} } })
      ).statusCode,
    ).toBe(404);
  });
});

describe('PATCH /app/project/{id}/public', () => {
  it('sets the flag for owners (204), 403 for others, 404 for unknown ids', async () => {
    const project = await sharedProject();
    const alice = await as('alice');
    let response = await alice.request('PATCH', `/app/project/${project.id}/public`, {
      json: { public: true },
    });
    expect(response.statusCode).toBe(204);
    expect((await t.client().get(`/v1/project/by_uuid/${project.id}`)).statusCode).toBe(200);
    response = await alice.request('PATCH', `/app/project/${project.id}/public`, { json: {} });
    expect(response.statusCode).toBe(204);
    expect((await t.client().get(`/v1/project/by_uuid/${project.id}`)).statusCode).toBe(403);
    response = await (
      await as('bob')
    ).request('PATCH', `/app/project/${project.id}/public`, {
      json: { public: true },
    });
    expect(response.statusCode).toBe(403);
    response = await alice.request('PATCH', '/app/project/123/public', { json: { public: true } });
    expect(response.statusCode).toBe(404);
    response = await (
      await as(null)
    ).request('PATCH', `/app/project/${project.id}/public`, {
      json: { public: true },
    });
    expect(response.statusCode).toBe(401);
  });
});

describe('POST /app/project/unsubscribe/{id}', () => {
  it('removes a member, refuses the owner, and is a no-op without membership', async () => {
    const project = await sharedProject();
    const url = `/app/project/unsubscribe/${project.id}`;
    let response = await (await as('carol')).post(url);
    expect(response.statusCode).toBe(200);
    expect(response.body).toBe('');
    expect(await roles(project.id)).toEqual({ alice: 'owner', bob: 'writer' });
    // Carol has no access left at all now.
    expect((await (await as('carol')).post(url)).statusCode).toBe(403);
    // Erin reads through the workspace: nothing to leave.
    expect((await (await as('erin')).post(url)).statusCode).toBe(200);
    response = await (await as('alice')).post(url);
    expect(response.statusCode).toBe(400);
    expect(problem(response).detail).toBe('Owner cannot leave a project');
    response = await (await as('dave')).post(url);
    expect(response.statusCode).toBe(403);
    expect(problem(response).detail).toBe(NO_PERMISSION);
    expect((await (await as('bob')).post('/app/project/unsubscribe/x')).statusCode).toBe(404);
    expect((await (await as(null)).post(url)).statusCode).toBe(401);
  });
});

describe('POST /v2/projects/{id}/scheduleDelete', () => {
  it('needs the delete permission', async () => {
    const project = await sharedProject();
    for (const user of ['bob', 'carol', 'dave']) {
      const response = await (await as(user)).post(`/v2/projects/${project.id}/scheduleDelete`);
      expect(response.statusCode, user).toBe(403);
      expect(problem(response).detail).toBe(NO_PERMISSION);
    }
    expect(
      (await (await as(null)).post(`/v2/projects/${project.id}/scheduleDelete`)).statusCode,
    ).toBe(401);
    expect((await (await as('alice')).post('/v2/projects/nope/scheduleDelete')).statusCode).toBe(
      404,
    );
  });

  it('makes the project disappear from every endpoint and keeps its name taken', async () => {
    const project = await sharedProject();
    const alice = await as('alice');
    let response = await alice.post(`/v2/projects/${project.id}/scheduleDelete`);
    expect(response.statusCode).toBe(204);
    const [row] = await t.database.db.select().from(projects).where(eq(projects.id, project.id));
    expect(row).toMatchObject({ removedBy: people.alice!.id });
    expect(row!.removedAt).not.toBeNull();

    for (const url of [
      `/v1/project/waymark/${project.name}`,
      `/v1/project/by_uuid/${project.id}`,
      `/v1/project/raw/waymark/${project.name}?file=a.txt`,
      `/v1/project/download/waymark/${project.name}?format=zip`,
    ]) {
      for (const user of ['alice', 'admin']) {
        expect((await (await as(user)).get(url)).statusCode, `${url} ${user}`).toBe(404);
      }
    }
    const list = await alice.get(`/v1/project/paginated?page=1&per_page=100&name=${project.name}`);
    expect(list.json().count).toBe(0);
    expect((await alice.post(`/v2/projects/${project.id}/scheduleDelete`)).statusCode).toBe(404);
    expect(
      (await (await as('bob')).post(`/app/project/unsubscribe/${project.id}`)).statusCode,
    ).toBe(404);
    response = await (await as('erin')).post('/v1/project/waymark', { name: project.name });
    expect(response.statusCode).toBe(409);
    expect(problem(response).detail).toBe(
      'Project with the same name is scheduled for deletion, you can create a project with this name in 7 days',
    );
  });
});

describe('POST /v1/project/clone/{namespace}/{project}', () => {
  const clone = async (user: string | null, source: string, body: unknown = {}) =>
    (await as(user)).post(`/v1/project/clone/waymark/${source}`, body);

  it('copies the latest files by reference into a new private project at v1', async () => {
    const source = await sharedProject({ 'a.txt': 'a\n', 'data/b.gpkg': 'SQLite format 3\0...' });
    await commit(t, source.id, {
      added: { 'qgis_cfg.xml': '<cfg/>', 'sub/qgis_cfg.xml.bak': 'x' },
      updated: { 'a.txt': 'a2\n' },
    });
    t.clock.advance(1000);
    const response = await clone('alice', source.name, { namespace: 'team' });
    expect(response.statusCode).toBe(200);
    expect(response.body).toBe('');

    const detail = (await (await as('alice')).get(`/v1/project/team/${source.name}`)).json();
    expect(detail).toMatchObject({
      namespace: 'team',
      version: 'v1',
      public: false,
      creator: people.alice!.id,
      role: 'owner',
      // The one who clones owns the clone; nobody else is carried over.
      access: { ownersnames: ['alice'], readersnames: ['alice'] },
    });
    expect(detail.files.map((f: { path: string }) => f.path)).toEqual([
      'a.txt',
      'data/b.gpkg',
      'sub/qgis_cfg.xml.bak',
    ]);
    expect(detail.disk_usage).toBe(3 + 19 + 1);
    const db = t.database.db;
    const keys = async (projectId: string) =>
      (
        await db
          .select({ path: projectFiles.path, key: projectFiles.blobKey })
          .from(projectFiles)
          .where(eq(projectFiles.projectId, projectId))
      )
        .filter((r) => r.path !== 'qgis_cfg.xml')
        .sort((a, b) => a.path.localeCompare(b.path));
    expect(await keys(detail.id)).toEqual(await keys(source.id));
    const history = await db
      .select({ change: fileHistory.change, v: fileHistory.versionName })
      .from(fileHistory)
      .where(eq(fileHistory.projectId, detail.id));
    expect(history).toEqual(Array(3).fill({ change: 'create', v: 1 }));
    const versions = await (await as('alice')).get(`/v1/project/team/${source.name}?version=v0`);
    expect(versions.statusCode).toBe(404);
  });

  it('starts an empty clone at v0 and validates a new name only when it differs', async () => {
    const empty = await sharedProject({});
    let response = await clone('erin', empty.name, { project: `${empty.name}-copy` });
    expect(response.statusCode).toBe(200);
    const detail = (await (await as('erin')).get(`/v1/project/waymark/${empty.name}-copy`)).json();
    expect(detail).toMatchObject({ version: 'v0', files: [] });

    // A reserved name made before the rule: cloning under the same name is allowed.
    const reserved = await createProject(t, { name: 'input', creatorId: people.alice!.id });
    await t.database.db
      .insert(projectMembers)
      .values({ projectId: reserved.id, userId: people.alice!.id, role: 'reader' });
    response = await clone('alice', 'input', { namespace: 'team' });
    expect(response.statusCode).toBe(200);
    response = await clone('erin', 'input', { project: 'admin' });
    expect(response.statusCode).toBe(400);
    expect(problem(response).detail).toBe('The provided value is invalid.');
  });

  it('answers the reference errors in order', async () => {
    const source = await sharedProject();
    const cases: [string | null, unknown, number, string][] = [
      ['dave', {}, 403, NO_PERMISSION],
      ['carol', { project: 'x1' }, 403, 'You do not have permissions for this workspace'],
      ['erin', {}, 409, 'Project with the same name already exists'],
      ['erin', { project: '   ' }, 400, 'Project name cannot be empty'],
      ['erin', { namespace: 'nowhere', project: 'x2' }, 404, 'Workspace does not exist'],
      [
        'erin',
        { project: 'bad/name' },
        400,
        'Please use only alphanumeric or the following -_. characters.',
      ],
      ['erin', { project: '.dot' }, 400, 'Value can not start with space or dot.'],
    ];
    for (const [user, body, status, detail] of cases) {
      const response = await clone(user, source.name, body);
      expect(response.statusCode, JSON.stringify(body)).toBe(status);
      expect(problem(response).detail).toBe(detail);
    }
    expect((await clone(null, source.name)).statusCode).toBe(401);
    expect((await clone('erin', 'no-such-project', { project: 'x3' })).statusCode).toBe(404);
  });

  it('answers 422 StorageLimitHit when the target workspace would be over its storage', async () => {
    const big = await sharedProject({ 'big.bin': 'x'.repeat(600) });
    let response = await clone('alice', big.name, { namespace: 'team', project: 'big1' });
    expect(response.statusCode).toBe(200);
    response = await clone('alice', big.name, { namespace: 'team', project: 'big2' });
    expect(response.statusCode).toBe(422);
    expect(response.headers['content-type']).toBe('application/problem+json');
    expect(response.json()).toMatchObject({
      code: 'StorageLimitHit',
      detail: 'You have reached a data limit (StorageLimitHit)',
      current_usage: expect.any(Number),
      storage_limit: 1000,
    });
    expect(response.json().current_usage).toBeGreaterThanOrEqual(600);
  });
});

describe('POST /app/project/access-request/{namespace}/{project}', () => {
  it('creates one pending request, expiring in 7 days, and tells the owners', async () => {
    const project = await sharedProject();
    const dave = await as('dave');
    const url = `/app/project/access-request/waymark/${project.name}`;
    let response = await dave.post(url);
    expect(response.statusCode).toBe(200);
    expect(response.body).toBe('');
    const [request] = await t.database.db
      .select()
      .from(accessRequests)
      .where(
        and(
          eq(accessRequests.projectId, project.id),
          eq(accessRequests.requestedBy, people.dave!.id),
        ),
      );
    expect(request!.status).toBeNull();
    expect(request!.expiresAt.getTime() - request!.requestedAt.getTime()).toBe(
      7 * 24 * 3600 * 1000,
    );
    const own = (await dave.get('/app/project/access-requests?page=1&per_page=10')).json();
    expect(own.items.map((i: { project_name: string }) => i.project_name)).toContain(project.name);
    const mails = (await t.outbox()).filter((m) => m.subject.includes(project.name));
    expect(mails.map((m) => m.to).sort()).toEqual(['admin@example.com', 'alice@example.com']);
    expect(mails[0]!.text).toContain(`/projects/waymark/${project.name}/collaborators`);

    response = await dave.post(url);
    expect(response.statusCode).toBe(409);
    expect(problem(response).detail).toBe('Project access request already exists');

    // An expired request does not block a new one.
    await t.database.db
      .update(accessRequests)
      .set({ expiresAt: new Date(t.clock.ms - 1000) })
      .where(eq(accessRequests.id, request!.id));
    response = await dave.post(url);
    expect(response.statusCode).toBe(200);
    const rows = await t.database.db
      .select({ status: accessRequests.status })
      .from(accessRequests)
      .where(eq(accessRequests.projectId, project.id));
    expect(rows.map((r) => r.status).sort()).toEqual(['expired', null]);
  });

  it('refuses direct members, unknown and removed projects', async () => {
    const project = await sharedProject();
    let response = await (
      await as('carol')
    ).post(`/app/project/access-request/waymark/${project.name}`);
    expect(response.statusCode).toBe(409);
    expect(problem(response).detail).toBe('You already have access to project');
    // Workspace-level access does not count.
    response = await (await as('erin')).post(`/app/project/access-request/waymark/${project.name}`);
    expect(response.statusCode).toBe(200);
    const dave = await as('dave');
    for (const url of [
      '/app/project/access-request/nowhere/x',
      '/app/project/access-request/waymark/nothing',
    ]) {
      expect((await dave.post(url)).statusCode).toBe(404);
    }
    await t.database.db
      .update(projects)
      .set({ removedAt: t.clock.now() })
      .where(eq(projects.id, project.id));
    expect(
      (await dave.post(`/app/project/access-request/waymark/${project.name}`)).statusCode,
    ).toBe(404);
    expect(
      (await (await as(null)).post(`/app/project/access-request/waymark/${project.name}`))
        .statusCode,
    ).toBe(401);
  });
});

describe('GET /app/project/templates', () => {
  it('lists live projects made by the TEMPLATES user', async () => {
    const alice = await as('alice');
    expect((await alice.get('/app/project/templates')).json()).toEqual([]);
    // Public: alice is not in the template's workspace, and a private one is not hers to see.
    const template = await createProject(t, {
      name: 'field-survey',
      creatorId: people.TEMPLATES!.id,
      public: true,
    });
    await createProject(t, { name: 'private-template', creatorId: people.TEMPLATES!.id });
    await commit(t, template.id, { added: { 'a.qgz': 'PK\u0003\u0004' } });
    const removed = await createProject(t, {
      name: 'old-template',
      creatorId: people.TEMPLATES!.id,
    });
    await t.database.db
      .update(projects)
      .set({ removedAt: t.clock.now() })
      .where(eq(projects.id, removed.id));
    expect((await alice.get('/app/project/templates')).json()).toEqual([
      { id: template.id, name: 'field-survey', namespace: 'waymark', version: 'v1' },
    ]);
    expect((await t.client().get('/app/project/templates')).statusCode).toBe(401);
  });
});
