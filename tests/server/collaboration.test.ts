/**
 * Collaboration endpoints (issue 7): user search, GET/PATCH project access, accepting and
 * removing access requests (with the 7-day expiry), and the PUT settings 207 / 422 answers.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashPassword } from '../../server/src/auth/passwords';
import { findUserByUsername, insertUser, updateUser } from '../../server/src/db/queries/users';
import { insertWorkspace, setWorkspaceMember } from '../../server/src/db/queries/workspaces';
import { upsertProjectMembers } from '../../server/src/db/queries/projects';
import type { Project, User } from '../../server/src/db/schema';
import { createProject } from './support/seed';
import {
  ADMIN_PASSWORD,
  createTestApp,
  problem,
  type TestApp,
  type TestClient,
} from './support/test-app';

const PASSWORD = 'Field-Password-1';
const DAY = 24 * 3600 * 1000;
let t: TestApp;
const people: Record<string, User> = {};
const clients = new Map<string, TestClient>();
let survey: Project;
let parcels: Project;

async function as(username: string): Promise<TestClient> {
  let client = clients.get(username);
  if (!client) {
    client = t.client();
    await client.login(username, username === 'admin' ? ADMIN_PASSWORD : PASSWORD);
    clients.set(username, client);
  }
  return client;
}

/** An anonymous visitor holding a CSRF token (so a refusal is about the login). */
async function anonymous(): Promise<TestClient> {
  const client = t.client();
  await client.init();
  return client;
}

async function patch(username: string, url: string, json: unknown) {
  return (await as(username)).request('PATCH', url, { json });
}

async function search(username: string, query: string): Promise<string[]> {
  const response = await (await as(username)).get(`/app/auth/user/search?${query}`);
  if (response.statusCode !== 200) throw new Error(`${response.statusCode} ${response.body}`);
  return (response.json() as { username: string }[]).map((u) => u.username);
}

async function requestAccess(username: string, project: Project, namespace = 'waymark') {
  const response = await (
    await as(username)
  ).post(`/app/project/access-request/${namespace}/${project.name}`);
  expect(response.statusCode).toBe(200);
  const list = await (
    await as(username)
  ).get(`/app/project/access-requests?page=1&per_page=100&project_name=${project.name}`);
  const items = (list.json() as { items: { id: number; status: string }[] }).items;
  return items.find((item) => item.status === 'pending')!.id;
}

beforeAll(async () => {
  t = await createTestApp();
  const db = t.database.db;
  const passwordHash = await hashPassword(PASSWORD);
  const users: [string, string | null, string | null][] = [
    ['owner', 'Olga', 'Owner'],
    ['writer', null, null],
    ['reader', null, null],
    ['outsider', null, null],
    ['tina', null, null],
    ['jo', 'Jo', null],
    ['jo.smith', null, null],
    ['anna-jo', null, null],
    ['majority', null, null],
    ['jobs', null, null],
    ['joan', null, null],
    ['gone_jo', null, null],
  ];
  for (const [username, firstName, lastName] of users) {
    people[username] = await insertUser(db, {
      username,
      email: `${username.replace(/[^a-z]/g, '')}@example.com`,
      passwordHash,
      firstName,
      lastName,
    });
  }
  await updateUser(db, people.gone_jo!.id, { active: false });
  // Filler users so a search can hit the limit of 10.
  for (let i = 0; i < 12; i++) {
    await insertUser(db, { username: `filler${String(i).padStart(2, '0')}`, email: `f${i}@x.org` });
  }
  const team = await insertWorkspace(db, { name: 'team', storage: 1_000_000 });
  await setWorkspaceMember(db, team.id, people.tina!.id, 'admin');
  survey = await createProject(t, { name: 'survey' });
  parcels = await createProject(t, { name: 'parcels', workspaceId: team.id });
  await upsertProjectMembers(db, survey.id, [
    { userId: people.owner!.id, role: 'owner' },
    { userId: people.writer!.id, role: 'writer' },
    { userId: people.reader!.id, role: 'reader' },
  ]);
});

afterAll(async () => {
  await t?.close();
});

