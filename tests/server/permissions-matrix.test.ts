/**
 * Walks every route of the server's route table for seven actors on a public and on a
 * private project, and asserts the exact answer: the allowed status, or the refusal status
 * (docs/decisions/0042-server-permissions.md). A route without an expectation here fails the
 * test, so a new route cannot be missed.
 */
import { createHash, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LightMyRequestResponse } from 'fastify';
import { hashPassword } from '../../server/src/auth/passwords';
import { insertAccessRequest } from '../../server/src/db/queries/access-requests';
import { upsertProjectMembers } from '../../server/src/db/queries/projects';
import { findUserByUsername, insertUser } from '../../server/src/db/queries/users';
import { insertWorkspace, setWorkspaceMember } from '../../server/src/db/queries/workspaces';
import { insertViewLink, revokeViewLink } from '../../server/src/db/queries/view-links';
import { insertWebhook } from '../../server/src/db/queries/webhooks';
import { makeBearerToken } from '../../server/src/auth/bearer';
import { makePersonalToken } from '../../server/src/auth/personal-tokens';
import { insertPersonalToken } from '../../server/src/db/queries/personal-tokens';
import { deleteProjectMembers } from '../../server/src/db/queries/projects';
import { viewLinkToken } from '../../server/src/services/view-links';
import { AUTH_REQUIRED_TEXT, PROBLEM_CONTENT_TYPE } from '../../server/src/errors';
import {
  rateLimitHits,
  workspaceInvitations,
  type Project,
  type User,
} from '../../server/src/db/schema';
import { commit, createProject } from './support/seed';
import { createTestApp, type TestApp, type TestClient } from './support/test-app';

const PASSWORD = 'Field-Password-1';
const NS = 'waymark';
const DAY = 24 * 3600 * 1000;

const ACTORS = [
  'anonymous',
  'stranger',
  'reader',
  'writer',
  'owner',
  'wsadmin',
  'superuser',
] as const;
type Actor = (typeof ACTORS)[number];
type Visibility = 'public' | 'private';

interface Call {
  actor: Actor;
  visibility: Visibility;
  /** The shared project of this visibility (never deleted or changed by a case). */
  project: Project;
}

interface Req {
  url: string;
  json?: unknown;
  payload?: Buffer;
  headers?: Record<string, string>;
  /** Send with this client instead of the actor's (a throwaway session of the same role). */
  client?: TestClient;
}

interface Case {
  request: (call: Call) => Req | Promise<Req>;
  /** The exact status for the actor on a project of this visibility. */
  expect: (actor: Actor, visibility: Visibility) => number;
}

// ---------------------------------------------------------------------------------------
// Expectation rules (the permission matrix).

const PROJECT_READERS: readonly Actor[] = ['reader', 'writer', 'owner', 'wsadmin', 'superuser'];
const PROJECT_WRITERS: readonly Actor[] = ['writer', 'owner', 'wsadmin', 'superuser'];
const PROJECT_OWNERS: readonly Actor[] = ['owner', 'wsadmin', 'superuser'];
const WORKSPACE_ADMINS: readonly Actor[] = ['wsadmin', 'superuser'];

/** Anybody, signed in or not. */
const open = (ok: number) => () => ok;
/** Login: anonymous 401. */
const login = (ok: number) => (actor: Actor) => (actor === 'anonymous' ? 401 : ok);
/** Project read, no login needed: public for all; private 403 (anonymous too). */
const read = (ok: number) => (actor: Actor, visibility: Visibility) =>
  visibility === 'public' || PROJECT_READERS.includes(actor) ? ok : 403;
/** Login and project read. */
const loginRead = (ok: number) => (actor: Actor, visibility: Visibility) =>
  actor === 'anonymous' ? 401 : read(ok)(actor, visibility);
/** Login and a role that passes `allowed`, else 403. */
const loginAnd = (allowed: readonly Actor[], ok: number) => (actor: Actor) =>
  actor === 'anonymous' ? 401 : allowed.includes(actor) ? ok : 403;
const write = (ok: number) => loginAnd(PROJECT_WRITERS, ok);
const own = (ok: number) => loginAnd(PROJECT_OWNERS, ok);
const workspaceAdmin = (ok: number) => loginAnd(WORKSPACE_ADMINS, ok);
/** Owner's rights on a thing of the project others may not know of: 404 for them. */
const ownOr404 = (ok: number) => (actor: Actor) =>
  actor === 'anonymous' ? 401 : PROJECT_OWNERS.includes(actor) ? ok : 404;

// ---------------------------------------------------------------------------------------
// Seeded data: one app, one data set.

const t: TestApp = await createTestApp();
const people: Record<string, User> = {};
const clients = new Map<Actor, TestClient>();
const projects: Record<Visibility, Project> = {} as Record<Visibility, Project>;
/** A running upload by `writer` on each shared project; chunk 1 sent, chunk 2 missing. */
const uploads: Record<Visibility, { transaction: string; chunk: string; bytes: Buffer }> =
  {} as never;
let passwordHash: string;
let counter = 0;
const unique = (prefix: string) => `${prefix}-${++counter}`;
const sha1 = (bytes: Buffer) => createHash('sha1').update(bytes).digest('hex');

const ROLE_OF: Partial<Record<Actor, 'reader' | 'writer' | 'owner'>> = {
  reader: 'reader',
  writer: 'writer',
  owner: 'owner',
};

async function signIn(username: string, password = PASSWORD): Promise<TestClient> {
  const client = t.client();
  await client.login(username, password);
  return client;
}

/** A new user holding the actor's roles (on both shared projects), signed in. */
async function cloneOf(actor: Actor): Promise<TestClient> {
  if (actor === 'anonymous') return anonymousClient();
  const username = unique(`clone-${actor}`);
  const user = await insertUser(t.database.db, {
    username,
    email: `${username}@example.com`,
    passwordHash,
    verifiedEmail: true,
    isAdmin: actor === 'superuser',
  });
  if (actor === 'wsadmin')
    await setWorkspaceMember(t.database.db, t.setup.workspaceId, user.id, 'admin');
  const role = ROLE_OF[actor];
  if (role) {
    for (const project of Object.values(projects)) {
      await upsertProjectMembers(t.database.db, project.id, [{ userId: user.id, role }]);
    }
  }
  return signIn(username);
}

async function anonymousClient(): Promise<TestClient> {
  const client = t.client();
  await client.init();
  return client;
}

/** A project of this visibility with the actors' roles, for cases that change or delete it. */
async function freshProject(visibility: Visibility): Promise<Project> {
  const project = await createProject(t, {
    name: unique('fresh'),
    public: visibility === 'public',
  });
  await upsertProjectMembers(
    t.database.db,
    project.id,
    (['reader', 'writer', 'owner'] as const).map((role) => ({ userId: people[role]!.id, role })),
  );
  return project;
}

