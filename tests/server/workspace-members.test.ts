/**
 * A workspace's members and invitations: the web app's calls (cookie session and CSRF) and the
 * python client's (bearer token, its request shapes), one set of routes and rules.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashPassword } from '../../server/src/auth/passwords';
import { insertUser } from '../../server/src/db/queries/users';
import { insertWorkspace, setWorkspaceMember } from '../../server/src/db/queries/workspaces';
import { eq } from 'drizzle-orm';
import {
  projectMembers,
  projects,
  workspaceInvitations,
  type User,
  type WorkspaceRole,
} from '../../server/src/db/schema';
import { INVITATION_TTL_MS } from '../../server/src/services/workspace-members';
import { PythonClient } from './support/python-client';
import { createTestApp, problem, type TestApp, type TestClient } from './support/test-app';

const PASSWORD = 'Field-Surv3y!';
let t: TestApp;
let counter = 0;

async function newUser(prefix = 'member'): Promise<User> {
  const username = `${prefix}${++counter}`;
  return insertUser(t.database.db, {
    username,
    email: `${username}@example.com`,
    passwordHash: await hashPassword(PASSWORD),
    verifiedEmail: true,
  });
}

/** A workspace with one user per role given; returns its id and the users by role. */
async function team(roles: WorkspaceRole[]) {
  const workspace = await insertWorkspace(t.database.db, {
    name: `team${++counter}`,
    storage: 1e6,
  });
  const users: User[] = [];
  for (const role of roles) {
    const user = await newUser(role);
    await setWorkspaceMember(t.database.db, workspace.id, user.id, role);
    users.push(user);
  }
  return { id: workspace.id, name: workspace.name, users };
}

async function web(user: User): Promise<TestClient> {
  const client = t.client();
  await client.login(user.username, PASSWORD);
  return client;
}

async function python(user: User): Promise<PythonClient> {
  const client = new PythonClient(t.app);
  await client.login(user.username, PASSWORD);
  return client;
}

/** The invitation link's token from the last mail to `email`. */
async function invitationToken(email: string): Promise<string> {
  const mail = (await t.outbox()).filter((m) => m.to === email).at(-1);
  const link = mail?.links.find((l) => l.includes('/invitations/'));
  if (!link) throw new Error(`no invitation mail to ${email}`);
  return link.split('/invitations/')[1]!;
}

beforeAll(async () => {
  t = await createTestApp();
});

afterAll(async () => {
  await t?.close();
});