describe('GET /app/auth/user/search', () => {
  // What sharing needs and no more (tests/server/hardening-search.test.ts has the limits).
  it('finds usernames by a prefix of 3+ characters, an exact match first; active only', async () => {
    expect(await search('owner', 'namespace=waymark&like=jo.')).toEqual(['jo.smith']);
    expect(await search('owner', 'namespace=waymark&like=joa')).toEqual(['joan']);
    expect(await search('owner', 'namespace=waymark&like=gone')).toEqual([]);
    expect(await search('owner', 'namespace=waymark&like=jo')).toEqual([]);
  });

  it('matches case-insensitively and treats LIKE wildcards literally', async () => {
    expect(await search('owner', 'namespace=WAYMARK&like=JO.S')).toEqual(['jo.smith']);
    expect(await search('owner', 'namespace=waymark&like=%25%25%25')).toEqual([]);
    expect(await search('owner', 'namespace=waymark&like=j__')).toEqual([]);
  });

  it('searches emails when the text has an @, exact addresses only', async () => {
    expect(await search('owner', 'namespace=waymark&like=JoSmith@example.com')).toEqual([
      'jo.smith',
    ]);
    expect(await search('owner', 'namespace=waymark&like=josmith@')).toEqual([]);
  });

  it('answers at most 10, and nobody for an empty text', async () => {
    expect(await search('owner', 'namespace=waymark&like=filler')).toHaveLength(10);
    expect(await search('owner', 'namespace=waymark&like=')).toEqual([]);
  });

  it('finds by exact names, ordered by username; ids find nobody', async () => {
    const ids = `${people.writer!.id},${people.jo!.id},${people.gone_jo!.id}`;
    expect(await search('owner', `namespace=waymark&id=${ids}`)).toEqual([]);
    expect(await search('owner', 'namespace=waymark&id=1,x')).toEqual([]);
    expect(await search('owner', 'namespace=waymark&names=Reader,jo,nobody&like=filler')).toEqual([
      'jo',
      'reader',
    ]);
    expect(await search('owner', 'namespace=waymark')).toEqual([]);
  });

  it('answers the result shape with the profile', async () => {
    const response = await (
      await as('owner')
    ).get('/app/auth/user/search?namespace=waymark&like=owner');
    expect(response.json()).toEqual([
      {
        id: people.owner!.id,
        username: 'owner',
        email: 'owner@example.com',
        name: 'Olga Owner',
        profile: { first_name: 'Olga', last_name: 'Owner' },
      },
    ]);
  });

  it('refuses anonymous callers, unknown workspaces and non-members', async () => {
    const visitor = await t.client().get('/app/auth/user/search?namespace=waymark&like=jo');
    expect(visitor.statusCode).toBe(401);
    const missing = await (await as('owner')).get('/app/auth/user/search?like=jo');
    expect(missing.statusCode).toBe(400);
    expect(problem(missing).detail).toBe("Missing query parameter 'namespace'");
    const unknown = await (await as('owner')).get('/app/auth/user/search?namespace=nowhere');
    expect(unknown.statusCode).toBe(404);
    expect(problem(unknown).detail).toBe('Workspace not found');
    const outside = await (await as('owner')).get('/app/auth/user/search?namespace=team&like=jo');
    expect(outside.statusCode).toBe(403);
    expect(problem(outside).detail).toBe('You do not have permissions to search within workspace');
    expect(await search('tina', 'namespace=team&like=tina')).toEqual(['tina']);
    expect(await search('admin', 'namespace=team&like=tina')).toEqual(['tina']);
  });
});

