import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashPassword } from '../../server/src/auth/passwords';
import { insertUser } from '../../server/src/db/queries/users';
import { insertWorkspace, setWorkspaceMember } from '../../server/src/db/queries/workspaces';
import { projects } from '../../server/src/db/schema';
import { workspaceRole } from '../../server/src/services/workspaces';
import { ADMIN_PASSWORD, createTestApp, problem, type TestApp } from './support/test-app';

describe('workspaceRole', () => {
  const base = {
    globalWorkspace: 'waymark',
    globalAdmin: false,
    globalWrite: false,
    globalRead: false,
  };
  const user = { isAdmin: false };

  it('gives superusers owner everywhere', () => {
    expect(workspaceRole(base, { isAdmin: true }, 'waymark', null)).toBe('owner');
    expect(workspaceRole(base, { isAdmin: true }, 'other', 'reader')).toBe('owner');
  });

  it('uses the GLOBAL_* flags in the global workspace only, highest first', () => {
    expect(workspaceRole(base, user, 'waymark', null)).toBe('guest');
    expect(workspaceRole({ ...base, globalRead: true }, user, 'Waymark', null)).toBe('reader');
    expect(
      workspaceRole({ ...base, globalRead: true, globalWrite: true }, user, 'waymark', null),
    ).toBe('writer');
    expect(
      workspaceRole(
        { ...base, globalRead: true, globalWrite: true, globalAdmin: true },
        user,
        'waymark',
        null,
      ),
    ).toBe('admin');
    expect(workspaceRole({ ...base, globalAdmin: true }, user, 'other', null)).toBe('guest');
  });

  it('prefers an explicit membership', () => {
    expect(workspaceRole({ ...base, globalAdmin: true }, user, 'waymark', 'reader')).toBe('reader');
    expect(workspaceRole(base, user, 'other', 'writer')).toBe('writer');
  });
});

describe('profile and workspaces', () => {
  let t: TestApp;
  let teamId: number;
  let hiddenId: number;

  beforeAll(async () => {
    t = await createTestApp({ env: { GLOBAL_WRITE: 'true', GLOBAL_STORAGE: '5000000' } });
    const db = t.database.db;
    const passwordHash = await hashPassword('Jane-Password-1');
    const jane = await insertUser(db, {
      username: 'jane',
      email: 'jane@example.com',
      passwordHash,
      firstName: 'Jane',
      lastName: 'Doe',
      verifiedEmail: false,
      registrationDate: new Date('2024-05-04T14:21:56.695Z'),
    });
    await insertUser(db, { username: 'bob.smith', email: 'bob@example.com', passwordHash });
    const team = await insertWorkspace(db, { name: 'team', storage: 1000 });
    const hidden = await insertWorkspace(db, { name: 'hidden', storage: 2000 });
    teamId = team.id;
    hiddenId = hidden.id;
    await setWorkspaceMember(db, team.id, jane.id, 'admin');
    await db.insert(projects).values([
      // One version each, stored whole: what they keep stored is their files' size.
      { workspaceId: t.setup.workspaceId, name: 'survey', diskUsage: 1200, storedBytes: 1200 },
      { workspaceId: t.setup.workspaceId, name: 'roads', diskUsage: 300, storedBytes: 300 },
      {
        workspaceId: t.setup.workspaceId,
        name: 'old',
        diskUsage: 999,
        storedBytes: 999,
        removedAt: new Date(),
      },
      { workspaceId: team.id, name: 'parcels', diskUsage: 50, storedBytes: 50 },
    ]);
  });

  afterAll(async () => {
    await t?.close();
  });

  it('GET /v1/user/profile has the reference shape', async () => {
    const client = t.client();
    await client.login('jane', 'Jane-Password-1');
    const response = await client.get('/v1/user/profile');
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body).toEqual({
      id: expect.any(Number),
      username: 'jane',
      email: 'jane@example.com',
      verified_email: false,
      first_name: 'Jane',
      last_name: 'Doe',
      name: 'Jane Doe',
      receive_notifications: true,
      registration_date: '2024-05-04T14:21:56Z',
      last_signed_in: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/),
      can_edit_profile: true,
      workspaces: [
        { id: t.setup.workspaceId, name: 'waymark', role: 'writer' },
        { id: teamId, name: 'team', role: 'admin' },
      ],
      preferred_workspace: t.setup.workspaceId,
      invitations: [],
      // Ours: an email change waiting for its link (the reference's clients ignore it).
      pending_email: null,
    });
  });

  it('GET /v1/user/profile needs a signed-in user', async () => {
    const response = await t.client().get('/v1/user/profile');
    expect(response.statusCode).toBe(401);
    expect(response.json()).toBe('Authentication information is missing or invalid.');
  });

  it('GET /v1/workspaces lists visible workspaces with usage and role', async () => {
    const client = t.client();
    await client.login('jane', 'Jane-Password-1');
    const response = await client.get('/v1/workspaces');
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual([
      {
        id: t.setup.workspaceId,
        name: 'waymark',
        storage: 5000000,
        disk_usage: 1500,
        project_count: 2,
        role: 'writer',
      },
      { id: teamId, name: 'team', storage: 1000, disk_usage: 50, project_count: 1, role: 'admin' },
    ]);
  });

  it('a user without memberships sees only the global workspace', async () => {
    const client = t.client();
    await client.login('bob.smith', 'Jane-Password-1');
    const response = await client.get('/v1/workspaces');
    expect(response.json()).toEqual([expect.objectContaining({ name: 'waymark', role: 'writer' })]);
  });

  it('superusers see every workspace as owner', async () => {
    const client = t.client();
    await client.login('admin', ADMIN_PASSWORD);
    const response = await client.get('/v1/workspaces');
    const list = response.json<{ name: string; role: string }[]>();
    expect(list.map((w) => [w.name, w.role])).toEqual([
      ['waymark', 'owner'],
      ['team', 'owner'],
      ['hidden', 'owner'],
    ]);
  });

  it('GET /v1/workspace/:id returns one workspace or the reference errors', async () => {
    const client = t.client();
    await client.login('jane', 'Jane-Password-1');
    const one = await client.get(`/v1/workspace/${teamId}`);
    expect(one.json()).toEqual({
      id: teamId,
      name: 'team',
      storage: 1000,
      disk_usage: 50,
      project_count: 1,
      role: 'admin',
    });

    const hidden = await client.get(`/v1/workspace/${hiddenId}`);
    expect(hidden.statusCode).toBe(403);
    expect(problem(hidden).detail).toBe('You do not have permissions to workspace');

    const missing = await client.get('/v1/workspace/9999');
    expect(missing.statusCode).toBe(404);
    expect(problem(missing).detail).toBe('Workspace not found');

    const notInt = await client.get('/v1/workspace/abc');
    expect(notInt.statusCode).toBe(404);
    expect(problem(notInt).detail).toMatch(/^The requested URL was not found/);

    const anonymous = await t.client().get(`/v1/workspace/${teamId}`);
    expect(anonymous.statusCode).toBe(401);
  });
});