/** A fresh project with v1 (data.txt) and v2 (data.txt changed, a conflicted copy added). */
async function twoVersions(visibility: Visibility): Promise<Project> {
  const project = await freshProject(visibility);
  await commit(t, project.id, { added: { 'data.txt': 'one' } });
  await commit(t, project.id, {
    updated: { 'data.txt': 'two' },
    added: { 'data (conflicted copy, writer v1).txt': 'mine' },
  });
  return project;
}

/** A pending access request for the project by a new user. */
async function freshRequest(project: Project): Promise<number> {
  const username = unique('requester');
  const user = await insertUser(t.database.db, { username, email: `${username}@example.com` });
  const now = t.clock.now();
  return insertAccessRequest(t.database.db, {
    projectId: project.id,
    requestedBy: user.id,
    requestedAt: now,
    expiresAt: new Date(now.getTime() + 7 * DAY),
  });
}

/** A new user; with `project`, a direct reader of it. */
async function freshUser(project?: Project): Promise<User> {
  const username = unique('member');
  const user = await insertUser(t.database.db, { username, email: `${username}@example.com` });
  if (project)
    await upsertProjectMembers(t.database.db, project.id, [{ userId: user.id, role: 'reader' }]);
  return user;
}

/** Push start by `writer` for one new file per buffer; returns the transaction. */
async function startUpload(project: Project, files: Buffer[]) {
  const writer = clients.get('writer')!;
  const added = files.map((bytes, i) => ({
    path: `upload-${i}.txt`,
    size: bytes.length,
    checksum: sha1(bytes),
    chunks: [randomUUID()],
  }));
  const response = await writer.post(`/v1/project/push/${NS}/${project.name}`, {
    version: `v${project.latestVersion}`,
    changes: { added, updated: [], removed: [] },
  });
  expect(response.statusCode, response.body).toBe(200);
  return { transaction: (response.json() as { transaction: string }).transaction, added };
}

/**
 * Forgets the requests counted by the mail and link limits: the walk calls those routes
 * many times from one address (hardening-limits and account-security test the limits).
 */
async function forgetRequestLimits(): Promise<void> {
  await t.database.db.delete(rateLimitHits);
}

// ---------------------------------------------------------------------------------------
// The expectations, one per route of the table (HEAD follows GET).

const path = (p: Project) => `${NS}/${p.name}`;