describe('members (GET/PATCH/DELETE /v2/workspaces/{id}/members)', () => {
  it('lists the members with their roles to admins and owners only', async () => {
    const ws = await team(['owner', 'admin', 'writer']);
    const [owner, admin, writer] = ws.users as [User, User, User];
    for (const user of [owner, admin]) {
      const response = await (await web(user)).get(`/v2/workspaces/${ws.id}/members`);
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual(
        [owner, admin, writer]
          .map((u, i) => ({
            id: u.id,
            username: u.username,
            email: u.email,
            workspace_role: (['owner', 'admin', 'writer'] as const)[i],
          }))
          .sort((a, b) => a.username.localeCompare(b.username)),
      );
    }
    const denied = await (await web(writer)).get(`/v2/workspaces/${ws.id}/members`);
    expect(denied.statusCode).toBe(403);
    expect(problem(denied).detail).toBe('You do not have permissions to workspace');
    const outsider = await (await web(await newUser())).get(`/v2/workspaces/${ws.id}/members`);
    expect(outsider.statusCode).toBe(403);
    const missing = await (await web(owner)).get('/v2/workspaces/999999/members');
    expect(missing.statusCode).toBe(404);
    const junk = await (await web(owner)).get('/v2/workspaces/x1/members');
    expect(junk.statusCode).toBe(404);
  });

  it('lets an admin change roles below owner, but not grant or take the owner role', async () => {
    const ws = await team(['owner', 'admin', 'reader']);
    const [owner, admin, reader] = ws.users as [User, User, User];
    const client = await web(admin);
    const changed = await client.request('PATCH', `/v2/workspaces/${ws.id}/members/${reader.id}`, {
      json: { workspace_role: 'writer' },
    });
    expect(changed.statusCode).toBe(200);
    expect(changed.json()).toMatchObject({ id: reader.id, workspace_role: 'writer' });

    const escalate = await client.request('PATCH', `/v2/workspaces/${ws.id}/members/${admin.id}`, {
      json: { workspace_role: 'owner' },
    });
    expect(escalate.statusCode).toBe(403);
    expect(problem(escalate).detail).toBe(
      'Only a workspace owner can grant, change or remove the owner role',
    );
    const demote = await client.request('PATCH', `/v2/workspaces/${ws.id}/members/${owner.id}`, {
      json: { workspace_role: 'reader' },
    });
    expect(demote.statusCode).toBe(403);
    const badRole = await client.request('PATCH', `/v2/workspaces/${ws.id}/members/${reader.id}`, {
      json: { workspace_role: 'superuser' },
    });
    expect(badRole.statusCode).toBe(400);
    const wrongType = await client.request(
      'PATCH',
      `/v2/workspaces/${ws.id}/members/${reader.id}`,
      {
        json: { workspace_role: 3 },
      },
    );
    expect(wrongType.statusCode).toBe(400);
    const notMember = await client.request('PATCH', `/v2/workspaces/${ws.id}/members/999999`, {
      json: { workspace_role: 'reader' },
    });
    expect(notMember.statusCode).toBe(404);
    expect(problem(notMember).detail).toBe('User is not a member of this workspace');

    const members = (await client.get(`/v2/workspaces/${ws.id}/members`)).json() as {
      id: number;
      workspace_role: string;
    }[];
    expect(members.find((m) => m.id === owner.id)?.workspace_role).toBe('owner');
    expect(members.find((m) => m.id === admin.id)?.workspace_role).toBe('admin');
    expect(members.find((m) => m.id === reader.id)?.workspace_role).toBe('writer');
  });

  it('keeps the last owner, and lets an owner hand the role over', async () => {
    const ws = await team(['owner', 'writer']);
    const [owner, writer] = ws.users as [User, User];
    const client = await web(owner);
    const alone = await client.request('PATCH', `/v2/workspaces/${ws.id}/members/${owner.id}`, {
      json: { workspace_role: 'admin' },
    });
    expect(alone.statusCode).toBe(400);
    expect(problem(alone).detail).toBe('The workspace must keep at least one owner');
    const removeSelf = await client.delete(`/v2/workspaces/${ws.id}/members/${owner.id}`);
    expect(removeSelf.statusCode).toBe(400);
    expect(problem(removeSelf).detail).toBe('The workspace must keep at least one owner');

    const promote = await client.request('PATCH', `/v2/workspaces/${ws.id}/members/${writer.id}`, {
      json: { workspace_role: 'owner' },
    });
    expect(promote.statusCode).toBe(200);
    const leave = await client.delete(`/v2/workspaces/${ws.id}/members/${owner.id}`);
    expect(leave.statusCode).toBe(204);
    const members = (await (await web(writer)).get(`/v2/workspaces/${ws.id}/members`)).json();
    expect(members).toEqual([
      { id: writer.id, username: writer.username, email: writer.email, workspace_role: 'owner' },
    ]);
  });

  it('lets an admin remove members below owner, not owners', async () => {
    const ws = await team(['owner', 'admin', 'reader']);
    const [owner, admin, reader] = ws.users as [User, User, User];
    const client = await web(admin);
    expect((await client.delete(`/v2/workspaces/${ws.id}/members/${owner.id}`)).statusCode).toBe(
      403,
    );
    expect((await client.delete(`/v2/workspaces/${ws.id}/members/${reader.id}`)).statusCode).toBe(
      204,
    );
    expect((await client.delete(`/v2/workspaces/${ws.id}/members/${reader.id}`)).statusCode).toBe(
      404,
    );
    const denied = await (await web(reader)).get(`/v2/workspaces/${ws.id}/members`);
    expect(denied.statusCode).toBe(403);
  });

  it('needs the CSRF token from the web app', async () => {
    const ws = await team(['owner', 'reader']);
    const [owner, reader] = ws.users as [User, User];
    const client = await web(owner);
    const response = await client.request('PATCH', `/v2/workspaces/${ws.id}/members/${reader.id}`, {
      json: { workspace_role: 'writer' },
      csrf: false,
    });
    expect(response.statusCode).toBe(400);
    const members = (await client.get(`/v2/workspaces/${ws.id}/members`)).json();
    expect(members).toContainEqual(
      expect.objectContaining({ id: reader.id, workspace_role: 'reader' }),
    );
  });
});

