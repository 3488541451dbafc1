/**
 * Issue 29: the CSRF token is bound to the session cookie it was issued for, so a token and
 * secret cookie of the attacker's own, planted next to a victim's session cookie, do not
 * pass; sign-out is a POST with the token (a plain GET signs nobody out). Answers that change
 * the session carry the token for the new one (X-CSRF-Token), which the web client reads.
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LightMyRequestResponse } from 'fastify';
import { CSRF_MISMATCH } from '../../server/src/auth/csrf';
import { hashPassword } from '../../server/src/auth/passwords';
import { insertUser } from '../../server/src/db/queries/users';
import { projects, users, workspaceInvitations } from '../../server/src/db/schema';
import { createProject } from './support/seed';
import { createTestApp, problem, type TestApp, type TestClient } from './support/test-app';

const PASSWORD = 'Field-Surv3y!';
let t: TestApp;
let counter = 0;

async function newUser(values: Partial<typeof users.$inferInsert> = {}) {
  const username = `csrf-user-${++counter}`;
  return insertUser(t.database.db, {
    username,
    email: `${username}@example.com`,
    passwordHash: await hashPassword(PASSWORD),
    verifiedEmail: true,
    ...values,
  });
}

async function signedIn(username: string): Promise<TestClient> {
  const client = t.client();
  await client.login(username, PASSWORD);
  return client;
}

/**
 * A request as the victim's browser sends it on the attacker's page: the victim's session
 * cookie, with the attacker's own `csrf` cookie and token (planted, e.g. from a sibling
 * subdomain) next to it.
 */
function forged(
  victim: TestClient,
  attacker: TestClient,
  method: 'POST' | 'PATCH' | 'DELETE',
  url: string,
  json?: unknown,
): Promise<LightMyRequestResponse> {
  const cookie = [
    `session=${victim.cookies.get('session')!}`,
    `csrf=${attacker.cookies.get('csrf')!}`,
  ].join('; ');
  return t.app.inject({
    method,
    url,
    headers: {
      cookie,
      'x-csrf-token': attacker.csrfToken!,
      ...(json === undefined ? {} : { 'content-type': 'application/json' }),
    },
    payload: json === undefined ? undefined : JSON.stringify(json),
  });
}

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t.close());

describe("an attacker's own CSRF cookie and token beside the victim's session", () => {
  it('do not pass: making a project public, inviting, closing the account', async () => {
    const victimUser = await newUser({ isAdmin: true });
    const victim = await signedIn(victimUser.username);
    const project = await createProject(t, { name: `private-${++counter}` });

    // Anonymous attacker (token of no session), and signed-in attacker (their own session).
    const anonymous = t.client();
    await anonymous.init();
    const attackerUser = await newUser();
    const signedInAttacker = await signedIn(attackerUser.username);

    for (const attacker of [anonymous, signedInAttacker]) {
      const calls: [string, 'POST' | 'PATCH' | 'DELETE', string, unknown?][] = [
        ['public', 'PATCH', `/app/project/${project.id}/public`, { public: true }],
        [
          'invite',
          'POST',
          `/v2/workspaces/${t.setup.workspaceId}/invitations`,
          { email: 'accomplice@example.org', role: 'owner' },
        ],
        ['close', 'DELETE', '/v1/user'],
      ];
      for (const [name, method, url, json] of calls) {
        const response = await forged(victim, attacker, method, url, json);
        expect(response.statusCode, `${name}: ${response.body}`).toBe(400);
        expect(problem(response).detail).toBe(CSRF_MISMATCH);
      }
    }
    const [row] = await t.database.db.select().from(projects).where(eq(projects.id, project.id));
    expect(row!.public).toBe(false);
    expect(await t.database.db.select().from(workspaceInvitations)).toEqual([]);
    const [account] = await t.database.db.select().from(users).where(eq(users.id, victimUser.id));
    expect(account!.active).toBe(true);

    // The victim's own token works (the checks above are not vacuous).
    const own = await victim.request('PATCH', `/app/project/${project.id}/public`, {
      json: { public: true },
    });
    expect(own.statusCode, own.body).toBe(204);
  });

  it("a token issued before sign-in does not pass with the new session; the login's does", async () => {
    const user = await newUser();
    const client = t.client();
    await client.init();
    const before = client.csrfToken!;
    const login = await client.post('/app/auth/login', {
      login: user.username,
      password: PASSWORD,
    });
    expect(login.statusCode).toBe(200);
    const issued = login.headers['x-csrf-token'];
    expect(typeof issued).toBe('string');
    expect(issued).not.toBe(before);

    const stale = await client.post(
      '/app/auth/user/profile',
      { email: user.email, first_name: 'Stale' },
      { headers: { 'x-csrf-token': before } },
    );
    expect(stale.statusCode).toBe(400);
    expect(problem(stale).detail).toBe(CSRF_MISMATCH);
    const fresh = await client.post('/app/auth/user/profile', {
      email: user.email,
      first_name: 'Fresh',
    });
    expect(fresh.statusCode, fresh.body).toBe(200);
  });

  it('a new session id after a password change comes with its own token', async () => {
    const user = await newUser();
    const client = await signedIn(user.username);
    const before = client.csrfToken!;
    const changed = await client.post('/app/auth/change-password', {
      old_password: PASSWORD,
      password: 'Other-Surv3y!',
      confirm: 'Other-Surv3y!',
    });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(client.csrfToken).not.toBe(before);
    const next = await client.post('/app/auth/user/profile', {
      email: user.email,
      first_name: 'Next',
    });
    expect(next.statusCode, next.body).toBe(200);
  });
});

describe('sign-out', () => {
  it('a plain GET signs nobody out (405)', async () => {
    const user = await newUser();
    const client = await signedIn(user.username);
    const response = await client.get('/app/auth/logout');
    expect(response.statusCode).toBe(405);
    expect(response.headers.allow).toContain('POST');
    expect((await client.get('/v1/user/profile')).statusCode).toBe(200);
  });

  it('a POST needs the session’s token, then ends the session and hands a token for none', async () => {
    const user = await newUser();
    const client = await signedIn(user.username);
    const missing = await client.post('/app/auth/logout', undefined, { csrf: false });
    expect(missing.statusCode).toBe(400);
    const attacker = t.client();
    await attacker.init();
    const foreign = await forged(client, attacker, 'POST', '/app/auth/logout');
    expect(problem(foreign).detail).toBe(CSRF_MISMATCH);
    expect((await client.get('/v1/user/profile')).statusCode).toBe(200);

    const out = await client.post('/app/auth/logout');
    expect(out.statusCode).toBe(200);
    expect((await client.get('/v1/user/profile')).statusCode).toBe(401);
    // The answer's token is for a client without a session: signing in again works with it.
    expect(typeof out.headers['x-csrf-token']).toBe('string');
    const again = await client.post('/app/auth/login', {
      login: user.username,
      password: PASSWORD,
    });
    expect(again.statusCode, again.body).toBe(200);
  });
});
