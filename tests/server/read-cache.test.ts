/**
 * The read cache (server/src/db/read-cache.ts) on two instances of one database: instance B
 * serves a session and a project list from its cache, a change is committed through
 * instance A (or straight into the database), and B's very next request answers from the new
 * data: sessions end, permissions and the list change at once. Each case first checks that B
 * really answered from its cache before the change.
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashPassword } from '../../server/src/auth/passwords';
import { SESSION_TTL_MS } from '../../server/src/auth/sessions';
import { insertUser } from '../../server/src/db/queries/users';
import { projects, users, type User } from '../../server/src/db/schema';
import { setWorkspaceRole } from '../../server/src/services/accounts-admin';
import { startInstance, type Instance } from './support/instances';
import { commit } from './support/seed';
import { ADMIN_PASSWORD, createTestApp, type TestApp, type TestClient } from './support/test-app';

const PASSWORD = 'Cache-Password-1';
const NEW_PASSWORD = 'Cache-Password-2';
const LIST = '/v1/project/paginated?page=1&per_page=25&order_params=updated_desc';

interface ListItem {
  id: string;
  name: string;
  version: string;
  has_conflict: boolean;
  permissions: { upload: boolean; update: boolean; delete: boolean };
  access: { owners: number[]; readers: number[]; public: boolean };
}

let t: TestApp;
let b: Instance;
let count = 0;

beforeAll(async () => {
  t = await createTestApp();
  b = await startInstance(t);
});

afterAll(async () => {
  await b?.close();
  await t?.close();
});

async function newUser(): Promise<User> {
  const username = `cache-${++count}`;
  return insertUser(t.database.db, {
    username,
    email: `${username}@example.com`,
    passwordHash: await hashPassword(PASSWORD),
    verifiedEmail: true,
  });
}

/** How long a pair of requests is retried until no commit elsewhere came between them. */
const CACHED_WITHIN_MS = 45_000;

/** Signed in on instance A, and the same session (cookie and CSRF token) on instance B. */
async function signedIn(username: string, password = PASSWORD) {
  const a = t.client();
  await a.login(username, password);
  return { a, onB: b.client(a) };
}

/**
 * Repeats `request` until two calls in a row were answered with `hits` more cache hits. On
 * PostgreSQL any commit in the cluster (other test files share it) changes the snapshot, so a
 * pair may legitimately miss for a while; a pair that hits shows that B answers from its cache.
 */
async function untilCached<T>(hits: number, request: () => Promise<T>): Promise<T> {
  const until = Date.now() + CACHED_WITHIN_MS;
  do {
    await request();
    const before = b.app.ctx.readCache.stats.hits;
    const value = await request();
    if (b.app.ctx.readCache.stats.hits === before + hits) return value;
  } while (Date.now() < until);
  throw new Error(`instance B never answered from its cache within ${CACHED_WITHIN_MS} ms`);
}

/** The list on B, after checking that B now answers it from its cache. */
async function cachedListOnB(client: TestClient): Promise<ListItem[]> {
  // The session and the page both come from the cache.
  return untilCached(2, () => listOn(client));
}

async function listOn(client: TestClient): Promise<ListItem[]> {
  const response = await client.get(LIST);
  expect(response.statusCode, response.body).toBe(200);
  return response.json().projects;
}

/** GET /v1/user/profile on B with this session until it comes from the cache. */
async function profileOnB(client: TestClient): Promise<void> {
  await untilCached(1, async () => {
    expect((await client.get('/v1/user/profile')).statusCode).toBe(200);
  });
}

async function ownedProject(owner: TestClient, name: string, isPublic = false) {
  const response = await owner.post(`/v1/project/${t.config.globalWorkspace}`, {
    name,
    public: isPublic,
  });
  expect(response.statusCode, response.body).toBe(200);
  const [row] = await t.database.db.select().from(projects).where(eq(projects.name, name));
  return row!;
}

describe('sessions cached on instance B end with a change committed on instance A', () => {
  it('logout', async () => {
    const user = await newUser();
    const { a, onB } = await signedIn(user.username);
    await profileOnB(onB);
    expect((await a.post('/app/auth/logout')).statusCode).toBe(200);
    expect((await onB.get('/v1/user/profile')).statusCode).toBe(401);
  });

  it('password change (from another session of the user)', async () => {
    const user = await newUser();
    const { onB } = await signedIn(user.username);
    await profileOnB(onB);
    const other = (await signedIn(user.username)).a;
    const response = await other.post('/app/auth/change-password', {
      old_password: PASSWORD,
      password: NEW_PASSWORD,
      confirm: NEW_PASSWORD,
    });
    expect(response.statusCode, response.body).toBe(200);
    expect((await onB.get('/v1/user/profile')).statusCode).toBe(401);
  });

  it('account closing', async () => {
    const user = await newUser();
    const { a, onB } = await signedIn(user.username);
    await profileOnB(onB);
    expect((await a.delete('/v1/user')).statusCode).toBe(204);
    expect((await onB.get('/v1/user/profile')).statusCode).toBe(401);
  });

  it('deactivation written straight into the database', async () => {
    const user = await newUser();
    const { onB } = await signedIn(user.username);
    await profileOnB(onB);
    await t.database.db.update(users).set({ active: false }).where(eq(users.id, user.id));
    expect((await onB.get('/v1/user/profile')).statusCode).toBe(401);
  });

  it('expiry by the clock alone, with nothing committed', async () => {
    const user = await newUser();
    const { onB } = await signedIn(user.username);
    await profileOnB(onB);
    t.clock.advance(SESSION_TTL_MS + 1000);
    expect((await onB.get('/v1/user/profile')).statusCode).toBe(401);
  });
});