const CASES: Record<string, Case> = {
  'GET /app/init': { request: () => ({ url: '/app/init' }), expect: open(200) },
  'GET /ping': { request: () => ({ url: '/ping' }), expect: open(200) },
  'GET /config': { request: () => ({ url: '/config' }), expect: open(200) },
  'GET /alive': { request: () => ({ url: '/alive' }), expect: open(200) },
  'POST /alive': { request: () => ({ url: '/alive' }), expect: open(200) },

  'POST /app/auth/login': {
    // Signing in as another (spare) user; the actor's own client keeps its session.
    request: async () => ({
      url: '/app/auth/login',
      json: { login: 'spare', password: PASSWORD },
      client: await anonymousClient(),
    }),
    expect: open(200),
  },
  'POST /app/auth/logout': {
    request: async ({ actor }) => ({ url: '/app/auth/logout', client: await cloneOf(actor) }),
    expect: login(200),
  },
  'GET /app/auth/refresh/csrf': {
    request: () => ({ url: '/app/auth/refresh/csrf' }),
    expect: login(200),
  },
  'POST /app/auth/reset-password': {
    // Fourteen calls for one email: each starts with no request counted against the mail
    // limits (hardening-limits.test.ts tests those).
    request: async () => {
      await forgetRequestLimits();
      return { url: '/app/auth/reset-password', json: { email: 'spare@example.com' } };
    },
    expect: open(200),
  },
  'POST /app/auth/reset-password/:token': {
    // An invalid token is refused alike for everybody: the route needs no login.
    request: () => ({
      url: '/app/auth/reset-password/not-a-token',
      json: { password: 'New-Password-1', confirm: 'New-Password-1' },
    }),
    expect: open(400),
  },
  'POST /app/auth/change-password': {
    // A wrong old password: the 400 form error comes after the login check.
    request: () => ({
      url: '/app/auth/change-password',
      json: { old_password: 'wrong', password: 'New-Password-1', confirm: 'New-Password-1' },
    }),
    expect: login(400),
  },
  'POST /app/auth/confirm-email/:token': {
    request: () => ({ url: '/app/auth/confirm-email/not-a-token' }),
    expect: open(400),
  },
  'GET /app/auth/resend-confirm-email': {
    request: async () => {
      await forgetRequestLimits();
      return { url: '/app/auth/resend-confirm-email' };
    },
    expect: login(200),
  },
  'DELETE /app/auth/user/pending-email': {
    request: () => ({ url: '/app/auth/user/pending-email' }),
    expect: login(204),
  },
  'POST /app/auth/user/profile': {
    request: ({ actor }) => ({
      url: '/app/auth/user/profile',
      json: { email: actor === 'anonymous' ? 'x@example.com' : emailOf(actor) },
    }),
    expect: login(200),
  },
  'GET /v1/user/profile': { request: () => ({ url: '/v1/user/profile' }), expect: login(200) },

  // Personal access tokens (issue 33): the caller's own, with a browser session.
  'GET /app/auth/tokens': { request: () => ({ url: '/app/auth/tokens' }), expect: login(200) },
  'POST /app/auth/tokens': {
    request: () => ({
      url: '/app/auth/tokens',
      json: { name: unique('token'), scope: 'read', expires_in_days: 7 },
    }),
    expect: login(201),
  },
  'DELETE /app/auth/tokens/:id': {
    // Somebody else's token: 404 for everybody signed in (nobody revokes another's).
    request: async () => ({ url: `/app/auth/tokens/${(await personalToken('spare', 'read')).id}` }),
    expect: login(404),
  },
  // The audit log: workspace admins (their workspaces) and the superuser.
  'GET /app/audit': { request: () => ({ url: '/app/audit' }), expect: workspaceAdmin(200) },
  'GET /app/audit.csv': { request: () => ({ url: '/app/audit.csv' }), expect: workspaceAdmin(200) },
  'GET /v1/user/:username': { request: () => ({ url: '/v1/user/anyone' }), expect: login(200) },
  'DELETE /v1/user': {
    request: async ({ actor }) => ({ url: '/v1/user', client: await cloneOf(actor) }),
    expect: login(204),
  },
  'GET /v1/workspaces': { request: () => ({ url: '/v1/workspaces' }), expect: login(200) },
  'GET /v1/workspace/:id': {
    request: () => ({ url: `/v1/workspace/${t.setup.workspaceId}` }),
    expect: login(200),
  },

  // Workspace members and invitations (the shared workspace; wsadmin and the superuser
  // administer it). Changes name nobody who exists, so the shared data stays as it is: the
  // answer after the permission check is 404 (or 400 for an invalid email).
  'POST /v1/workspace': {
    request: () => ({ url: '/v1/workspace', json: { name: unique('own-ws') } }),
    // WORKSPACE_CREATION is off by default: only superusers create workspaces.
    expect: loginAnd(['superuser'], 201),
  },
  'GET /v2/workspaces/:id/members': {
    request: () => ({ url: `/v2/workspaces/${t.setup.workspaceId}/members` }),
    expect: workspaceAdmin(200),
  },
  'GET /v2/workspaces/:id/members/:user_id': {
    request: () => ({
      url: `/v2/workspaces/${t.setup.workspaceId}/members/${people.wsadmin!.id}`,
    }),
    expect: workspaceAdmin(200),
  },
  'PATCH /v2/workspaces/:id/members/:user_id': {
    request: () => ({
      url: `/v2/workspaces/${t.setup.workspaceId}/members/2147483000`,
      json: { workspace_role: 'reader' },
    }),
    expect: workspaceAdmin(404),
  },
  'DELETE /v2/workspaces/:id/members/:user_id': {
    request: () => ({ url: `/v2/workspaces/${t.setup.workspaceId}/members/2147483000` }),
    expect: workspaceAdmin(404),
  },
  'POST /v2/users': {
    request: () => ({
      url: '/v2/users',
      json: {
        email: 'not-an-email',
        password: PASSWORD,
        workspace_id: t.setup.workspaceId,
        role: 'reader',
      },
    }),
    expect: workspaceAdmin(400),
  },
  'GET /v2/workspaces/:id/invitations': {
    request: () => ({ url: `/v2/workspaces/${t.setup.workspaceId}/invitations` }),
    expect: workspaceAdmin(200),
  },
  'POST /v2/workspaces/:id/invitations': {
    request: () => ({
      url: `/v2/workspaces/${t.setup.workspaceId}/invitations`,
      json: { email: 'not-an-email', role: 'reader' },
    }),
    expect: workspaceAdmin(400),
  },
  'DELETE /v2/workspaces/:id/invitations/:invitation_id': {
    request: () => ({ url: `/v2/workspaces/${t.setup.workspaceId}/invitations/2147483000` }),
    expect: workspaceAdmin(404),
  },
  'GET /app/invitations/:token': {
    request: async () => {
      await forgetRequestLimits();
      return { url: '/app/invitations/no-such-invitation' };
    },
    expect: open(404),
  },
  'POST /app/invitations/:token/accept': {
    request: async () => {
      await forgetRequestLimits();
      return { url: '/app/invitations/no-such-invitation/accept' };
    },
    expect: login(404),
  },
  'POST /app/user/invitations/:uuid/accept': {
    request: async ({ actor }) => ({
      url: `/app/user/invitations/${await ownInvitation(actor)}/accept`,
    }),
    expect: login(200),
  },
  'DELETE /app/user/invitations/:uuid': {
    request: async ({ actor }) => ({ url: `/app/user/invitations/${await ownInvitation(actor)}` }),
    expect: login(204),
  },
  'POST /app/invitations/:token/register': {
    request: async () => {
      await forgetRequestLimits();
      return {
        url: '/app/invitations/no-such-invitation/register',
        json: { username: unique('invited'), password: PASSWORD },
      };
    },
    expect: open(404),
  },

  'GET /v1/project/paginated': {
    request: () => ({ url: '/v1/project/paginated?page=1&per_page=10' }),
    expect: open(200),
  },
  'POST /v1/project/:namespace': {
    request: () => ({ url: `/v1/project/${NS}`, json: { name: unique('created'), public: false } }),
    expect: workspaceAdmin(200),
  },
  'GET /v1/project/:namespace/:name': {
    request: ({ project }) => ({ url: `/v1/project/${path(project)}` }),
    expect: read(200),
  },
  'GET /v1/project/by_uuid/:id': {
    request: ({ project }) => ({ url: `/v1/project/by_uuid/${project.id}` }),
    expect: read(200),
  },
  'PUT /v1/project/:namespace/:name': {
    // Sets the public flag to what it is: allowed callers change nothing.
    request: ({ project }) => ({
      url: `/v1/project/${path(project)}`,
      json: { access: { public: project.public } },
    }),
    expect: own(200),
  },
  'POST /v1/project/clone/:namespace/:project': {
    // Read on the source, workspace admin on the target.
    request: ({ project }) => ({
      url: `/v1/project/clone/${path(project)}`,
      json: { project: unique('clone'), namespace: NS },
    }),
    expect: workspaceAdmin(200),
  },
  'POST /v2/projects/:id/scheduleDelete': {
    request: async ({ visibility }) => ({
      url: `/v2/projects/${(await freshProject(visibility)).id}/scheduleDelete`,
    }),
    expect: own(204),
  },
  'POST /app/project/unsubscribe/:id': {
    request: async ({ visibility }) => ({
      url: `/app/project/unsubscribe/${(await freshProject(visibility)).id}`,
    }),
    // Read is enough; a direct owner cannot leave (400 after the check).
    expect: (actor, visibility) => (actor === 'owner' ? 400 : loginRead(200)(actor, visibility)),
  },
  'PATCH /app/project/:id/public': {
    request: ({ project }) => ({
      url: `/app/project/${project.id}/public`,
      json: { public: project.public },
    }),
    expect: own(204),
  },
  'GET /app/project/templates': {
    request: () => ({ url: '/app/project/templates' }),
    expect: login(200),
  },

  'POST /v1/project/push/:namespace/:name': {
    // A stale version: 400 Version mismatch comes after the upload permission check.
    request: ({ project }) => ({
      url: `/v1/project/push/${path(project)}`,
      json: {
        version: 'v99',
        changes: {
          added: [
            { path: 'x.txt', size: 1, checksum: sha1(Buffer.from('x')), chunks: [randomUUID()] },
          ],
          updated: [],
          removed: [],
        },
      },
    }),
    expect: write(400),
  },
  // Uploads belong to the user who started them (writer here): everybody else gets 403.
  'GET /v1/project/push/:transaction': {
    request: ({ visibility }) => ({ url: `/v1/project/push/${uploads[visibility].transaction}` }),
    expect: loginAnd(['writer'], 200),
  },
  'POST /v1/project/push/chunk/:transaction/:chunk': {
    request: ({ visibility }) => {
      const upload = uploads[visibility];
      return {
        url: `/v1/project/push/chunk/${upload.transaction}/${upload.chunk}`,
        payload: upload.bytes,
        headers: { 'content-type': 'application/octet-stream' },
      };
    },
    expect: loginAnd(['writer'], 200),
  },
  'POST /v1/project/push/finish/:transaction': {
    // The second file's chunk is never sent: 422 UploadError, and the upload stays.
    request: ({ visibility }) => ({
      url: `/v1/project/push/finish/${uploads[visibility].transaction}`,
    }),
    expect: loginAnd(['writer'], 422),
  },
  'POST /v1/project/push/cancel/:transaction': {
    request: async ({ visibility }) => {
      const project = await freshProject(visibility);
      const { transaction } = await startUpload(project, [Buffer.from('cancel me')]);
      return { url: `/v1/project/push/cancel/${transaction}` };
    },
    expect: loginAnd(['writer'], 200),
  },

  // Desktop and mobile clients (client-compat).
  'POST /v1/auth/login': {
    request: async () => ({
      url: '/v1/auth/login',
      json: { login: 'spare', password: PASSWORD },
      client: await anonymousClient(),
    }),
    expect: open(200),
  },
  'DELETE /v1/project/:namespace/:name': {
    request: async ({ visibility }) => ({
      url: `/v1/project/${path(await freshProject(visibility))}`,
    }),
    expect: own(200),
  },
  'POST /v1/project/by_names': {
    // Everybody gets the map; what each entry says depends on the caller.
    request: ({ project }) => ({
      url: '/v1/project/by_names',
      json: { projects: [path(project)] },
    }),
    expect: open(200),
  },
  'GET /v2/projects/:id': {
    request: ({ project }) => ({ url: `/v2/projects/${project.id}?files_at_version=v1` }),
    // Anonymous visitors of a private project get 404 here (the reference's v2 rule).
    expect: (actor, visibility) =>
      actor === 'anonymous' && visibility === 'private' ? 404 : read(200)(actor, visibility),
  },
  'DELETE /v2/projects/:id': {
    request: async ({ visibility }) => ({
      url: `/v2/projects/${(await freshProject(visibility)).id}`,
    }),
    expect: own(204),
  },
  'PATCH /v2/projects/:id': {
    request: async ({ visibility }) => ({
      url: `/v2/projects/${(await freshProject(visibility)).id}`,
      json: { name: unique('renamed') },
    }),
    expect: own(204),
  },
  'POST /v2/diagnostic-logs': {
    request: () => ({
      url: '/v2/diagnostic-logs?app=plugin-2025.1&username=someone',
      payload: Buffer.from('a log line'),
      headers: { 'content-type': 'text/plain' },
    }),
    expect: open(200),
  },
  'POST /v2/projects/:id/chunks': {
    request: ({ project }) => ({
      url: `/v2/projects/${project.id}/chunks`,
      payload: Buffer.from('chunk'),
      headers: { 'content-type': 'application/octet-stream' },
    }),
    expect: write(200),
  },
  'POST /v2/projects/:id/versions': {
    // A stale version: 409 ProjectVersionExists comes after the upload permission check.
    request: ({ project }) => ({
      url: `/v2/projects/${project.id}/versions`,
      json: {
        version: 'v99',
        check_only: true,
        changes: {
          added: [],
          updated: [],
          removed: [{ path: 'data.txt', size: 9, checksum: sha1(Buffer.from('some data')) }],
        },
      },
    }),
    expect: write(409),
  },

  'GET /v2/projects/:id/delta': {
    request: ({ project }) => ({ url: `/v2/projects/${project.id}/delta?since=v0&to=v1` }),
    expect: read(200),
  },
  // The shared projects hold no diffs: a reader is told the diff does not exist.
  'GET /v2/projects/:id/raw/diff': {
    request: ({ project }) => ({
      url: `/v2/projects/${project.id}/raw/diff?file=data.gpkg-diff-v1-v2`,
    }),
    expect: read(404),
  },
  'GET /v2/projects/:id/raw/diff/*': {
    request: ({ project }) => ({ url: `/v2/projects/${project.id}/raw/diff/data.gpkg-diff-v1-v2` }),
    expect: read(404),
  },

  'GET /v1/project/raw/:namespace/:name': {
    request: ({ project }) => ({ url: `/v1/project/raw/${path(project)}?file=data.txt` }),
    expect: read(200),
  },
  'GET /v1/project/download/:namespace/:name': {
    request: ({ project }) => ({ url: `/v1/project/download/${path(project)}?format=zip` }),
    expect: read(200),
  },

  // The map (issue 19): the download permission. data.txt is no GeoPackage: a reader is
  // told so (400), after the access check; it has no changes to show (404).
  // Field capture: the forms read like the map (a project without a QGIS project has none);
  // an empty batch is refused after the upload check.
  'GET /app/map/:namespace/:name/forms': {
    request: ({ project }) => ({ url: `/app/map/${path(project)}/forms` }),
    expect: read(200),
  },
  'POST /v2/projects/:id/edits': {
    request: ({ project }) => ({
      url: `/v2/projects/${project.id}/edits`,
      json: { base_version: 'v1', changes: [] },
    }),
    expect: write(400),
  },
  'GET /app/map/:namespace/:name/layers': {
    request: ({ project }) => ({ url: `/app/map/${path(project)}/layers?file=data.txt` }),
    expect: read(400),
  },
  'GET /app/map/:namespace/:name/tiles/:layer/:z/:x/:y.mvt': {
    request: ({ project }) => ({
      url: `/app/map/${path(project)}/tiles/trees/0/0/0.mvt?file=data.txt&version=v1`,
    }),
    expect: read(400),
  },
  'GET /app/map/:namespace/:name/features/:layer': {
    request: ({ project }) => ({ url: `/app/map/${path(project)}/features/trees?file=data.txt` }),
    expect: read(400),
  },
  'GET /app/map/:namespace/:name/features/:layer/:fid': {
    request: ({ project }) => ({ url: `/app/map/${path(project)}/features/trees/1?file=data.txt` }),
    expect: read(400),
  },
  'GET /app/map/:namespace/:name/changes': {
    request: ({ project }) => ({
      url: `/app/map/${path(project)}/changes?file=data.txt&version=v1`,
    }),
    expect: read(404),
  },

  // Exports (issue 32): the download permission; data.txt is no GeoPackage (400 after the
  // access check).
  'GET /app/export/:namespace/:name/:layer': {
    request: ({ project }) => ({
      url: `/app/export/${path(project)}/trees?file=data.txt&format=csv`,
    }),
    expect: read(400),
  },

  // OGC API - Features (issue 32): the download permission. The shared projects have no
  // GeoPackage: no collections (a named one is 404 after the access check).
  'GET /ogc/:namespace/:name/:version': {
    request: ({ project }) => ({ url: `/ogc/${path(project)}/latest` }),
    expect: read(200),
  },
  'GET /ogc/:namespace/:name/:version/': {
    request: ({ project }) => ({ url: `/ogc/${path(project)}/v1/` }),
    expect: read(200),
  },
  'GET /ogc/:namespace/:name/:version/conformance': {
    request: ({ project }) => ({ url: `/ogc/${path(project)}/v1/conformance` }),
    expect: read(200),
  },
  'GET /ogc/:namespace/:name/:version/collections': {
    request: ({ project }) => ({ url: `/ogc/${path(project)}/v1/collections` }),
    expect: read(200),
  },
  'GET /ogc/:namespace/:name/:version/collections/:collectionId': {
    request: ({ project }) => ({ url: `/ogc/${path(project)}/v1/collections/trees` }),
    expect: read(404),
  },
  'GET /ogc/:namespace/:name/:version/collections/:collectionId/items': {
    request: ({ project }) => ({ url: `/ogc/${path(project)}/v1/collections/trees/items` }),
    expect: read(404),
  },
  'GET /ogc/:namespace/:name/:version/collections/:collectionId/items/:featureId': {
    request: ({ project }) => ({ url: `/ogc/${path(project)}/v1/collections/trees/items/1` }),
    expect: read(404),
  },

  // Read-only view links (issue 32): owner's rights to make, list and revoke them; opening
  // one needs nothing but the link.
  'GET /app/project/view-links/:namespace/:name': {
    request: ({ project }) => ({ url: `/app/project/view-links/${path(project)}` }),
    expect: own(200),
  },
  'POST /app/project/view-links/:namespace/:name': {
    request: ({ project }) => ({
      url: `/app/project/view-links/${path(project)}`,
      json: { expires_at: new Date(t.clock.now().getTime() + DAY).toISOString() },
    }),
    expect: own(201),
  },
  'DELETE /app/project/view-links/:namespace/:name/:id': {
    request: async ({ project }) => ({
      url: `/app/project/view-links/${path(project)}/${(await viewLink(project, 'live')).id}`,
    }),
    expect: own(204),
  },
  'GET /app/project/view-links/:namespace/:name/:id/uses': {
    request: async ({ project }) => ({
      url: `/app/project/view-links/${path(project)}/${(await viewLink(project, 'live')).id}/uses`,
    }),
    expect: own(200),
  },
  'GET /app/view/:token': {
    request: async ({ project }) => ({
      url: `/app/view/${(await viewLink(project, 'live')).token}`,
    }),
    expect: open(200),
  },

  // OpenID Connect sign-in (issue 33): browser navigations for anyone; without OIDC_ISSUER
  // both go back to the sign-in screen with a message (302).
  'GET /app/auth/oidc/start': {
    request: () => ({ url: '/app/auth/oidc/start' }),
    expect: open(302),
  },
  'GET /app/auth/oidc/callback': {
    request: () => ({ url: '/app/auth/oidc/callback?state=x&code=y' }),
    expect: open(302),
  },

  // Webhooks (issue 33): a workspace's admins manage its webhooks, a project's owners the
  // project's own; someone else's webhook is not found (404). The address is a public IP
  // (no name to resolve; nothing is sent in this test).
  'GET /app/workspaces/:id/webhooks': {
    request: () => ({ url: `/app/workspaces/${t.setup.workspaceId}/webhooks` }),
    expect: workspaceAdmin(200),
  },
  'POST /app/workspaces/:id/webhooks': {
    request: () => ({
      url: `/app/workspaces/${t.setup.workspaceId}/webhooks`,
      json: { url: PUBLIC_HOOK_URL, events: ['project.deleted'] },
    }),
    expect: workspaceAdmin(201),
  },
  'GET /app/project/webhooks/:namespace/:name': {
    request: ({ project }) => ({ url: `/app/project/webhooks/${path(project)}` }),
    expect: own(200),
  },
  'POST /app/project/webhooks/:namespace/:name': {
    request: ({ project }) => ({
      url: `/app/project/webhooks/${path(project)}`,
      json: { url: PUBLIC_HOOK_URL, events: ['version.created'] },
    }),
    expect: own(201),
  },
  'PATCH /app/webhooks/:id': {
    request: async ({ project }) => ({
      url: `/app/webhooks/${await webhookOf(project)}`,
      json: { active: false },
    }),
    expect: ownOr404(200),
  },
  'DELETE /app/webhooks/:id': {
    request: async ({ project }) => ({ url: `/app/webhooks/${await webhookOf(project)}` }),
    expect: ownOr404(204),
  },
  'POST /app/webhooks/:id/test': {
    request: async ({ project }) => ({ url: `/app/webhooks/${await webhookOf(project)}/test` }),
    expect: ownOr404(202),
  },
  'GET /app/webhooks/:id/deliveries': {
    request: async ({ project }) => ({
      url: `/app/webhooks/${await webhookOf(project)}/deliveries`,
    }),
    expect: ownOr404(200),
  },

  'GET /v1/project/versions/paginated/:namespace/:name': {
    request: ({ project }) => ({
      url: `/v1/project/versions/paginated/${path(project)}?page=1&per_page=50`,
    }),
    expect: read(200),
  },
  'GET /v1/project/version/:id/:version': {
    request: ({ project }) => ({ url: `/v1/project/version/${project.id}/v1` }),
    expect: read(200),
  },
  'GET /v1/project/version/:namespace/:name/:version': {
    request: ({ project }) => ({ url: `/v1/project/version/${path(project)}/v1` }),
    expect: read(200),
  },
  'GET /v1/resource/history/:namespace/:name': {
    request: ({ project }) => ({ url: `/v1/resource/history/${path(project)}?path=data.txt` }),
    expect: read(200),
  },
  'GET /v1/resource/changesets/:namespace/:name/:version': {
    // data.txt has no changeset: readers get past the permission check to 'Diff not found'.
    request: ({ project }) => ({
      url: `/v1/resource/changesets/${path(project)}/v1?path=data.txt`,
    }),
    expect: read(404),
  },

  // Time travel (issue 20): compare and conflicts read like the history; restoring and
  // resolving push a version (writers and above), each on a fresh project with two versions.
  'GET /app/project/compare/:namespace/:name': {
    request: ({ project }) => ({ url: `/app/project/compare/${path(project)}?from=v0&to=v1` }),
    expect: read(200),
  },
  'GET /app/project/compare/:namespace/:name/rows': {
    // No such GeoPackage: readers get past the permission check to 404.
    request: ({ project }) => ({
      url: `/app/project/compare/${path(project)}/rows?from=v0&to=v1&path=none.gpkg`,
    }),
    expect: read(404),
  },
  'GET /app/project/conflicts/:namespace/:name': {
    request: ({ project }) => ({ url: `/app/project/conflicts/${path(project)}` }),
    expect: read(200),
  },
  'GET /app/project/conflicts/:namespace/:name/edit': {
    // data.txt is not an edit-conflict file: readers get past the permission check to 400.
    request: ({ project }) => ({
      url: `/app/project/conflicts/${path(project)}/edit?path=data.txt`,
    }),
    expect: read(400),
  },
  'GET /app/project/conflicts/:namespace/:name/rows': {
    // data.txt is not a conflicted copy: readers get past the permission check to 400.
    request: ({ project }) => ({
      url: `/app/project/conflicts/${path(project)}/rows?path=data.txt`,
    }),
    expect: read(400),
  },
  'POST /app/project/restore/:namespace/:name': {
    request: async ({ visibility }) => ({
      url: `/app/project/restore/${path(await twoVersions(visibility))}`,
      json: { version: 'v1' },
    }),
    expect: write(201),
  },
  'POST /app/project/restore-file/:namespace/:name': {
    request: async ({ visibility }) => ({
      url: `/app/project/restore-file/${path(await twoVersions(visibility))}`,
      json: { version: 'v1', path: 'data.txt' },
    }),
    expect: write(201),
  },
  'POST /app/project/conflicts/:namespace/:name/resolve': {
    request: async ({ visibility }) => ({
      url: `/app/project/conflicts/${path(await twoVersions(visibility))}/resolve`,
      json: { path: 'data (conflicted copy, writer v1).txt', action: 'discard' },
    }),
    expect: write(201),
  },

  'GET /app/project/access-requests': {
    request: () => ({ url: '/app/project/access-requests?page=1&per_page=10' }),
    expect: login(200),
  },
  'GET /app/project/access-request/:namespace': {
    request: () => ({ url: `/app/project/access-request/${NS}?page=1&per_page=10` }),
    expect: workspaceAdmin(200),
  },
  'POST /app/project/access-request/:namespace/:project': {
    // Needs no access to the project; direct members already have access (409).
    request: ({ project }) => ({ url: `/app/project/access-request/${path(project)}` }),
    expect: (actor) => (actor === 'anonymous' ? 401 : ROLE_OF[actor] !== undefined ? 409 : 200),
  },
  'POST /app/project/access-request/accept/:id': {
    request: async ({ project }) => ({
      url: `/app/project/access-request/accept/${await freshRequest(project)}`,
      json: { permissions: 'read' },
    }),
    expect: own(200),
  },
  'DELETE /app/project/access-request/:id': {
    // Somebody else's request: only owner's rights may decline it.
    request: async ({ project }) => ({
      url: `/app/project/access-request/${await freshRequest(project)}`,
    }),
    expect: own(200),
  },
  'GET /app/auth/user/search': {
    request: () => ({ url: `/app/auth/user/search?namespace=${NS}&like=s` }),
    expect: login(200),
  },
  'GET /app/project/:id/access': {
    request: ({ project }) => ({ url: `/app/project/${project.id}/access` }),
    expect: loginRead(200),
  },
  'PATCH /app/project/:id/access': {
    request: ({ project }) => ({
      url: `/app/project/${project.id}/access`,
      json: { public: project.public },
    }),
    expect: own(200),
  },
  'GET /v2/projects/:id/collaborators': {
    request: ({ project }) => ({ url: `/v2/projects/${project.id}/collaborators` }),
    expect: own(200),
  },
  'POST /v2/projects/:id/collaborators': {
    request: async ({ project }) => ({
      url: `/v2/projects/${project.id}/collaborators`,
      json: { user: (await freshUser()).username, role: 'reader' },
    }),
    expect: own(201),
  },
  'PATCH /v2/projects/:id/collaborators/:user_id': {
    request: async ({ project }) => ({
      url: `/v2/projects/${project.id}/collaborators/${(await freshUser(project)).id}`,
      json: { role: 'writer' },
    }),
    expect: own(200),
  },
  'DELETE /v2/projects/:id/collaborators/:user_id': {
    request: async ({ project }) => ({
      url: `/v2/projects/${project.id}/collaborators/${(await freshUser(project)).id}`,
    }),
    expect: own(204),
  },
};

