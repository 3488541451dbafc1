/**
 * Personal access tokens (issue 33): made, listed and revoked on the profile; a token signs
 * API calls in as its user (Bearer, or as a Basic password), a read-only one changes
 * nothing, none changes the password, the email or the tokens; revoked, expired and
 * unknown ones are 401; only the secret's hash is stored.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { hashPassword } from '../../server/src/auth/passwords';
import { upsertProjectMembers } from '../../server/src/db/queries/projects';
import { insertUser } from '../../server/src/db/queries/users';
import {
  auditLog,
  personalTokens,
  projects,
  users,
  type Project,
} from '../../server/src/db/schema';
import { AUTH_REQUIRED_TEXT } from '../../server/src/errors';
import {
  TOKEN_NOT_ALLOWED,
  TOKEN_READ_ONLY,
  type CreatedPersonalToken,
  type PersonalTokenList,
} from '../../server/src/schemas/personal-tokens';
import { commit, createProject } from './support/seed';
import { createTestApp, problem, type TestApp, type TestClient } from './support/test-app';

const PASSWORD = 'Field-Password-1';
const DAY = 24 * 3600 * 1000;
let t: TestApp;
let surveyor: TestClient;
let project: Project;

async function makeToken(
  scope: 'read' | 'write',
  name = `token ${scope}`,
  days = 30,
): Promise<CreatedPersonalToken> {
  const response = await surveyor.post('/app/auth/tokens', {
    name,
    scope,
    expires_in_days: days,
  });
  expect(response.statusCode, response.body).toBe(201);
  return response.json() as CreatedPersonalToken;
}

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

function call(method: 'GET' | 'POST' | 'DELETE', url: string, token: string, json?: unknown) {
  return t.app.inject({
    method,
    url,
    headers: {
      ...bearer(token),
      ...(json === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(json === undefined ? {} : { payload: JSON.stringify(json) }),
  });
}

beforeAll(async () => {
  t = await createTestApp();
  const user = await insertUser(t.database.db, {
    username: 'surveyor',
    email: 'surveyor@example.com',
    passwordHash: await hashPassword(PASSWORD),
    verifiedEmail: true,
  });
  project = await createProject(t, { name: 'private-survey', public: false });
  await upsertProjectMembers(t.database.db, project.id, [{ userId: user.id, role: 'writer' }]);
  await commit(t, project.id, { added: { 'data.txt': 'one' } });
  surveyor = t.client();
  await surveyor.login('surveyor', PASSWORD);
});

afterAll(async () => {
  await t.close();
});

describe('personal access tokens', () => {
  it('is shown once when made, then listed without its value, with its last use', async () => {
    const made = await makeToken('read', 'nightly export');
    expect(made).toMatchObject({ name: 'nightly export', scope: 'read', status: 'active' });
    expect(made.token).toMatch(/^\.eJ[A-Za-z0-9_-]+\.wmpat_[A-Za-z0-9_-]{43}$/);
    expect(made.token).toContain(made.hint);
    expect(Date.parse(made.expires_at) - t.clock.now().getTime()).toBe(30 * DAY);

    const [row] = await t.database.db
      .select()
      .from(personalTokens)
      .where(eq(personalTokens.id, made.id));
    expect(JSON.stringify(row)).not.toContain(made.token.split('.').at(-1));

    let list = (await surveyor.get('/app/auth/tokens')).json() as PersonalTokenList;
    const listed = list.tokens.find((x) => x.id === made.id)!;
    expect(listed).not.toHaveProperty('token');
    expect(listed.last_used_at).toBeNull();

    const profile = await call('GET', '/v1/user/profile', made.token);
    expect(profile.statusCode, profile.body).toBe(200);
    expect(profile.json()).toMatchObject({ username: 'surveyor' });
    list = (await surveyor.get('/app/auth/tokens')).json() as PersonalTokenList;
    expect(list.tokens.find((x) => x.id === made.id)!.last_used_at).toBe(
      t.clock.now().toISOString(),
    );
  });

  it('refuses a token without a name, or a scope or expiry out of range', async () => {
    for (const body of [
      { name: '  ', scope: 'read', expires_in_days: 7 },
      { name: 'x', scope: 'admin', expires_in_days: 7 },
      { name: 'x', scope: 'read', expires_in_days: 0 },
      { name: 'x', scope: 'read', expires_in_days: 366 },
      { name: 'x'.repeat(101), scope: 'read', expires_in_days: 7 },
    ]) {
      const response = await surveyor.post('/app/auth/tokens', body);
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
    }
  });

  it('reads with a read-only token, and refuses it every change (403)', async () => {
    const { token } = await makeToken('read');
    const info = await call('GET', `/v1/project/waymark/${project.name}`, token);
    expect(info.statusCode, info.body).toBe(200);
    const lookup = await call('POST', '/v1/project/by_names', token, {
      projects: [`waymark/${project.name}`],
    });
    expect(lookup.statusCode, lookup.body).toBe(200);
    const push = await call('POST', `/v1/project/push/waymark/${project.name}`, token, {
      version: 'v1',
      changes: { added: [], updated: [], removed: [] },
    });
    expect(push.statusCode).toBe(403);
    expect(problem(push).detail).toBe(TOKEN_READ_ONLY);
    const created = await call('POST', '/v1/project/waymark', token, { name: 'new-one' });
    expect(created.statusCode).toBe(403);
  });

  it('changes data with a read-and-write token, without a CSRF token, also on /app', async () => {
    const { token } = await makeToken('write');
    const push = await call('POST', `/v1/project/push/waymark/${project.name}`, token, {
      version: 'v1',
      changes: { added: [], updated: [], removed: [] },
    });
    // No changes: the push is refused for what it is, after the permission check.
    expect(push.statusCode, push.body).toBe(400);
    const link = await call('POST', `/app/project/view-links/waymark/${project.name}`, token, {
      expires_at: new Date(t.clock.now().getTime() + DAY).toISOString(),
    });
    // The surveyor writes, but only owners make view links: 403 from the permission check.
    expect(link.statusCode, link.body).toBe(403);
    expect(problem(link).detail).not.toBe(TOKEN_READ_ONLY);
  });

  it('needs no CSRF token with a Bearer token alone; with a session cookie, or as Basic, it does', async () => {
    const owned = await createProject(t, { name: `csrf-${Date.now()}` });
    const me = await t.database.db.select().from(users).where(eq(users.username, 'surveyor'));
    await upsertProjectMembers(t.database.db, owned.id, [{ userId: me[0]!.id, role: 'owner' }]);
    const { token } = await makeToken('write');
    const url = `/app/project/${owned.id}/public`;
    const isPublic = async () =>
      (await t.database.db.select().from(projects).where(eq(projects.id, owned.id)))[0]!.public;
    const patch = (headers: Record<string, string>, value: boolean) =>
      t.app.inject({
        method: 'PATCH',
        url,
        headers: { 'content-type': 'application/json', ...headers },
        payload: JSON.stringify({ public: value }),
      });

    // A script: the token alone, no cookie, no CSRF token.
    const scripted = await patch(bearer(token), true);
    expect(scripted.statusCode, scripted.body).toBeLessThan(300);
    expect(await isPublic()).toBe(true);

    // The browser's session cookie beside the token: the session acts, and needs its CSRF token.
    const cookie = surveyor.cookieHeader();
    const withCookie = await patch({ ...bearer(token), cookie }, false);
    expect(withCookie.statusCode).toBe(400);
    expect(problem(withCookie).detail).toBe('The CSRF token is missing.');
    expect(await isPublic()).toBe(true);
    const session = await patch({ cookie, 'x-csrf-token': surveyor.csrfToken! }, false);
    expect(session.statusCode, session.body).toBeLessThan(300);
    expect(await isPublic()).toBe(false);

    // As a Basic password (which a browser may hold and attach to cross-site requests).
    const basic = `Basic ${Buffer.from(`surveyor:${token}`).toString('base64')}`;
    const asBasic = await patch({ authorization: basic }, true);
    expect(asBasic.statusCode).toBe(400);
    expect(problem(asBasic).detail).toBe('The CSRF token is missing.');
    expect(await isPublic()).toBe(false);
  });

  it('takes the token as a Basic password (GIS clients) and on the OGC API routes', async () => {
    const { token } = await makeToken('read');
    const basic = `Basic ${Buffer.from(`surveyor:${token}`).toString('base64')}`;
    const response = await t.app.inject({
      method: 'GET',
      url: `/ogc/waymark/${project.name}/v1/collections`,
      headers: { authorization: basic },
    });
    expect(response.statusCode, response.body).toBe(200);
    const anonymous = await t.app.inject({
      method: 'GET',
      url: `/ogc/waymark/${project.name}/v1/collections`,
    });
    expect(anonymous.statusCode).toBe(403);
  });

  it('never changes the password, the email, the account or the tokens', async () => {
    const { token, id } = await makeToken('write');
    const refused: [string, string, unknown?][] = [
      [
        'POST',
        '/app/auth/change-password',
        { old_password: PASSWORD, password: 'Other-Password-2', confirm: 'Other-Password-2' },
      ],
      ['POST', '/app/auth/user/profile', { email: 'thief@example.com' }],
      ['DELETE', '/app/auth/user/pending-email'],
      ['GET', '/app/auth/resend-confirm-email'],
      ['DELETE', '/v1/user'],
      ['GET', '/app/auth/tokens'],
      ['POST', '/app/auth/tokens', { name: 'more', scope: 'write', expires_in_days: 7 }],
      ['DELETE', `/app/auth/tokens/${id}`],
    ];
    for (const [method, url, json] of refused) {
      const response = await call(method as 'GET', url, token, json);
      expect(response.statusCode, `${method} ${url}`).toBe(403);
      expect(problem(response).detail).toBe(TOKEN_NOT_ALLOWED);
    }
    const [user] = await t.database.db.select().from(users).where(eq(users.username, 'surveyor'));
    expect(user!.email).toBe('surveyor@example.com');
    expect(user!.active).toBe(true);
  });

  it('answers 401 to a revoked, an expired or an unknown token, even on public routes', async () => {
    const revoked = await makeToken('write', 'to revoke');
    expect((await surveyor.delete(`/app/auth/tokens/${revoked.id}`)).statusCode).toBe(204);
    expect((await surveyor.delete(`/app/auth/tokens/${revoked.id}`)).statusCode).toBe(204);
    const expiring = await makeToken('read', 'short', 1);
    const unknown = `${revoked.token.slice(0, revoked.token.lastIndexOf('.'))}.wmpat_${'A'.repeat(43)}`;
    t.clock.advance(DAY + 1000);
    try {
      for (const token of [revoked.token, expiring.token, unknown]) {
        for (const url of ['/v1/user/profile', '/config', `/v1/project/waymark/${project.name}`]) {
          const response = await call('GET', url, token);
          expect(response.statusCode, url).toBe(401);
          expect(response.body).toBe(JSON.stringify(AUTH_REQUIRED_TEXT));
        }
      }
      const list = (await surveyor.get('/app/auth/tokens')).json() as PersonalTokenList;
      expect(list.tokens.find((x) => x.id === revoked.id)!.status).toBe('revoked');
      expect(list.tokens.find((x) => x.id === expiring.id)!.status).toBe('expired');
    } finally {
      t.clock.advance(-(DAY + 1000));
    }
  });

  it("refuses another user's token id (404) and a closed account's tokens (401)", async () => {
    const other = await insertUser(t.database.db, {
      username: 'other',
      email: 'other@example.com',
      passwordHash: await hashPassword(PASSWORD),
      verifiedEmail: true,
    });
    const otherClient = t.client();
    await otherClient.login('other', PASSWORD);
    const mine = await makeToken('read');
    expect((await otherClient.delete(`/app/auth/tokens/${mine.id}`)).statusCode).toBe(404);
    const made = await otherClient.post('/app/auth/tokens', {
      name: 'x',
      scope: 'read',
      expires_in_days: 7,
    });
    const token = (made.json() as CreatedPersonalToken).token;
    expect((await call('GET', '/v1/user/profile', token)).statusCode).toBe(200);
    await t.database.db.update(users).set({ active: false }).where(eq(users.id, other.id));
    expect((await call('GET', '/v1/user/profile', token)).statusCode).toBe(401);
  });

  it('records making and revoking a token in the audit log, once each', async () => {
    const made = await makeToken('write', 'audited');
    await surveyor.delete(`/app/auth/tokens/${made.id}`);
    await surveyor.delete(`/app/auth/tokens/${made.id}`);
    const entries = await t.database.db
      .select()
      .from(auditLog)
      .where(eq(auditLog.targetId, String(made.id)));
    expect(entries.map((e) => [e.action, e.actorName, e.targetName, e.ip])).toEqual([
      ['token.created', 'surveyor', 'audited', '127.0.0.1'],
      ['token.revoked', 'surveyor', 'audited', '127.0.0.1'],
    ]);
  });
});