describe('a project list cached on instance B changes with a change committed on instance A', () => {
  let admin: TestClient;
  let adminOnB: TestClient;

  beforeAll(async () => {
    const admin_ = t.client();
    await admin_.login('admin', ADMIN_PASSWORD);
    admin = admin_;
    adminOnB = b.client(admin);
  });

  it('project created, renamed, made public, given a new version with a conflict copy, scheduled for deletion', async () => {
    const reader = await newUser();
    const { onB: readerOnB } = await signedIn(reader.username);
    await cachedListOnB(adminOnB);
    expect((await cachedListOnB(readerOnB)).map((p) => p.name)).not.toContain('cache-made');

    const project = await ownedProject(admin, 'cache-made');
    expect((await listOn(adminOnB))[0]?.name).toBe('cache-made');

    await cachedListOnB(adminOnB);
    const renamed = await admin.request('PATCH', `/v2/projects/${project.id}`, {
      json: { name: 'cache-renamed' },
    });
    expect(renamed.statusCode, renamed.body).toBe(204);
    expect((await listOn(adminOnB))[0]?.name).toBe('cache-renamed');

    // Private: the reader does not see it; public: at once.
    expect((await cachedListOnB(readerOnB)).map((p) => p.id)).not.toContain(project.id);
    const visible = await admin.request('PATCH', `/app/project/${project.id}/public`, {
      json: { public: true },
    });
    expect(visible.statusCode, visible.body).toBe(204);
    expect((await listOn(readerOnB)).map((p) => p.id)).toContain(project.id);

    const before = (await cachedListOnB(adminOnB)).find((p) => p.id === project.id)!;
    expect(before).toMatchObject({ version: 'v0', has_conflict: false });
    await commit(t, project.id, { added: { 'data (conflicted copy, x).gpkg': 'x' } });
    const after = (await listOn(adminOnB)).find((p) => p.id === project.id)!;
    expect(after).toMatchObject({ version: 'v1', has_conflict: true });

    await cachedListOnB(readerOnB);
    const removed = await admin.post(`/v2/projects/${project.id}/scheduleDelete`);
    expect(removed.statusCode, removed.body).toBe(204);
    expect((await listOn(readerOnB)).map((p) => p.id)).not.toContain(project.id);
    expect((await listOn(adminOnB)).map((p) => p.id)).not.toContain(project.id);
  });

  it('project membership given and taken: visibility, permissions and access lists', async () => {
    const member = await newUser();
    const { onB } = await signedIn(member.username);
    const project = await ownedProject(admin, 'cache-members');
    expect((await cachedListOnB(onB)).map((p) => p.id)).not.toContain(project.id);
    await cachedListOnB(adminOnB);

    const given = await admin.request('PATCH', `/app/project/${project.id}/access`, {
      json: { user_id: member.id, role: 'writer' },
    });
    expect(given.statusCode, given.body).toBe(200);
    const seen = (await listOn(onB)).find((p) => p.id === project.id);
    expect(seen?.permissions).toEqual({ upload: true, update: false, delete: false });
    expect(seen?.access.readers).toContain(member.id);
    expect((await listOn(adminOnB)).find((p) => p.id === project.id)?.access.readers).toContain(
      member.id,
    );

    await cachedListOnB(onB);
    const taken = await admin.request('PATCH', `/app/project/${project.id}/access`, {
      json: { user_id: member.id, role: 'none' },
    });
    expect(taken.statusCode, taken.body).toBe(200);
    expect((await listOn(onB)).map((p) => p.id)).not.toContain(project.id);
  });

  it('workspace role given, and superuser rights taken straight in the database', async () => {
    const user = await newUser();
    const { onB } = await signedIn(user.username);
    const project = await ownedProject(admin, 'cache-workspace');
    expect((await cachedListOnB(onB)).map((p) => p.id)).not.toContain(project.id);
    await setWorkspaceRole(t.database, {
      workspace: t.config.globalWorkspace,
      username: user.username,
      role: 'reader',
    });
    const seen = (await listOn(onB)).find((p) => p.id === project.id);
    expect(seen?.permissions).toEqual({ upload: false, update: false, delete: false });

    // A superuser sees every project with every permission; demoted, only those it may.
    await t.database.db.update(users).set({ isAdmin: true }).where(eq(users.id, user.id));
    expect((await cachedListOnB(onB)).find((p) => p.id === project.id)?.permissions).toEqual({
      upload: true,
      update: true,
      delete: true,
    });
    await t.database.db.update(users).set({ isAdmin: false }).where(eq(users.id, user.id));
    expect((await listOn(onB)).find((p) => p.id === project.id)?.permissions).toEqual({
      upload: false,
      update: false,
      delete: false,
    });
  });

  it('anonymous lists too: a project made private disappears at once', async () => {
    const project = await ownedProject(admin, 'cache-anonymous', true);
    const anonymous = b.client(t.client());
    expect((await untilCached(1, () => listOn(anonymous))).map((p) => p.id)).toContain(project.id);
    const hidden = await admin.request('PATCH', `/app/project/${project.id}/public`, {
      json: { public: false },
    });
    expect(hidden.statusCode, hidden.body).toBe(204);
    expect((await listOn(anonymous)).map((p) => p.id)).not.toContain(project.id);
  });
});