/**
 * Other bodies of a route that a different service answers: `<METHOD> <route> (<variant>)`.
 * Each must name a route of the table.
 */
const VARIANTS: Record<string, Case> = {
  'POST /v1/project/:namespace (from a template)': {
    // The template is public in a workspace nobody but its maker is a member of: using one
    // needs the right to create projects and to read the template.
    request: () => ({
      url: `/v1/project/${NS}`,
      json: { name: unique('from-template'), template: TEMPLATE_NAME },
    }),
    expect: workspaceAdmin(200),
  },
};
const TEMPLATE_NAME = 'matrix-template';

/** View links after they ended, and what they open (issue 32). */
const linkVariants = (state: 'expired' | 'revoked'): Record<string, Case> => ({
  [`GET /app/view/:token (${state} link)`]: {
    request: async ({ project }) => ({
      url: `/app/view/${(await viewLink(project, state)).token}`,
    }),
    expect: open(404),
  },
  [`GET /app/map/:namespace/:name/layers (${state} view link)`]: {
    request: async ({ project }) => ({
      url: `/app/map/${path(project)}/layers?file=data.txt&link=${(await viewLink(project, state)).token}`,
    }),
    expect: open(404),
  },
});
Object.assign(VARIANTS, linkVariants('expired'), linkVariants('revoked'), {
  // A live link reads the map as a reader would (data.txt is no GeoPackage: 400 after the
  // access check), for anybody; it gives no files.
  'GET /app/map/:namespace/:name/layers (view link)': {
    request: async ({ project }) => ({
      url: `/app/map/${path(project)}/layers?file=data.txt&link=${(await viewLink(project, 'live')).token}`,
    }),
    expect: open(400),
  },
  'GET /v1/project/raw/:namespace/:name (view link)': {
    request: async ({ project }) => ({
      url: `/v1/project/raw/${path(project)}?file=data.txt&link=${(await viewLink(project, 'live')).token}`,
    }),
    expect: read(200),
  },
  // Tokens in the Authorization header (GIS clients): the actor's own, without a session.
  'GET /ogc/:namespace/:name/:version/collections (bearer token)': {
    request: async ({ actor, project }) => ({
      url: `/ogc/${path(project)}/v1/collections`,
      client: await anonymousClient(),
      headers: tokenHeaders(actor),
    }),
    expect: read(200),
  },
  'GET /app/export/:namespace/:name/:layer (bearer token)': {
    request: async ({ actor, project }) => ({
      url: `/app/export/${path(project)}/trees?file=data.txt&format=csv`,
      client: await anonymousClient(),
      headers: tokenHeaders(actor),
    }),
    expect: read(400),
  },
  // The token of a user who was a reader and lost access: public projects only.
  'GET /ogc/:namespace/:name/:version/collections (token of a user who lost access)': {
    request: async ({ project }) => {
      const user = await freshUser(project);
      const token = makeBearerToken(t.config.secretKey, user, t.clock.now()).token;
      await deleteProjectMembers(t.database.db, project.id, [user.id]);
      return {
        url: `/ogc/${path(project)}/v1/collections`,
        client: await anonymousClient(),
        headers: { authorization: `Bearer ${token}` },
      };
    },
    expect: (_actor, visibility) => (visibility === 'public' ? 200 : 403),
  },
} satisfies Record<string, Case>);

