/**
 * The audit log (issue 33): each audited action writes exactly one entry with the right
 * actor, address and target; workspace admins read only their workspaces' entries, the
 * superuser all; filters, paging and the CSV export; no route changes an entry; old entries
 * go with the retention job.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isNull } from 'drizzle-orm';
import { hashPassword } from '../../server/src/auth/passwords';
import { upsertProjectMembers } from '../../server/src/db/queries/projects';
import { insertUser } from '../../server/src/db/queries/users';
import { insertWorkspace, setWorkspaceMember } from '../../server/src/db/queries/workspaces';
import { accessRequests, auditLog, type Project, type User } from '../../server/src/db/schema';
import type { AuditPage } from '../../server/src/schemas/audit';
import { AUDIT_RETENTION_JOB } from '../../server/src/services/audit';
import { watchAudit, type AuditWatch } from './support/audit';
import { finishPush, plan, sendChunk, startPush } from './support/push-client';
import { commit, createProject } from './support/seed';
import { ADMIN_PASSWORD, createTestApp, type TestApp, type TestClient } from './support/test-app';

const PASSWORD = 'Field-Password-1';
const DAY = 24 * 3600 * 1000;
let t: TestApp;
let admin: TestClient;
let owner: TestClient;
let wsadmin: TestClient;
let otherAdmin: TestClient;
const people: Record<string, User> = {};
let project: Project;
let elsewhere: number;
let entriesOf: AuditWatch['entriesOf'];
let one: AuditWatch['one'];

async function user(username: string): Promise<User> {
  people[username] = await insertUser(t.database.db, {
    username,
    email: `${username}@example.com`,
    passwordHash: await hashPassword(PASSWORD),
    verifiedEmail: true,
  });
  return people[username]!;
}

async function signedIn(username: string, password = PASSWORD): Promise<TestClient> {
  const client = t.client();
  await client.login(username, password);
  return client;
}

beforeAll(async () => {
  t = await createTestApp();
  ({ entriesOf, one } = watchAudit(t));
  for (const name of ['owner', 'wsadmin', 'friend', 'requester', 'otheradmin']) await user(name);
  await setWorkspaceMember(t.database.db, t.setup.workspaceId, people.wsadmin!.id, 'admin');
  elsewhere = (await insertWorkspace(t.database.db, { name: 'elsewhere', storage: 10 ** 9 })).id;
  await setWorkspaceMember(t.database.db, elsewhere, people.otheradmin!.id, 'admin');
  project = await createProject(t, { name: 'survey', creatorId: people.owner!.id });
  await upsertProjectMembers(t.database.db, project.id, [
    { userId: people.owner!.id, role: 'owner' },
  ]);
  await commit(t, project.id, { added: { 'data.txt': 'one' } });
  admin = await signedIn('admin', ADMIN_PASSWORD);
  owner = await signedIn('owner');
  wsadmin = await signedIn('wsadmin');
  otherAdmin = await signedIn('otheradmin');
  await entriesOf(async () => {});
});

afterAll(async () => {
  await t.close();
});

const target = (type: string, name: string | null) => ({ targetType: type, targetName: name });

describe('audit log: one entry per action', () => {
  it('signing in and out, and failing to', async () => {
    const client = t.client();
    await client.init();
    await one(() => client.post('/app/auth/login', { login: 'friend', password: PASSWORD }), {
      action: 'auth.sign_in',
      actorName: 'friend',
      ...target('user', 'friend'),
    });
    await one(() => client.post('/app/auth/logout'), {
      action: 'auth.sign_out',
      actorName: 'friend',
      ...target('user', 'friend'),
    });
    const failed = await entriesOf(() =>
      client.post('/app/auth/login', { login: 'friend', password: 'wrong-password' }),
    );
    expect(failed).toHaveLength(1);
    expect(failed[0]).toMatchObject({
      action: 'auth.sign_in_failed',
      actorName: null,
      ...target('user', 'friend'),
      targetId: String(people.friend!.id),
    });
    const unknown = await entriesOf(() =>
      client.post('/app/auth/login', { login: 'nobody-here', password: 'x' }),
    );
    expect(unknown.map((e) => [e.action, e.targetName, e.targetId])).toEqual([
      ['auth.sign_in_failed', 'nobody-here', null],
    ]);
    await one(() => client.post('/v1/auth/login', { login: 'friend', password: PASSWORD }), {
      action: 'auth.sign_in',
      actorName: 'friend',
      details: { client: 'token' },
    });
  });

  it('changing the password and asking for another email', async () => {
    const client = await signedIn('friend');
    await entriesOf(async () => {});
    await one(
      () =>
        client.post('/app/auth/change-password', {
          old_password: PASSWORD,
          password: 'Other-Password-2',
          confirm: 'Other-Password-2',
        }),
      { action: 'account.password_changed', actorName: 'friend', ...target('user', 'friend') },
    );
    await one(() => client.post('/app/auth/user/profile', { email: 'friend2@example.com' }), {
      action: 'account.email_change_requested',
      actorName: 'friend',
      details: { from: 'friend@example.com', to: 'friend2@example.com' },
    });
  });

  it('making and revoking a personal access token', async () => {
    const made = await one(
      () => owner.post('/app/auth/tokens', { name: 'script', scope: 'read', expires_in_days: 7 }),
      { action: 'token.created', actorName: 'owner', ...target('token', 'script') },
    );
    await one(() => owner.delete(`/app/auth/tokens/${made.targetId}`), {
      action: 'token.revoked',
      actorName: 'owner',
      ...target('token', 'script'),
    });
  });

  it('project created, renamed, made public and private, shared, deleted', async () => {
    const created = await one(() => admin.post('/v1/project/waymark', { name: 'audited' }), {
      action: 'project.created',
      actorName: 'admin',
      projectName: 'audited',
      workspaceId: t.setup.workspaceId,
    });
    const id = created.projectId!;
    await one(() => admin.request('PATCH', `/v2/projects/${id}`, { json: { name: 'renamed' } }), {
      action: 'project.renamed',
      actorName: 'admin',
      projectName: 'renamed',
      details: { from: 'audited', to: 'renamed' },
    });
    await one(
      () => admin.request('PATCH', `/app/project/${id}/public`, { json: { public: true } }),
      {
        action: 'project.made_public',
        projectName: 'renamed',
      },
    );
    await one(
      () => admin.request('PATCH', `/app/project/${id}/access`, { json: { public: false } }),
      { action: 'project.made_private', projectName: 'renamed' },
    );
    await one(
      () => admin.post(`/v2/projects/${id}/collaborators`, { user: 'friend', role: 'writer' }),
      {
        action: 'project.share_changed',
        ...target('user', 'friend'),
        details: { role: 'writer' },
      },
    );
    await one(
      () => admin.request('DELETE', `/v2/projects/${id}/collaborators/${people.friend!.id}`),
      { action: 'project.share_changed', ...target('user', 'friend'), details: { role: 'none' } },
    );
    await one(() => admin.delete('/v1/project/waymark/renamed'), {
      action: 'project.deleted',
      actorName: 'admin',
      projectName: 'renamed',
    });
  });

  it('a version pushed, with its file counts', async () => {
    const files = plan({ 'new.txt': 'new file', 'other.txt': 'more' });
    await one(
      async () => {
        const start = await startPush(owner, 'waymark/survey', 'v1', { added: files.list });
        const tx = (start.json() as { transaction: string }).transaction;
        for (const [chunk, bytes] of files.chunks) await sendChunk(owner, tx, chunk, bytes);
        return finishPush(owner, tx);
      },
      {
        action: 'project.version_pushed',
        actorName: 'owner',
        projectName: 'survey',
        ...target('version', 'v2'),
        details: { added: 2, updated: 0, removed: 0 },
      },
    );
  });

  it('access requests accepted and declined', async () => {
    const requester = await signedIn('requester');
    await entriesOf(async () => {});
    for (const decision of ['accept', 'decline'] as const) {
      const asked = await entriesOf(() =>
        requester.post('/app/project/access-request/waymark/survey'),
      );
      expect(asked).toEqual([]);
      const [request] = await t.database.db
        .select()
        .from(accessRequests)
        .where(isNull(accessRequests.status));
      await one(
        () =>
          decision === 'accept'
            ? owner.post(`/app/project/access-request/accept/${request!.id}`, {
                permissions: 'read',
              })
            : owner.delete(`/app/project/access-request/${request!.id}`),
        {
          action:
            decision === 'accept'
              ? 'project.access_request_accepted'
              : 'project.access_request_declined',
          actorName: 'owner',
          projectName: 'survey',
          ...target('user', 'requester'),
        },
      );
      if (decision === 'accept') {
        await entriesOf(() =>
          owner.request(
            'DELETE',
            `/v2/projects/${project.id}/collaborators/${people.requester!.id}`,
          ),
        );
      }
    }
  });

  it('workspace roles and invitations', async () => {
    const ws = t.setup.workspaceId;
    await setWorkspaceMember(t.database.db, ws, people.friend!.id, 'reader');
    await one(
      () =>
        wsadmin.request('PATCH', `/v2/workspaces/${ws}/members/${people.friend!.id}`, {
          json: { workspace_role: 'writer' },
        }),
      {
        action: 'workspace.member_role_changed',
        actorName: 'wsadmin',
        workspaceId: ws,
        ...target('user', 'friend'),
      },
    );
    await one(
      () =>
        wsadmin.post(`/v2/workspaces/${ws}/invitations`, {
          email: 'new@example.com',
          role: 'reader',
        }),
      {
        action: 'workspace.invitation_sent',
        actorName: 'wsadmin',
        workspaceId: ws,
        ...target('invitation', 'new@example.com'),
      },
    );
    await one(
      () => wsadmin.request('DELETE', `/v2/workspaces/${ws}/members/${people.friend!.id}`),
      { action: 'workspace.member_removed', ...target('user', 'friend') },
    );
  });

  it('view links made and revoked', async () => {
    const made = await one(
      () =>
        owner.post('/app/project/view-links/waymark/survey', {
          expires_at: new Date(t.clock.now().getTime() + DAY).toISOString(),
          label: 'council',
        }),
      {
        action: 'project.view_link_created',
        actorName: 'owner',
        ...target('view_link', 'council'),
      },
    );
    await one(() => owner.delete(`/app/project/view-links/waymark/survey/${made.targetId}`), {
      action: 'project.view_link_revoked',
      ...target('view_link', 'council'),
    });
    const again = await entriesOf(() =>
      owner.delete(`/app/project/view-links/waymark/survey/${made.targetId}`),
    );
    expect(again).toEqual([]);
  });

  it('a refused action writes nothing', async () => {
    const none = await entriesOf(async () => {
      await owner.post('/v1/project/waymark', { name: 'not allowed' });
      await wsadmin.request('PATCH', `/v2/projects/${project.id}`, { json: { name: '' } });
    });
    expect(none).toEqual([]);
  });
});

describe('audit log: reading it', () => {
  it('shows a workspace admin only their workspaces, the superuser everything', async () => {
    await t.database.db.insert(auditLog).values({
      at: t.clock.now(),
      action: 'project.created',
      actorName: 'someone',
      workspaceId: elsewhere,
      workspaceName: 'elsewhere',
      projectName: 'far-away',
    });
    const mine = (await wsadmin.get('/app/audit?per_page=200')).json() as AuditPage;
    expect(mine.superuser).toBe(false);
    expect(mine.workspaces).toEqual([{ id: t.setup.workspaceId, name: 'waymark' }]);
    expect(mine.entries.length).toBeGreaterThan(0);
    expect(new Set(mine.entries.map((e) => e.workspace_id))).toEqual(
      new Set([t.setup.workspaceId]),
    );
    const theirs = (await otherAdmin.get('/app/audit')).json() as AuditPage;
    expect(theirs.entries.map((e) => e.project)).toEqual(['far-away']);
    const forbidden = await otherAdmin.get(`/app/audit?workspace_id=${t.setup.workspaceId}`);
    expect(forbidden.statusCode).toBe(403);
    const all = (await admin.get('/app/audit?per_page=200')).json() as AuditPage;
    expect(all.superuser).toBe(true);
    expect(all.total).toBe(await countAll());
    expect(all.entries.some((e) => e.action === 'auth.sign_in')).toBe(true);
    expect((await owner.get('/app/audit')).statusCode).toBe(403);
  });

  it("shows account events (no workspace) to the superuser only, even the admin's own", async () => {
    const accountActions = [
      'auth.sign_in',
      'auth.sign_in_failed',
      'auth.sign_out',
      'account.password_changed',
      'account.email_change_requested',
      'token.created',
      'token.revoked',
    ] as const;
    // The workspace admin's own sign-in and token are account events too.
    const mine = await signedIn('wsadmin');
    const token = await mine.post('/app/auth/tokens', {
      name: 'mine',
      scope: 'read',
      expires_in_days: 7,
    });
    expect(token.statusCode, token.body).toBe(201);
    for (const action of accountActions) {
      const all = (await admin.get(`/app/audit?action=${action}`)).json() as AuditPage;
      expect(all.entries.length, action).toBeGreaterThan(0);
      expect(
        all.entries.every((e) => e.workspace_id === null),
        action,
      ).toBe(true);
      const theirs = (await wsadmin.get(`/app/audit?action=${action}`)).json() as AuditPage;
      expect(theirs.entries, action).toEqual([]);
      expect(theirs.total, action).toBe(0);
    }
    const csv = await wsadmin.get('/app/audit.csv');
    expect(csv.statusCode).toBe(200);
    expect(csv.body).not.toMatch(/,(auth|account|token)\./);
    expect((await admin.get('/app/audit.csv')).body).toMatch(/,auth\.sign_in,wsadmin,/);
  });

  it('filters by user, action, project and dates, and pages', async () => {
    const byUser = (await admin.get('/app/audit?user=OWNER&per_page=200')).json() as AuditPage;
    expect(byUser.entries.length).toBeGreaterThan(0);
    expect(byUser.entries.every((e) => e.actor === 'owner')).toBe(true);
    const pushes = (
      await admin.get('/app/audit?action=project.version_pushed')
    ).json() as AuditPage;
    expect(pushes.entries.map((e) => e.target)).toEqual(['v2']);
    const survey = (await admin.get('/app/audit?project=survey&per_page=200')).json() as AuditPage;
    expect(survey.entries.every((e) => e.project === 'survey')).toBe(true);
    const future = new Date(t.clock.now().getTime() + 1000).toISOString();
    const none = (await admin.get(`/app/audit?from=${future}`)).json() as AuditPage;
    expect(none.entries).toEqual([]);
    const page1 = (await admin.get('/app/audit?per_page=2&page=1')).json() as AuditPage;
    const page2 = (await admin.get('/app/audit?per_page=2&page=2')).json() as AuditPage;
    expect(page1.entries).toHaveLength(2);
    expect(page2.entries[0]!.id).toBeLessThan(page1.entries[1]!.id);
    expect((await admin.get('/app/audit?action=nothing.like.this')).statusCode).toBe(400);
    expect((await admin.get('/app/audit?from=yesterday')).statusCode).toBe(400);
  });

  it('exports the entries as CSV', async () => {
    const response = await wsadmin.get('/app/audit.csv?action=project.version_pushed');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(response.headers['content-disposition']).toMatch(
      /^attachment; filename="waymark-audit-/,
    );
    const lines = response.body.trimEnd().split('\r\n');
    expect(lines[0]).toBe(
      'time,action,user,address,workspace,project,target_type,target_id,target,details',
    );
    expect(lines).toHaveLength(2);
    expect(lines[1]).toContain(
      ',project.version_pushed,owner,127.0.0.1,waymark,survey,version,2,v2,',
    );
    const quoted = lines[1]!.slice(lines[1]!.indexOf(',"{') + 2, -1);
    const details = JSON.parse(quoted.replaceAll('""', '"')) as unknown;
    expect(details).toEqual({ added: 2, updated: 0, removed: 0 });
  });

  it('has no route that changes an entry', async () => {
    const routes = t.app.routeIndex.list().filter((r) => r.url.startsWith('/app/audit'));
    expect(routes.map((r) => `${r.method} ${r.url}`).sort()).toEqual([
      'GET /app/audit',
      'GET /app/audit.csv',
      'HEAD /app/audit',
      'HEAD /app/audit.csv',
    ]);
    for (const method of ['POST', 'PUT', 'PATCH', 'DELETE'] as const) {
      expect((await admin.request(method, '/app/audit')).statusCode).toBe(405);
    }
  });

  it('deletes entries older than the retention setting with the periodic job', async () => {
    const before = await countAll();
    await t.database.db.insert(auditLog).values({
      at: new Date(t.clock.now().getTime() - 366 * DAY),
      action: 'auth.sign_in',
      actorName: 'ancient',
    });
    expect(await countAll()).toBe(before + 1);
    const outcomes = await t.app.scheduler.runDue();
    expect(outcomes[AUDIT_RETENTION_JOB]).toBe('ran');
    expect(await countAll()).toBe(before);
  });
});

async function countAll(): Promise<number> {
  return (await t.database.db.select().from(auditLog)).length;
}
