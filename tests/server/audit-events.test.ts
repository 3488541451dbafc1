/**
 * The audit log, the rest of issue 33's list (audit-log.test.ts has sign-in, passwords,
 * tokens, projects, pushes, access requests, workspace roles and view links): an email
 * confirmed or changed, a password reset, invitations accepted (from the link, the profile,
 * or by registering) and revoked, an account made by a workspace admin (POST /v2/users), a
 * workspace created, projects cloned and made from a template, a version restored, a
 * project's access replaced by the clients' PUT /v1/project, and exports (a HEAD is none).
 * Each writes exactly one entry with the right actor and target.
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashPassword } from '../../server/src/auth/passwords';
import { upsertProjectMembers } from '../../server/src/db/queries/projects';
import { insertUser } from '../../server/src/db/queries/users';
import { insertWorkspace, setWorkspaceMember } from '../../server/src/db/queries/workspaces';
import { users, workspaceInvitations, type Project, type User } from '../../server/src/db/schema';
import { watchAudit, type AuditWatch } from './support/audit';
import { dataOutGeoPackage } from './support/data-out';
import { scratch, type Scratch } from './support/geopackage';
import { commit, createProject } from './support/seed';
import {
  ADMIN_PASSWORD,
  createTestApp,
  lastMailedLink,
  type TestApp,
  type TestClient,
} from './support/test-app';

const PASSWORD = 'Field-Password-1';
const NS = 'waymark';
let t: TestApp;
let s: Scratch;
let audit: AuditWatch;
let admin: TestClient;
let owner: TestClient;
let wsadmin: TestClient;
const people: Record<string, User> = {};
let project: Project;
let counter = 0;

async function user(username: string, verifiedEmail = true): Promise<User> {
  people[username] = await insertUser(t.database.db, {
    username,
    email: `${username}@example.com`,
    passwordHash: await hashPassword(PASSWORD),
    verifiedEmail,
  });
  return people[username]!;
}

async function signedIn(username: string, password = PASSWORD): Promise<TestClient> {
  const client = t.client();
  await client.login(username, password);
  return client;
}

const lastLinkTo = (to: string, kind: string) => lastMailedLink(t, to, kind);
const tokenOf = (link: string) => link.split('/').at(-1)!;
const target = (type: string, name: string | null) => ({ targetType: type, targetName: name });

beforeAll(async () => {
  t = await createTestApp({ env: { BASE_URL: 'http://maps.example.org' } });
  s = await scratch();
  audit = watchAudit(t);
  for (const name of ['owner', 'wsadmin', 'TEMPLATES']) await user(name);
  await setWorkspaceMember(t.database.db, t.setup.workspaceId, people.wsadmin!.id, 'admin');
  await setWorkspaceMember(t.database.db, t.setup.workspaceId, people.owner!.id, 'writer');
  project = await createProject(t, { name: 'survey', creatorId: people.owner!.id });
  await upsertProjectMembers(t.database.db, project.id, [
    { userId: people.owner!.id, role: 'owner' },
  ]);
  await commit(t, project.id, { added: { 'data.gpkg': await dataOutGeoPackage(s.dir, false) } });
  await commit(t, project.id, { updated: { 'data.gpkg': await dataOutGeoPackage(s.dir, true) } });
  admin = await signedIn('admin', ADMIN_PASSWORD);
  owner = await signedIn('owner');
  wsadmin = await signedIn('wsadmin');
  await audit.skip();
});

afterAll(async () => {
  await t?.close();
  await s?.cleanup();
});

describe('audit log: account events', () => {
  it('an email confirmed from its link, once', async () => {
    await user('unverified', false);
    const client = await signedIn('unverified');
    expect((await client.get('/app/auth/resend-confirm-email')).statusCode).toBe(200);
    const token = tokenOf(await lastLinkTo('unverified@example.com', '/confirm-email/'));
    await audit.skip();
    const anonymous = t.client();
    await anonymous.init();
    await audit.one(() => anonymous.post(`/app/auth/confirm-email/${token}`), {
      action: 'account.email_confirmed',
      actorName: 'unverified',
      workspaceId: null,
      ...target('user', 'unverified'),
      details: { email: 'unverified@example.com' },
    });
    const [row] = await t.database.db.select().from(users).where(eq(users.username, 'unverified'));
    expect(row!.verifiedEmail).toBe(true);
    // The same link again changes nothing and records nothing.
    const again = await audit.entriesOf(() => anonymous.post(`/app/auth/confirm-email/${token}`));
    expect(again).toEqual([]);
  });

  it('a new email confirmed from its link', async () => {
    await user('mover');
    const client = await signedIn('mover');
    const asked = await client.post('/app/auth/user/profile', { email: 'moved@example.com' });
    expect(asked.statusCode, asked.body).toBe(200);
    const token = tokenOf(await lastLinkTo('moved@example.com', '/confirm-email/'));
    await audit.skip();
    await audit.one(() => client.post(`/app/auth/confirm-email/${token}`), {
      action: 'account.email_changed',
      actorName: 'mover',
      workspaceId: null,
      ...target('user', 'mover'),
      details: { from: 'mover@example.com', to: 'moved@example.com' },
    });
  });

  it('a password reset from its link, by the account (nobody was signed in)', async () => {
    await user('forgetful');
    const anonymous = t.client();
    await anonymous.init();
    const asked = await anonymous.post('/app/auth/reset-password', {
      email: 'forgetful@example.com',
    });
    expect(asked.statusCode, asked.body).toBe(200);
    const token = tokenOf(await lastLinkTo('forgetful@example.com', '/change-password/'));
    await audit.skip();
    await audit.one(
      () =>
        anonymous.post(`/app/auth/reset-password/${token}`, {
          password: 'Brand-New-Password-3',
          confirm: 'Brand-New-Password-3',
        }),
      {
        action: 'account.password_reset',
        actorName: 'forgetful',
        actorId: people.forgetful!.id,
        workspaceId: null,
        ...target('user', 'forgetful'),
      },
    );
    await signedIn('forgetful', 'Brand-New-Password-3');
  });
});

describe('audit log: workspaces', () => {
  const ws = () => t.setup.workspaceId;

  /** Invites `email`: the invitation's id, its profile uuid and the link's token. */
  async function invite(email: string): Promise<{ id: string; uuid: string; token: string }> {
    const invited = await wsadmin.post(`/v2/workspaces/${ws()}/invitations`, {
      email,
      role: 'reader',
    });
    expect(invited.statusCode, invited.body).toBe(201);
    const [row] = await t.database.db
      .select()
      .from(workspaceInvitations)
      .where(eq(workspaceInvitations.email, email));
    return {
      id: String(row!.id),
      uuid: row!.uuid,
      token: tokenOf(await lastLinkTo(email, '/invitations/')),
    };
  }

  it('an invitation accepted from its link, from the profile, and by registering', async () => {
    await user('joiner');
    const { token } = await invite('joiner@example.com');
    const joiner = await signedIn('joiner');
    await audit.skip();
    await audit.one(() => joiner.post(`/app/invitations/${token}/accept`), {
      action: 'workspace.invitation_accepted',
      actorName: 'joiner',
      workspaceId: ws(),
      ...target('invitation', 'joiner@example.com'),
      details: { role: 'reader' },
    });

    await user('profiled');
    const { uuid: profiledUuid } = await invite('profiled@example.com');
    const profiled = await signedIn('profiled');
    await audit.skip();
    await audit.one(() => profiled.post(`/app/user/invitations/${profiledUuid}/accept`), {
      action: 'workspace.invitation_accepted',
      actorName: 'profiled',
      workspaceId: ws(),
      ...target('invitation', 'profiled@example.com'),
    });

    const fresh = await invite('newcomer@example.com');
    const visitor = t.client();
    await visitor.init();
    await audit.skip();
    // Registering signs the new account in too: that is its own entry.
    const registered = await audit.entriesOf(async () => {
      const response = await visitor.post(`/app/invitations/${fresh.token}/register`, {
        username: 'newcomer',
        password: PASSWORD,
      });
      expect(response.statusCode, response.body).toBe(200);
    });
    expect(registered.map((e) => [e.action, e.actorName])).toEqual([
      ['workspace.invitation_accepted', 'newcomer'],
      ['auth.sign_in', 'newcomer'],
    ]);
    expect(registered[0]).toMatchObject({
      workspaceId: ws(),
      ...target('invitation', 'newcomer@example.com'),
      details: { role: 'reader', registered: true },
    });
  });

  it('an invitation revoked', async () => {
    const { id } = await invite('unwanted@example.com');
    await audit.skip();
    await audit.one(() => wsadmin.delete(`/v2/workspaces/${ws()}/invitations/${id}`), {
      action: 'workspace.invitation_revoked',
      actorName: 'wsadmin',
      workspaceId: ws(),
      ...target('invitation', 'unwanted@example.com'),
      details: { role: 'reader' },
    });
  });

  it('an invitation declined from the profile', async () => {
    await user('decliner');
    const { uuid } = await invite('decliner@example.com');
    const decliner = await signedIn('decliner');
    await audit.skip();
    await audit.one(() => decliner.delete(`/app/user/invitations/${uuid}`), {
      action: 'workspace.invitation_declined',
      actorName: 'decliner',
      workspaceId: ws(),
      ...target('invitation', 'decliner@example.com'),
      details: { role: 'reader' },
    });
  });

  it('an account made by a workspace admin (POST /v2/users)', async () => {
    await audit.one(
      () =>
        wsadmin.post('/v2/users', {
          email: 'made@example.com',
          username: 'made',
          password: PASSWORD,
          workspace_id: ws(),
          role: 'writer',
        }),
      {
        action: 'workspace.member_added',
        actorName: 'wsadmin',
        workspaceId: ws(),
        ...target('user', 'made'),
        details: { role: 'writer', account_created: true },
      },
    );
  });

  it('a workspace created', async () => {
    const created = await audit.one(() => admin.post('/v1/workspace', { name: 'fieldteam' }), {
      action: 'workspace.created',
      actorName: 'admin',
      workspaceName: 'fieldteam',
      ...target('workspace', 'fieldteam'),
    });
    expect(created.workspaceId).toBe(Number(created.targetId));
  });
});