// Personal access tokens (issue 33) of each actor, sent without a session: a read-and-write
// token acts as its user; a read-only one only reads; none changes the password, email or
// tokens; a revoked or expired one is 401 everywhere; a user who lost access reads no more.
const tokenVariants: Record<string, Case> = {
  'GET /v1/project/:namespace/:name (read-only personal token)': {
    request: async ({ actor, project }) => ({
      url: `/v1/project/${path(project)}`,
      client: await anonymousClient(),
      headers: await patHeaders(actor, 'read'),
    }),
    expect: read(200),
  },
  'POST /v1/project/by_names (read-only personal token)': {
    request: async ({ actor, project }) => ({
      url: '/v1/project/by_names',
      json: { projects: [path(project)] },
      client: await anonymousClient(),
      headers: await patHeaders(actor, 'read'),
    }),
    expect: open(200),
  },
  'GET /ogc/:namespace/:name/:version/collections (read-only personal token)': {
    request: async ({ actor, project }) => ({
      url: `/ogc/${path(project)}/v1/collections`,
      client: await anonymousClient(),
      headers: await patHeaders(actor, 'read'),
    }),
    expect: read(200),
  },
  'POST /v1/project/push/:namespace/:name (read-only personal token)': {
    request: async ({ actor, project }) => ({
      ...(CASES['POST /v1/project/push/:namespace/:name']!.request({
        actor,
        visibility: project.public ? 'public' : 'private',
        project,
      }) as Req),
      client: await anonymousClient(),
      headers: await patHeaders(actor, 'read'),
    }),
    expect: (actor) => (actor === 'anonymous' ? 401 : 403),
  },
  'POST /v1/project/push/:namespace/:name (read-and-write personal token)': {
    request: async ({ actor, project }) => ({
      ...(CASES['POST /v1/project/push/:namespace/:name']!.request({
        actor,
        visibility: project.public ? 'public' : 'private',
        project,
      }) as Req),
      client: await anonymousClient(),
      headers: await patHeaders(actor, 'write'),
    }),
    expect: write(400),
  },
  'PATCH /v2/projects/:id (read-and-write personal token)': {
    // The same name: allowed callers change nothing.
    request: async ({ actor, project }) => ({
      url: `/v2/projects/${project.id}`,
      json: { name: project.name },
      client: await anonymousClient(),
      headers: await patHeaders(actor, 'write'),
    }),
    expect: own(204),
  },
  'POST /app/auth/change-password (read-and-write personal token)': {
    request: async ({ actor }) => ({
      url: '/app/auth/change-password',
      json: { old_password: PASSWORD, password: 'New-Password-1', confirm: 'New-Password-1' },
      client: await anonymousClient(),
      headers: await patHeaders(actor, 'write'),
    }),
    expect: (actor) => (actor === 'anonymous' ? 401 : 403),
  },
  'POST /app/auth/tokens (read-and-write personal token)': {
    request: async ({ actor }) => ({
      url: '/app/auth/tokens',
      json: { name: 'more', scope: 'write', expires_in_days: 7 },
      client: await anonymousClient(),
      headers: await patHeaders(actor, 'write'),
    }),
    expect: (actor) => (actor === 'anonymous' ? 401 : 403),
  },
  'GET /v1/project/:namespace/:name (revoked personal token)': {
    request: async ({ actor, project }) => ({
      url: `/v1/project/${path(project)}`,
      client: await anonymousClient(),
      headers: await patHeaders(actor === 'anonymous' ? 'writer' : actor, 'read', 'revoked'),
    }),
    expect: open(401),
  },
  'GET /v1/project/:namespace/:name (expired personal token)': {
    request: async ({ actor, project }) => ({
      url: `/v1/project/${path(project)}`,
      client: await anonymousClient(),
      headers: await patHeaders(actor === 'anonymous' ? 'writer' : actor, 'write', 'expired'),
    }),
    expect: open(401),
  },
  'GET /v1/project/:namespace/:name (personal token of a user who lost access)': {
    request: async ({ project }) => {
      const user = await freshUser(project);
      const { token } = await personalToken(user.username, 'write');
      await deleteProjectMembers(t.database.db, project.id, [user.id]);
      return {
        url: `/v1/project/${path(project)}`,
        client: await anonymousClient(),
        headers: { authorization: `Bearer ${token}` },
      };
    },
    expect: (_actor, visibility) => (visibility === 'public' ? 200 : 403),
  },
};
Object.assign(VARIANTS, tokenVariants);