describe('invitations', () => {
  it('mails a link that the invited user accepts after signing in; it is then listed no more', async () => {
    const ws = await team(['admin']);
    const [admin] = ws.users as [User];
    const client = await web(admin);
    const invitee = await newUser('invitee');

    const created = await client.post(`/v2/workspaces/${ws.id}/invitations`, {
      email: ` ${invitee.email!.toUpperCase()} `,
      role: 'writer',
    });
    expect(created.statusCode).toBe(201);
    const invitation = created.json();
    expect(invitation).toMatchObject({
      workspace_id: ws.id,
      email: invitee.email!.toUpperCase(),
      role: 'writer',
    });
    expect(Date.parse(invitation.expires_at) - Date.parse(invitation.created_at)).toBe(
      INVITATION_TTL_MS,
    );
    const listed = await client.get(`/v2/workspaces/${ws.id}/invitations`);
    expect(listed.json()).toEqual([invitation]);

    const mail = (await t.outbox()).filter((m) => m.to === invitee.email!.toUpperCase()).at(-1)!;
    expect(mail.subject).toBe(`${admin.username} invites you to the Waymark workspace ${ws.name}`);
    const token = (mail.links[0] ?? '').split('/invitations/')[1]!;
    expect(mail.links[0]).toBe(`${t.config.baseUrl}/invitations/${token}`);

    const other = await web(await newUser());
    const offer = await other.get(`/app/invitations/${token}`);
    expect(offer.json()).toMatchObject({ workspace: ws.name, workspace_id: ws.id, role: 'writer' });
    const wrongUser = await other.post(`/app/invitations/${token}/accept`);
    expect(wrongUser.statusCode).toBe(403);
    expect(problem(wrongUser).detail).toBe('This invitation was sent to another email address');

    // The link's holder may read the offer without signing in (to sign in or register).
    const anonymous = await t.app.inject({ method: 'GET', url: `/app/invitations/${token}` });
    expect(anonymous.json()).toMatchObject({ workspace: ws.name, account_exists: true });
    const visitor = t.client();
    await visitor.init();
    const anonymousAccept = await visitor.post(`/app/invitations/${token}/accept`);
    expect(anonymousAccept.statusCode).toBe(401);

    const invited = await web(invitee);
    const accepted = await invited.post(`/app/invitations/${token}/accept`);
    expect(accepted.statusCode).toBe(200);
    expect(accepted.json()).toMatchObject({ workspace: ws.name, role: 'writer' });
    const workspaces = (await invited.get('/v1/workspaces')).json() as {
      id: number;
      role: string;
    }[];
    expect(workspaces.find((w) => w.id === ws.id)?.role).toBe('writer');
    expect((await client.get(`/v2/workspaces/${ws.id}/invitations`)).json()).toEqual([]);
    const again = await invited.post(`/app/invitations/${token}/accept`);
    expect(again.statusCode).toBe(404);
    expect(problem(again).detail).toBe('Invitation not found');
  });

  it('refuses members, bad emails and the owner role from admins; renews a pending one', async () => {
    const ws = await team(['owner', 'admin', 'reader']);
    const [owner, admin, reader] = ws.users as [User, User, User];
    const client = await web(admin);
    const base = `/v2/workspaces/${ws.id}/invitations`;
    const member = await client.post(base, { email: reader.email, role: 'writer' });
    expect(member.statusCode).toBe(409);
    expect(problem(member).detail).toBe('User is already a member of this workspace');
    const bad = await client.post(base, { email: 'not an email', role: 'writer' });
    expect(bad.statusCode).toBe(400);
    const noRole = await client.post(base, { email: 'new@example.com' });
    expect(noRole.statusCode).toBe(400);
    const owners = await client.post(base, { email: 'new@example.com', role: 'owner' });
    expect(owners.statusCode).toBe(403);
    expect(
      (await (await web(owner)).post(base, { email: 'boss@example.com', role: 'owner' }))
        .statusCode,
    ).toBe(201);
    const denied = await (await web(reader)).post(base, { email: 'x@example.com', role: 'reader' });
    expect(denied.statusCode).toBe(403);

    const first = (await client.post(base, { email: 'new@example.com', role: 'reader' })).json();
    const firstToken = await invitationToken('new@example.com');
    const second = (await client.post(base, { email: 'New@Example.com', role: 'writer' })).json();
    expect(second.id).toBe(first.id);
    expect(second.role).toBe('writer');
    const secondToken = await invitationToken('New@Example.com');
    expect(secondToken).not.toBe(firstToken);
    const stale = await (await web(owner)).get(`/app/invitations/${firstToken}`);
    expect(stale.statusCode).toBe(404);
    expect(((await client.get(base)).json() as unknown[]).length).toBe(2);
  });

  it('revokes a pending invitation, and refuses an expired one', async () => {
    const ws = await team(['admin']);
    const [admin] = ws.users as [User];
    const client = await web(admin);
    const base = `/v2/workspaces/${ws.id}/invitations`;
    const invitee = await newUser('late');
    const revoked = (await client.post(base, { email: invitee.email, role: 'reader' })).json();
    const revokedToken = await invitationToken(invitee.email!);
    expect((await client.delete(`${base}/${revoked.id}`)).statusCode).toBe(204);
    expect((await client.delete(`${base}/${revoked.id}`)).statusCode).toBe(404);
    expect((await client.delete(`${base}/abc`)).statusCode).toBe(404);
    const invited = await web(invitee);
    expect((await invited.post(`/app/invitations/${revokedToken}/accept`)).statusCode).toBe(404);

    // Another invitee: mails written at the same (test clock) instant have no order.
    const lateInvitee = await newUser('late');
    await client.post(base, { email: lateInvitee.email, role: 'reader' });
    const token = await invitationToken(lateInvitee.email!);
    await t.database.db
      .update(workspaceInvitations)
      .set({ expiresAt: new Date(t.clock.now().getTime() - 1000) })
      .where(eq(workspaceInvitations.workspaceId, ws.id));
    const late = await (await web(lateInvitee)).post(`/app/invitations/${token}/accept`);
    expect(late.statusCode).toBe(400);
    expect(problem(late).detail).toBe('This invitation has expired');
  });
});