describe('audit log: projects', () => {
  it('a project cloned', async () => {
    const cloned = await audit.one(
      () => wsadmin.post(`/v1/project/clone/${NS}/survey`, { namespace: NS, project: 'copy' }),
      {
        action: 'project.created',
        actorName: 'wsadmin',
        workspaceId: t.setup.workspaceId,
        projectName: 'copy',
        details: { public: false, files: 1, cloned_from: `${NS}/survey` },
      },
    );
    expect(cloned.projectId).not.toBe(project.id);
  });

  it('a project made from a template', async () => {
    const library = await insertWorkspace(t.database.db, { name: 'library', storage: 10 ** 8 });
    await setWorkspaceMember(t.database.db, library.id, people.TEMPLATES!.id, 'owner');
    const template = await createProject(t, {
      workspaceId: library.id,
      name: 'tree-survey',
      creatorId: people.TEMPLATES!.id,
      public: true,
    });
    await commit(t, template.id, { added: { 'survey.qgz': 'PK\u0003\u0004qgz' } });
    await audit.one(
      () => wsadmin.post(`/v1/project/${NS}`, { name: 'from template', template: 'tree-survey' }),
      {
        action: 'project.created',
        actorName: 'wsadmin',
        workspaceId: t.setup.workspaceId,
        projectName: 'from template',
        details: { public: false, files: 1, template: 'tree-survey' },
      },
    );
  });

  it('a version restored', async () => {
    await audit.one(() => owner.post(`/app/project/restore/${NS}/survey`, { version: 'v1' }), {
      action: 'project.restored',
      actorName: 'owner',
      projectId: project.id,
      projectName: 'survey',
      ...target('version', 'v3'),
      details: { added: 0, updated: 1, removed: 0 },
    });
  });

  it("the clients' PUT /v1/project: one entry per user shared and for the visibility", async () => {
    await user(`reader${++counter}`);
    const name = `reader${counter}`;
    const rows = await audit.entriesOf(async () => {
      const response = await owner.request('PUT', `/v1/project/${NS}/survey`, {
        json: {
          access: { public: true, ownersnames: ['owner'], readersnames: ['owner', name] },
        },
      });
      expect(response.statusCode, response.body).toBe(200);
    });
    expect(rows.map((r) => [r.action, r.targetName, r.details])).toEqual([
      ['project.share_changed', name, { role: 'reader' }],
      ['project.made_public', null, {}],
    ]);
    expect(rows.every((r) => r.actorName === 'owner' && r.projectId === project.id)).toBe(true);
    await audit.one(
      () =>
        owner.request('PUT', `/v1/project/${NS}/survey`, {
          json: { access: { public: false } },
        }),
      { action: 'project.made_private', actorName: 'owner', projectName: 'survey' },
    );
    // The same settings again change nothing and record nothing.
    const unchanged = await audit.entriesOf(() =>
      owner.request('PUT', `/v1/project/${NS}/survey`, { json: { access: { public: false } } }),
    );
    expect(unchanged).toEqual([]);
  });

  it('an export, once per file made; a HEAD request is no export', async () => {
    const url = `/app/export/${NS}/survey/trees?file=data.gpkg&format=geojson&version=v1`;
    const exported = await audit.one(() => owner.get(url), {
      action: 'project.exported',
      actorName: 'owner',
      projectId: project.id,
      ...target('layer', 'trees'),
    });
    expect(exported.details).toMatchObject({ file: 'data.gpkg', version: 1, format: 'geojson' });
    const head = await audit.entriesOf(async () => {
      const response = await owner.request('HEAD', url);
      expect(response.statusCode).toBe(200);
      expect(Number(response.headers['content-length'])).toBeGreaterThan(0);
    });
    expect(head).toEqual([]);
  });
});