/** A personal access token of a user (by username), live, revoked or expired. */
async function personalToken(
  username: string,
  scope: 'read' | 'write',
  state: 'live' | 'revoked' | 'expired' = 'live',
): Promise<{ id: number; token: string }> {
  const now = t.clock.now();
  const expiresAt = new Date(now.getTime() + (state === 'expired' ? -1000 : DAY));
  const made = makePersonalToken(username, expiresAt);
  const user = Object.values(people).find((p) => p.username === username);
  const userId = user?.id ?? (await findUserByUsername(t.database.db, username))!.id;
  const row = await insertPersonalToken(t.database.db, {
    userId,
    name: unique('pat'),
    scope,
    secretHash: made.secretHash,
    hint: made.hint,
    createdAt: new Date(now.getTime() - 2 * DAY),
    expiresAt,
    revokedAt: state === 'revoked' ? now : null,
  });
  return { id: row.id, token: made.token };
}

/** The actor's personal token in an Authorization header (none for anonymous). */
async function patHeaders(
  actor: Actor,
  scope: 'read' | 'write',
  state: 'live' | 'revoked' | 'expired' = 'live',
): Promise<Record<string, string>> {
  if (actor === 'anonymous') return {};
  const { token } = await personalToken(actor === 'superuser' ? 'admin2' : actor, scope, state);
  return { authorization: `Bearer ${token}` };
}