describe("the user's own invitations (profile, POST/DELETE /app/user/invitations/{uuid})", () => {
  it('lists pending invitations in the profile; the invited user accepts one without the link', async () => {
    const ws = await team(['admin']);
    const [admin] = ws.users as [User];
    const client = await web(admin);
    const invitee = await newUser('header');
    const outsider = await web(await newUser('outsider'));
    const base = `/v2/workspaces/${ws.id}/invitations`;
    await client.post(base, { email: invitee.email!.toUpperCase(), role: 'writer' });
    const invited = await web(invitee);

    const profile = (await invited.get('/v1/user/profile')).json();
    expect(profile.invitations).toEqual([
      { uuid: expect.stringMatching(/^[0-9a-f-]{36}$/), workspace: ws.name, role: 'writer' },
    ]);
    const { uuid } = profile.invitations[0];
    // Nobody else sees it, nor may use its uuid.
    expect((await outsider.get('/v1/user/profile')).json().invitations).toEqual([]);
    for (const response of [
      await outsider.post(`/app/user/invitations/${uuid}/accept`),
      await outsider.delete(`/app/user/invitations/${uuid}`),
    ]) {
      expect(response.statusCode).toBe(404);
      expect(problem(response).detail).toBe('Invitation not found');
    }
    for (const bad of ['not-a-uuid', '00000000-0000-0000-0000-000000000000', 'x'.repeat(101)]) {
      const response = await invited.post(`/app/user/invitations/${bad}/accept`);
      expect(response.statusCode).toBe(bad.length > 100 ? 400 : 404);
    }
    const visitor = t.client();
    await visitor.init();
    expect((await visitor.post(`/app/user/invitations/${uuid}/accept`)).statusCode).toBe(401);

    const accepted = await invited.post(`/app/user/invitations/${uuid.toUpperCase()}/accept`);
    expect(accepted.statusCode).toBe(200);
    expect(accepted.json()).toMatchObject({
      workspace: ws.name,
      workspace_id: ws.id,
      role: 'writer',
    });
    const after = (await invited.get('/v1/user/profile')).json();
    expect(after.invitations).toEqual([]);
    expect(after.workspaces).toContainEqual({ id: ws.id, name: ws.name, role: 'writer' });
    expect((await client.get(base)).json()).toEqual([]);
    expect((await invited.post(`/app/user/invitations/${uuid}/accept`)).statusCode).toBe(404);
  });

  it('declines an invitation, and hides expired ones from the profile', async () => {
    const ws = await team(['admin']);
    const [admin] = ws.users as [User];
    const client = await web(admin);
    const base = `/v2/workspaces/${ws.id}/invitations`;
    const invitee = await newUser('decliner');
    await client.post(base, { email: invitee.email, role: 'reader' });
    const invited = await web(invitee);
    const [{ uuid }] = (await invited.get('/v1/user/profile')).json().invitations;
    expect((await invited.delete(`/app/user/invitations/${uuid}`)).statusCode).toBe(204);
    expect((await invited.delete(`/app/user/invitations/${uuid}`)).statusCode).toBe(404);
    expect((await client.get(base)).json()).toEqual([]);
    expect((await invited.get('/v1/workspaces')).json()).not.toContainEqual(
      expect.objectContaining({ id: ws.id }),
    );

    await client.post(base, { email: invitee.email, role: 'reader' });
    const [pending] = (await invited.get('/v1/user/profile')).json().invitations;
    await t.database.db
      .update(workspaceInvitations)
      .set({ expiresAt: new Date(t.clock.now().getTime() - 1000) })
      .where(eq(workspaceInvitations.workspaceId, ws.id));
    expect((await invited.get('/v1/user/profile')).json().invitations).toEqual([]);
    const late = await invited.post(`/app/user/invitations/${pending.uuid}/accept`);
    expect(late.statusCode).toBe(400);
    expect(problem(late).detail).toBe('This invitation has expired');
  });
});

