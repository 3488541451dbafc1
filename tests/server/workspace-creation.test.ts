/** POST /v1/workspace: users create workspaces of their own where WORKSPACE_CREATION allows it. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashPassword } from '../../server/src/auth/passwords';
import { insertUser } from '../../server/src/db/queries/users';
import { PythonClient } from './support/python-client';
import { ADMIN_PASSWORD, createTestApp, problem, type TestApp } from './support/test-app';

const PASSWORD = 'Field-Surv3y!';

async function signedIn(t: TestApp, username: string) {
  await insertUser(t.database.db, {
    username,
    email: `${username}@example.com`,
    passwordHash: await hashPassword(PASSWORD),
    verifiedEmail: true,
  });
  const client = t.client();
  await client.login(username, PASSWORD);
  return client;
}

describe('with WORKSPACE_CREATION=true', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ env: { WORKSPACE_CREATION: 'true', GLOBAL_STORAGE: '5000' } });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('is announced in /config', async () => {
    const config = await t.app.inject({ method: 'GET', url: '/config' });
    expect(config.json().workspace_creation).toBe(true);
  });

  it('creates a workspace the user owns, with the global storage allowance', async () => {
    const client = await signedIn(t, 'founder');
    const created = await client.post('/v1/workspace', { name: ' field team ' });
    expect(created.statusCode).toBe(201);
    const workspace = created.json();
    expect(workspace).toMatchObject({
      name: 'field team',
      role: 'owner',
      storage: 5000,
      disk_usage: 0,
      project_count: 0,
    });
    const list = (await client.get('/v1/workspaces')).json() as { id: number }[];
    expect(list.map((w) => w.id)).toContain(workspace.id);
    const members = await client.get(`/v2/workspaces/${workspace.id}/members`);
    expect(members.json()).toEqual([
      expect.objectContaining({ username: 'founder', workspace_role: 'owner' }),
    ]);
  });

  it('refuses taken, invalid and missing names with 4xx', async () => {
    const client = await signedIn(t, 'second');
    await client.post('/v1/workspace', { name: 'survey crew' });
    const taken = await client.post('/v1/workspace', { name: 'Survey Crew' });
    expect(taken.statusCode).toBe(409);
    expect(problem(taken).detail).toBe('Workspace with this name already exists');
    const short = await client.post('/v1/workspace', { name: 'x' });
    expect(short.statusCode).toBe(400);
    expect(short.json()).toEqual({ name: ['Workspace name must be 2 to 50 characters long'] });
    const missing = await client.post('/v1/workspace', {});
    expect(missing.statusCode).toBe(400);
    // A word of the route table would shadow the workspace's project routes.
    const routeWord = await client.post('/v1/workspace', { name: 'push' });
    expect(routeWord.statusCode).toBe(400);
    expect(routeWord.json().name?.[0]).toMatch(/^Workspace name /);
    // JSON bodies are not coerced: a number is not a name.
    const numeric = await client.post('/v1/workspace', { name: 123 });
    expect(numeric.statusCode).toBe(400);
    const list = (await client.get('/v1/workspaces')).json() as { name: string }[];
    expect(list.map((w) => w.name)).not.toContain('push');
    expect(list.map((w) => w.name)).not.toContain('123');
  });

  it('serves the python client (bearer token)', async () => {
    await signedIn(t, 'plugin');
    const client = new PythonClient(t.app);
    await client.login('plugin', PASSWORD);
    const created = await client.post('/v1/workspace', { name: 'plugin team' });
    expect(created.statusCode).toBe(201);
    expect(created.json().role).toBe('owner');
  });
});

describe('by default (WORKSPACE_CREATION unset)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t?.close();
  });

  it('refuses users and allows the superuser', async () => {
    const config = await t.app.inject({ method: 'GET', url: '/config' });
    expect(config.json().workspace_creation).toBe(false);
    const client = await signedIn(t, 'hopeful');
    const refused = await client.post('/v1/workspace', { name: 'my team' });
    expect(refused.statusCode).toBe(403);
    expect(problem(refused).detail).toBe('Creating workspaces is not enabled on this server');
    const admin = t.client();
    await admin.login('admin', ADMIN_PASSWORD);
    expect((await admin.post('/v1/workspace', { name: 'ops team' })).statusCode).toBe(201);
  });
});