const PUBLIC_HOOK_URL = 'https://93.184.215.14/hook';

/** A new webhook of the project: its id. */
async function webhookOf(project: Project): Promise<number> {
  const hook = await insertWebhook(t.database.db, {
    scope: { projectId: project.id },
    url: PUBLIC_HOOK_URL,
    secret: `whsec_${Buffer.alloc(32, 1).toString('base64')}`,
    events: ['version.created'],
    description: '',
    createdBy: people.owner!.id,
    createdAt: t.clock.now(),
  });
  return hook.id;
}

/** A view link of the project, live, expired or revoked: its id and token. */
async function viewLink(
  project: Project,
  state: 'live' | 'expired' | 'revoked',
): Promise<{ id: number; token: string }> {
  const now = t.clock.now();
  const link = await insertViewLink(t.database.db, {
    projectId: project.id,
    label: '',
    salt: randomUUID(),
    createdBy: people.owner!.id,
    createdAt: now,
    expiresAt: new Date(now.getTime() + (state === 'expired' ? -DAY : DAY)),
  });
  if (state === 'revoked') {
    await revokeViewLink(t.database.db, project.id, link.id, people.owner!.id, now);
  }
  return { id: link.id, token: viewLinkToken(t.config.secretKey, link) };
}

/** The actor's bearer token in an Authorization header (none for anonymous). */
function tokenHeaders(actor: Actor): Record<string, string> {
  return actor === 'anonymous' ? {} : { authorization: `Bearer ${tokenOf(actor)}` };
}