describe('registering from an invitation link', () => {
  it('creates the account for the invited email, joins, signs in, and spends the link', async () => {
    const ws = await team(['admin']);
    const client = await web(ws.users[0]!);
    await client.post(`/v2/workspaces/${ws.id}/invitations`, {
      email: 'fresh@example.com',
      role: 'reader',
    });
    const token = await invitationToken('fresh@example.com');
    const visitor = t.client();
    await visitor.init();
    const offer = await visitor.get(`/app/invitations/${token}`);
    expect(offer.json()).toMatchObject({ email: 'fresh@example.com', account_exists: false });

    const weak = await visitor.post(`/app/invitations/${token}/register`, {
      username: 'x',
      password: 'short',
    });
    expect(weak.statusCode).toBe(400);
    expect(Object.keys(weak.json()).sort()).toEqual(['password', 'username']);
    const taken = await visitor.post(`/app/invitations/${token}/register`, {
      username: ws.users[0]!.username,
      password: PASSWORD,
    });
    expect(taken.statusCode).toBe(400);
    expect(taken.json()).toEqual({ username: ['User with this username already exists'] });

    const registered = await visitor.post(`/app/invitations/${token}/register`, {
      username: 'fresh.surveyor',
      password: PASSWORD,
    });
    expect(registered.statusCode).toBe(200);
    expect(registered.json()).toMatchObject({ workspace: ws.name, role: 'reader' });
    const profile = (await visitor.get('/v1/user/profile')).json();
    expect(profile).toMatchObject({
      username: 'fresh.surveyor',
      email: 'fresh@example.com',
      verified_email: true,
    });
    const workspaces = (await visitor.get('/v1/workspaces')).json() as {
      id: number;
      role: string;
    }[];
    expect(workspaces.find((w) => w.id === ws.id)?.role).toBe('reader');
    const again = await t.client().post(`/app/invitations/${token}/register`, {
      username: 'someone.else',
      password: PASSWORD,
    });
    expect([400, 404]).toContain(again.statusCode);
  });

  it('refuses registering for an email that already has an account', async () => {
    const ws = await team(['admin']);
    const existing = await newUser('existing');
    const client = await web(ws.users[0]!);
    await client.post(`/v2/workspaces/${ws.id}/invitations`, {
      email: existing.email,
      role: 'reader',
    });
    const token = await invitationToken(existing.email!);
    const visitor = t.client();
    await visitor.init();
    const response = await visitor.post(`/app/invitations/${token}/register`, {
      username: 'second.account',
      password: PASSWORD,
    });
    expect(response.statusCode).toBe(409);
    expect(problem(response).detail).toBe('User with this email already exists');
  });
});