describe('GET/PATCH /app/project/{id}/access', () => {
  it('lists direct members and workspace access with their roles', async () => {
    const response = await (await as('reader')).get(`/app/project/${survey.id}/access`);
    expect(response.statusCode).toBe(200);
    const entries = response.json() as Record<string, unknown>[];
    expect(entries.map((e) => e.username)).toEqual(['admin', 'owner', 'reader', 'writer']);
    expect(entries.find((e) => e.username === 'writer')).toEqual({
      id: people.writer!.id,
      type: 'member',
      email: 'writer@example.com',
      username: 'writer',
      name: '',
      workspace_role: 'guest',
      project_role: 'writer',
      role: 'writer',
      project_permission: 'writer',
      roles: ['reader', 'writer'],
    });
    expect(entries.find((e) => e.username === 'admin')).toMatchObject({
      workspace_role: 'owner',
      project_role: null,
      role: 'owner',
    });
  });

  it('lists everybody in the global workspace when a global role applies', async () => {
    const global = await createTestApp({ env: { GLOBAL_READ: 'true' } });
    try {
      const project = await createProject(global, { name: 'open' });
      const admin = global.client();
      await admin.login('admin', ADMIN_PASSWORD);
      await insertUser(global.database.db, { username: 'zed', email: 'zed@example.com' });
      const response = await admin.get(`/app/project/${project.id}/access`);
      expect(response.json()).toEqual([
        expect.objectContaining({ username: 'admin', role: 'owner' }),
        expect.objectContaining({
          username: 'zed',
          workspace_role: 'reader',
          project_role: null,
          role: 'reader',
          roles: ['reader'],
        }),
      ]);
    } finally {
      await global.close();
    }
  });

  it('refuses the list to non-members (403), anonymous (401), unknown ids (404)', async () => {
    expect((await (await as('outsider')).get(`/app/project/${survey.id}/access`)).statusCode).toBe(
      403,
    );
    expect((await t.client().get(`/app/project/${survey.id}/access`)).statusCode).toBe(401);
    expect((await (await as('owner')).get('/app/project/not-a-uuid/access')).statusCode).toBe(404);
    expect(
      (await (await as('owner')).get('/app/project/00000000-0000-4000-8000-000000000000/access'))
        .statusCode,
    ).toBe(404);
  });

  it('lets an owner add, change and remove a user, and set public', async () => {
    const project = await createProject(t, { name: 'patchable' });
    await upsertProjectMembers(t.database.db, project.id, [
      { userId: people.owner!.id, role: 'owner' },
    ]);
    const url = `/app/project/${project.id}/access`;
    let response = await patch('owner', url, { user_id: people.jo!.id, role: 'reader' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toContainEqual(
      expect.objectContaining({ username: 'jo', project_role: 'reader', name: 'Jo' }),
    );
    response = await patch('owner', url, { user_id: people.jo!.id, role: 'writer' });
    expect(response.json()).toContainEqual(
      expect.objectContaining({ username: 'jo', project_role: 'writer' }),
    );
    expect((await (await as('jo')).get(`/v1/project/waymark/patchable`)).json()).toMatchObject({
      role: 'writer',
      permissions: { upload: true, update: false, delete: false },
    });
    response = await patch('owner', url, { user_id: people.jo!.id, role: 'none' });
    expect((response.json() as { username: string }[]).map((e) => e.username)).not.toContain('jo');
    expect((await (await as('jo')).get(`/v1/project/waymark/patchable`)).statusCode).toBe(403);
    // none on somebody without a role is a no-op.
    expect((await patch('owner', url, { user_id: people.jo!.id, role: 'none' })).statusCode).toBe(
      200,
    );

    response = await patch('owner', url, { public: true });
    expect(response.statusCode).toBe(200);
    expect((await t.client().get(`/v1/project/waymark/patchable`)).statusCode).toBe(200);
    await patch('owner', url, { public: false });
    expect((await t.client().get(`/v1/project/waymark/patchable`)).statusCode).toBe(403);
  });

  it('validates the change', async () => {
    const url = `/app/project/${survey.id}/access`;
    const cases: [unknown, string][] = [
      [{ user_id: people.jo!.id }, "'role' is a required property"],
      [{ role: 'reader' }, "'user_id' is a required property"],
      [{}, "Either 'user_id' with 'role', or 'public' is required"],
      [
        { user_id: people.jo!.id, role: 'editor' },
        "'editor' is not one of ['owner', 'writer', 'reader', 'none'] - 'role'",
      ],
      [{ user_id: 'jo', role: 'reader' }, "'jo' is not of type 'integer' - 'user_id'"],
    ];
    for (const [body, detail] of cases) {
      const response = await patch('owner', url, body);
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
      expect(problem(response).detail).toBe(detail);
    }
    for (const id of [999_999, people.gone_jo!.id]) {
      const response = await patch('owner', url, { user_id: id, role: 'reader' });
      expect(response.statusCode).toBe(404);
      expect(problem(response).detail).toBe('User not found');
    }
  });

  it('refuses changes without owner rights', async () => {
    const url = `/app/project/${survey.id}/access`;
    for (const username of ['writer', 'reader', 'outsider']) {
      const response = await patch(username, url, { public: true });
      expect(response.statusCode, username).toBe(403);
      expect(problem(response).detail).toBe('You do not have permissions for this project');
    }
    expect(
      (await (await anonymous()).request('PATCH', url, { json: { public: true } })).statusCode,
    ).toBe(401);
  });
});

describe('v2 collaborators', () => {
  it('adds by username or email, changes, removes; owner rights only', async () => {
    const project = await createProject(t, { name: 'v2' });
    await upsertProjectMembers(t.database.db, project.id, [
      { userId: people.owner!.id, role: 'owner' },
    ]);
    const base = `/v2/projects/${project.id}/collaborators`;
    const owner = await as('owner');
    const added = await owner.post(base, { user: 'JOBS', role: 'editor' });
    expect(added.statusCode).toBe(201);
    expect(added.json()).toMatchObject({
      username: 'jobs',
      project_role: 'writer',
      role: 'writer',
    });
    const byEmail = await owner.post(base, { user: 'joan@example.com', role: 'reader' });
    expect(byEmail.statusCode).toBe(201);
    expect(byEmail.json()).toMatchObject({ username: 'joan', project_role: 'reader' });

    const again = await owner.post(base, { user: 'jobs', role: 'reader' });
    expect(again.statusCode).toBe(409);
    expect(problem(again).detail).toBe('User is already a project member');
    for (const login of ['nobody', 'gone_jo']) {
      const missing = await owner.post(base, { user: login, role: 'reader' });
      expect(missing.statusCode, login).toBe(404);
    }
    const badRole = await owner.post(base, { user: 'jo', role: 'boss' });
    expect(badRole.statusCode).toBe(400);

    const list = await owner.get(base);
    expect((list.json() as { username: string }[]).map((e) => e.username)).toEqual([
      'admin',
      'joan',
      'jobs',
      'owner',
    ]);

    const changed = await owner.request('PATCH', `${base}/${people.joan!.id}`, {
      json: { role: 'owner' },
    });
    expect(changed.statusCode).toBe(200);
    expect(changed.json()).toMatchObject({ username: 'joan', project_role: 'owner' });
    // Not a direct member (the superuser's access comes from its workspace role): 404.
    const adminId = (await findUserByUsername(t.database.db, 'admin'))!.id;
    for (const id of [String(adminId), '999999', 'x']) {
      const patchMissing = await owner.request('PATCH', `${base}/${id}`, {
        json: { role: 'reader' },
      });
      expect(patchMissing.statusCode, id).toBe(404);
      expect((await owner.delete(`${base}/${id}`)).statusCode, id).toBe(404);
    }
    const removed = await owner.delete(`${base}/${people.jobs!.id}`);
    expect(removed.statusCode).toBe(204);
    expect((await owner.delete(`${base}/${people.jobs!.id}`)).statusCode).toBe(404);

    for (const username of ['joan', 'writer', 'outsider']) {
      const refused = await (await as(username)).get(base);
      expect(refused.statusCode, username).toBe(username === 'joan' ? 200 : 403);
    }
  });
});

describe('accepting and removing access requests', () => {
  it('accepts with the chosen permission and refuses a second answer', async () => {
    const id = await requestAccess('jobs', survey);
    const response = await (
      await as('owner')
    ).post(`/app/project/access-request/accept/${id}`, { permissions: 'write' });
    expect(response.statusCode).toBe(200);
    expect(response.body).toBe('');
    expect((await (await as('jobs')).get('/v1/project/waymark/survey')).json()).toMatchObject({
      role: 'writer',
    });
    const again = await (
      await as('owner')
    ).post(`/app/project/access-request/accept/${id}`, { permissions: 'read' });
    expect(again.statusCode).toBe(404);
    expect((await (await as('owner')).delete(`/app/project/access-request/${id}`)).statusCode).toBe(
      404,
    );
  });

  it('maps read, edit, write and owner to roles; validates the permission', async () => {
    const project = await createProject(t, { name: 'mapping' });
    const expected: [string, string][] = [
      ['read', 'reader'],
      ['edit', 'writer'],
      ['owner', 'owner'],
    ];
    for (const [permission, role] of expected) {
      const id = await requestAccess('joan', project);
      const response = await (
        await as('admin')
      ).post(`/app/project/access-request/accept/${id}`, { permissions: permission });
      expect(response.statusCode).toBe(200);
      expect((await (await as('joan')).get('/v1/project/waymark/mapping')).json()).toMatchObject({
        role,
      });
      await patch('admin', `/app/project/${project.id}/access`, {
        user_id: people.joan!.id,
        role: 'none',
      });
    }
    const id = await requestAccess('joan', project);
    const url = `/app/project/access-request/accept/${id}`;
    const missing = await (await as('admin')).post(url, {});
    expect(missing.statusCode).toBe(400);
    expect(missing.json()).toEqual({ permissions: ['This field is required.'] });
    const invalid = await (await as('admin')).post(url, { permissions: 'admin' });
    expect(invalid.statusCode).toBe(400);
    expect(invalid.json()).toEqual({ permissions: ['Not a valid choice.'] });
    const noJson = await (await as('admin')).request('POST', url, { payload: 'x' });
    expect(noJson.statusCode).toBe(415);
  });

  it('lets only owner rights accept, and the requester or owner rights remove', async () => {
    const id = await requestAccess('majority', survey);
    for (const username of ['writer', 'reader', 'outsider', 'majority']) {
      const accept = await (
        await as(username)
      ).post(`/app/project/access-request/accept/${id}`, { permissions: 'read' });
      expect(accept.statusCode, username).toBe(403);
      expect(problem(accept).detail).toBe(
        "You don't have permissions to accept project access request",
      );
    }
    for (const username of ['writer', 'reader', 'outsider']) {
      const remove = await (await as(username)).delete(`/app/project/access-request/${id}`);
      expect(remove.statusCode, username).toBe(403);
      expect(problem(remove).detail).toBe(
        "You don't have permissions to remove project access request",
      );
    }
    const visitor = await (await anonymous()).delete(`/app/project/access-request/${id}`);
    expect(visitor.statusCode).toBe(401);
    // The requester cancels.
    const cancel = await (await as('majority')).delete(`/app/project/access-request/${id}`);
    expect(cancel.statusCode).toBe(200);
    const own = await (await as('majority')).get('/app/project/access-requests?page=1&per_page=10');
    expect(own.json()).toEqual({ items: [], count: 0 });
    // The owner declines a new one; the workspace admin accepts in the team workspace.
    const second = await requestAccess('majority', survey);
    expect(
      (await (await as('owner')).delete(`/app/project/access-request/${second}`)).statusCode,
    ).toBe(200);
    const third = await requestAccess('majority', parcels, 'team');
    const accepted = await (
      await as('tina')
    ).post(`/app/project/access-request/accept/${third}`, { permissions: 'owner' });
    expect(accepted.statusCode).toBe(200);
  });

  it('answers 404 for unknown and malformed ids', async () => {
    for (const id of ['999999', 'abc', '1.5', '99999999999999']) {
      const accept = await (
        await as('owner')
      ).post(`/app/project/access-request/accept/${id}`, { permissions: 'read' });
      expect(accept.statusCode, id).toBe(404);
      expect(
        (await (await as('owner')).delete(`/app/project/access-request/${id}`)).statusCode,
      ).toBe(404);
    }
  });

  it('refuses to accept an expired request, which stays listed as expired until removed', async () => {
    const id = await requestAccess('anna-jo', survey);
    t.clock.advance(7 * DAY - 1000);
    // CSRF tokens live a day: take fresh ones.
    for (const client of clients.values()) await client.init();
    const listed = await (
      await as('anna-jo')
    ).get('/app/project/access-requests?page=1&per_page=10');
    expect(listed.json().items).toEqual([expect.objectContaining({ id, status: 'pending' })]);
    t.clock.advance(1000);
    const accept = await (
      await as('owner')
    ).post(`/app/project/access-request/accept/${id}`, { permissions: 'read' });
    expect(accept.statusCode).toBe(409);
    expect(problem(accept).detail).toBe('Project access request has expired');
    const own = await (await as('anna-jo')).get('/app/project/access-requests?page=1&per_page=10');
    expect(own.json().items).toEqual([expect.objectContaining({ id, status: 'expired' })]);
    const incoming = await (
      await as('admin')
    ).get('/app/project/access-request/waymark?page=1&per_page=10');
    expect(incoming.json().items).toContainEqual(
      expect.objectContaining({ id, status: 'expired' }),
    );
    // A new request can be made, and the expired one can be removed.
    const fresh = await requestAccess('anna-jo', survey);
    expect(fresh).not.toBe(id);
    expect((await (await as('owner')).delete(`/app/project/access-request/${id}`)).statusCode).toBe(
      200,
    );
    const accepted = await (
      await as('owner')
    ).post(`/app/project/access-request/accept/${fresh}`, { permissions: 'read' });
    expect(accepted.statusCode).toBe(200);
  });
});

describe('PUT /v1/project/{ns}/{name} sharing answers', () => {
  it('answers 422 when nothing changed and 207 with the project when some did', async () => {
    const project = await createProject(t, { name: 'shared' });
    const url = `/v1/project/waymark/${project.name}`;
    const owner = await as('admin');
    const unchanged = await owner.request('PUT', url, {
      json: { access: { readersnames: ['nobody'] } },
    });
    expect(unchanged.statusCode).toBe(422);
    expect(unchanged.headers['content-type']).toBe('application/problem+json');
    expect(unchanged.json()).toMatchObject({
      code: 'UpdateProjectAccessError',
      detail: 'Project access could not be updated (UpdateProjectAccessError)',
      invalid_usernames: ['nobody'],
      invalid_ids: [],
    });
    const partial = await owner.request('PUT', url, {
      json: { access: { readersnames: ['jo', 'gone_jo'], public: true } },
    });
    expect(partial.statusCode).toBe(207);
    const body = partial.json();
    expect(body).toMatchObject({
      code: 'UpdateProjectAccessError',
      invalid_usernames: ['gone_jo'],
      project: { name: 'shared', access: { readersnames: ['jo'], public: true } },
    });
  });
});