/** The actor's bearer token (as the desktop clients' login gives it). */
function tokenOf(actor: Actor): string {
  const user = people[actor === 'superuser' ? 'admin' : actor]!;
  return makeBearerToken(t.config.secretKey, { ...user, passwordHash }, t.clock.now()).token;
}

/** A pending invitation of the actor's email into a new workspace: its uuid (anonymous: any). */
async function ownInvitation(actor: Actor): Promise<string> {
  if (actor === 'anonymous') return randomUUID();
  const workspace = await insertWorkspace(t.database.db, { name: unique('inviting'), storage: 1 });
  const [row] = await t.database.db
    .insert(workspaceInvitations)
    .values({
      workspaceId: workspace.id,
      email: emailOf(actor),
      role: 'reader',
      tokenHash: unique('token-hash'),
      expiresAt: new Date(t.clock.now().getTime() + DAY),
    })
    .returning();
  return row!.uuid;
}

function emailOf(actor: Actor): string {
  return people[actor === 'superuser' ? 'admin' : actor]!.email!;
}

/** Sends without letting the response change the client's cookies or token. */
async function send(client: TestClient, method: string, req: Req): Promise<LightMyRequestResponse> {
  const headers: Record<string, string> = { ...req.headers };
  if (client.cookies.size > 0) headers.cookie = client.cookieHeader();
  if (client.csrfToken) headers['x-csrf-token'] = client.csrfToken;
  let payload: string | Buffer | undefined = req.payload;
  if (req.json !== undefined) {
    headers['content-type'] = 'application/json';
    payload = JSON.stringify(req.json);
  }
  return t.app.inject({
    method: method as 'GET',
    url: req.url,
    headers,
    ...(payload === undefined ? {} : { payload }),
  });
}

beforeAll(async () => {
  const db = t.database.db;
  passwordHash = await hashPassword(PASSWORD);
  for (const username of ['stranger', 'reader', 'writer', 'owner', 'wsadmin', 'spare']) {
    people[username] = await insertUser(db, {
      username,
      email: `${username}@example.com`,
      passwordHash,
      verifiedEmail: true,
    });
  }
  const admin = await insertUser(db, {
    username: 'admin2',
    email: 'admin2@example.com',
    passwordHash,
    isAdmin: true,
    verifiedEmail: true,
  });
  people.admin = admin;
  await setWorkspaceMember(db, t.setup.workspaceId, people.wsadmin!.id, 'admin');
  for (const visibility of ['public', 'private'] as const) {
    const project = await createProject(t, {
      name: `${visibility}-project`,
      public: visibility === 'public',
    });
    await upsertProjectMembers(
      db,
      project.id,
      (['reader', 'writer', 'owner'] as const).map((role) => ({ userId: people[role]!.id, role })),
    );
    await commit(t, project.id, { added: { 'data.txt': 'some data' } });
    projects[visibility] = { ...project, latestVersion: 1 };
  }
  const templates = await insertUser(db, {
    username: 'TEMPLATES',
    email: 'templates@example.com',
    passwordHash,
    verifiedEmail: true,
  });
  const library = await insertWorkspace(db, { name: 'library', storage: 1_000_000 });
  const template = await createProject(t, {
    workspaceId: library.id,
    name: TEMPLATE_NAME,
    creatorId: templates.id,
    public: true,
  });
  await commit(t, template.id, { added: { 'form.qgz': 'PK\u0003\u0004' } });
  clients.set('anonymous', await anonymousClient());
  for (const actor of ['stranger', 'reader', 'writer', 'owner', 'wsadmin'] as const) {
    clients.set(actor, await signIn(actor));
  }
  clients.set('superuser', await signIn('admin2'));
  for (const visibility of ['public', 'private'] as const) {
    const first = Buffer.from(`first ${visibility}`);
    const { transaction, added } = await startUpload(projects[visibility], [
      first,
      Buffer.from('never sent'),
    ]);
    uploads[visibility] = { transaction, chunk: added[0]!.chunks[0]!, bytes: first };
  }
});

afterAll(async () => {
  await t.close();
});

/** What is wrong with the body of a 401 or 403 refusal, if anything. */
function refusalProblem(
  method: string,
  expected: number,
  response: LightMyRequestResponse,
): string | null {
  if (response.statusCode !== expected) return null;
  // HEAD answers carry no body.
  const head = method === 'HEAD';
  if (expected === 401 && !head && response.body !== JSON.stringify(AUTH_REQUIRED_TEXT)) {
    return `401 body ${response.body}`;
  }
  if (expected === 403 && response.headers['content-type'] !== PROBLEM_CONTENT_TYPE) {
    return `403 content type ${String(response.headers['content-type'])}`;
  }
  return null;
}

// The route table, read from the app itself when the tests are collected.
const ROUTES = t.app.routeIndex.list();

function caseFor(method: string, url: string): Case | undefined {
  return CASES[`${method} ${url}`] ?? (method === 'HEAD' ? CASES[`GET ${url}`] : undefined);
}

describe('permission matrix', () => {
  it('has an expectation for every route of the route table, and no other', () => {
    const missing = ROUTES.filter((r) => !caseFor(r.method, r.url)).map(
      (r) => `${r.method} ${r.url}`,
    );
    expect(missing, 'routes without an expectation').toEqual([]);
    const keys = new Set(ROUTES.map((r) => `${r.method} ${r.url}`));
    const stale = Object.keys(CASES).filter((key) => !keys.has(key));
    expect(stale, 'expectations without a route').toEqual([]);
  });

  for (const { method, url } of ROUTES) {
    it(`${method} ${url}`, { timeout: 120_000 }, async () => {
      const entry = caseFor(method, url);
      expect(entry, 'expectation').toBeDefined();
      expect(await walk(method, entry!)).toEqual([]);
    });
  }

  for (const [key, entry] of Object.entries(VARIANTS)) {
    const method = key.split(' ')[0]!;
    it(key, { timeout: 120_000 }, async () => {
      expect(ROUTES.some((r) => key.startsWith(`${r.method} ${r.url} `))).toBe(true);
      expect(await walk(method, entry)).toEqual([]);
    });
  }
});

/** Sends the case as every actor on both projects; the failures, if any. */
async function walk(method: string, entry: Case): Promise<string[]> {
  const failures: string[] = [];
  for (const visibility of ['public', 'private'] as const) {
    for (const actor of ACTORS) {
      const req = await entry.request({ actor, visibility, project: projects[visibility] });
      const response = await send(req.client ?? clients.get(actor)!, method, req);
      const expected = entry.expect(actor, visibility);
      const refusal = refusalProblem(method, expected, response);
      if (refusal) failures.push(`${actor} ${visibility}: ${refusal}`);
      if (response.statusCode !== expected) {
        failures.push(
          `${actor} ${visibility}: ${response.statusCode} (expected ${expected}) ${response.body.slice(0, 200)}`,
        );
      }
    }
  }
  return failures;
}