describe('the python client (bearer token, v2 calls)', () => {
  it('lists, changes, resets project roles, removes and invites as the library sends them', async () => {
    const ws = await team(['owner', 'reader']);
    const [owner, reader] = ws.users as [User, User];
    const [project] = await t.database.db
      .insert(projects)
      .values({ workspaceId: ws.id, name: 'roads' })
      .returning();
    await t.database.db
      .insert(projectMembers)
      .values({ projectId: project!.id, userId: reader.id, role: 'writer' });
    const client = await python(owner);

    const list = await client.get(`/v2/workspaces/${ws.id}/members`);
    expect(list.statusCode).toBe(200);
    expect((list.json() as unknown[]).length).toBe(2);
    const one = await client.get(`/v2/workspaces/${ws.id}/members/${reader.id}`);
    expect(one.json()).toEqual({
      id: reader.id,
      username: reader.username,
      email: reader.email,
      workspace_role: 'reader',
    });
    const patched = await client.patch(`/v2/workspaces/${ws.id}/members/${reader.id}`, {
      reset_projects_roles: true,
      workspace_role: 'writer',
    });
    expect(patched.statusCode).toBe(200);
    expect(patched.json().workspace_role).toBe('writer');
    const left = await t.database.db.select().from(projectMembers);
    expect(left.filter((r) => r.userId === reader.id)).toEqual([]);

    const invited = await client.post(`/v2/workspaces/${ws.id}/invitations`, {
      email: 'field@example.com',
      role: 'reader',
    });
    expect(invited.statusCode).toBe(201);
    expect(invited.headers['content-type']).toMatch(/^application\/json/);
    const refused = await client.post(`/v2/workspaces/${ws.id}/invitations`, {
      email: reader.email,
      role: 'reader',
    });
    expect(refused.statusCode).toBe(409);
    expect(refused.headers['content-type']).toBe('application/problem+json');

    const removed = await client.delete(`/v2/workspaces/${ws.id}/members/${reader.id}`);
    expect(removed.statusCode).toBe(204);
    const gone = await client.get(`/v2/workspaces/${ws.id}/members/${reader.id}`);
    expect(gone.statusCode).toBe(404);
  });
});

describe('POST /v2/users (a workspace admin creates a member account)', () => {
  it('creates the account as the library sends it, and it signs in and holds the role', async () => {
    const ws = await team(['admin']);
    const client = await python(ws.users[0]!);
    const created = await client.post('/v2/users', {
      email: 'field.worker@example.com',
      password: PASSWORD,
      workspace_id: ws.id,
      role: 'writer',
      notify_user: false,
    });
    expect(created.statusCode).toBe(201);
    expect(created.json()).toMatchObject({
      username: 'field.worker',
      email: 'field.worker@example.com',
      workspace_role: 'writer',
    });
    const member = new PythonClient(t.app);
    await member.login('field.worker', PASSWORD);
    const workspaces = (await member.get('/v1/workspaces')).json() as {
      id: number;
      role: string;
    }[];
    expect(workspaces.find((w) => w.id === ws.id)?.role).toBe('writer');

    const named = await client.post('/v2/users', {
      email: 'other@example.com',
      password: PASSWORD,
      workspace_id: ws.id,
      role: 'reader',
      notify_user: true,
      username: 'surveyor.two',
    });
    expect(named.json()).toMatchObject({ username: 'surveyor.two', workspace_role: 'reader' });
  });

  it('refuses taken emails, weak passwords, the owner role from admins and outsiders', async () => {
    const ws = await team(['admin', 'writer']);
    const [admin, writer] = ws.users as [User, User];
    const client = await python(admin);
    const body = { password: PASSWORD, workspace_id: ws.id, role: 'reader', notify_user: false };
    const taken = await client.post('/v2/users', { ...body, email: writer.email });
    expect(taken.statusCode).toBe(409);
    expect(taken.json().detail).toBe('User with this email already exists');
    const weak = await client.post('/v2/users', {
      ...body,
      email: 'weak@example.com',
      password: 'short',
    });
    expect(weak.statusCode).toBe(400);
    expect(Object.keys(weak.json())).toEqual(['password']);
    const badName = await client.post('/v2/users', {
      ...body,
      email: 'name@example.com',
      username: '.x',
    });
    expect(badName.statusCode).toBe(400);
    const owner = await client.post('/v2/users', {
      ...body,
      email: 'o@example.com',
      role: 'owner',
    });
    expect(owner.statusCode).toBe(403);
    const outsider = await (
      await python(writer)
    ).post('/v2/users', {
      ...body,
      email: 'x@example.com',
    });
    expect(outsider.statusCode).toBe(403);
    const noWorkspace = await client.post('/v2/users', {
      ...body,
      email: 'y@example.com',
      workspace_id: 999999,
    });
    expect(noWorkspace.statusCode).toBe(404);
    const missing = await client.post('/v2/users', { email: 'z@example.com' });
    expect(missing.statusCode).toBe(400);
  });
});

describe('members of the global workspace under a GLOBAL_* setting', () => {
  let g: TestApp;
  afterAll(async () => {
    await g?.close();
  });

  it('lists every active user with the global role, marked global; a set role becomes a membership', async () => {
    g = await createTestApp({ env: { GLOBAL_READ: 'true' } });
    const db = g.database.db;
    const make = async (username: string, active = true) =>
      insertUser(db, {
        username,
        email: `${username}@example.com`,
        passwordHash: await hashPassword(PASSWORD),
        verifiedEmail: true,
        active,
      });
    const boss = await make('boss');
    const plain = await make('plain');
    await make('gone', false);
    const wsId = g.setup.workspaceId;
    await setWorkspaceMember(db, wsId, boss.id, 'owner');
    const client = g.client();
    await client.login('boss', PASSWORD);

    const list = (await client.get(`/v2/workspaces/${wsId}/members`)).json();
    expect(list).toEqual([
      {
        id: 1,
        username: 'admin',
        email: expect.any(String),
        workspace_role: 'owner',
      },
      {
        id: boss.id,
        username: 'boss',
        email: 'boss@example.com',
        workspace_role: 'owner',
      },
      {
        id: plain.id,
        username: 'plain',
        email: 'plain@example.com',
        workspace_role: 'reader',
        global: true,
      },
    ]);
    const one = await client.get(`/v2/workspaces/${wsId}/members/${plain.id}`);
    expect(one.json()).toMatchObject({ workspace_role: 'reader', global: true });

    const removed = await client.delete(`/v2/workspaces/${wsId}/members/${plain.id}`);
    expect(removed.statusCode).toBe(400);
    expect(problem(removed).detail).toContain("comes from the server's global setting");

    const raised = await client.request('PATCH', `/v2/workspaces/${wsId}/members/${plain.id}`, {
      json: { workspace_role: 'writer' },
    });
    expect(raised.json()).toEqual({
      id: plain.id,
      username: 'plain',
      email: 'plain@example.com',
      workspace_role: 'writer',
    });
    const after = (await client.get(`/v2/workspaces/${wsId}/members/${plain.id}`)).json();
    expect(after).toEqual(raised.json());
    // Now a membership, it can be removed (back to the global role).
    expect((await client.delete(`/v2/workspaces/${wsId}/members/${plain.id}`)).statusCode).toBe(
      204,
    );
    expect((await client.get(`/v2/workspaces/${wsId}/members/${plain.id}`)).json()).toMatchObject({
      workspace_role: 'reader',
      global: true,
    });
  });
});
