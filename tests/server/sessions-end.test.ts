/**
 * Sessions end on logout, password change, password reset and account closing: a session
 * cookie captured before the event is refused after it (kept aside and replayed, as a thief
 * would), and so are the user's other sessions where the event ends them all. A password
 * change keeps its own browser signed in under a new session id.
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashPassword } from '../../server/src/auth/passwords';
import { makeToken } from '../../server/src/auth/tokens';
import { findUserByUsername, insertUser } from '../../server/src/db/queries/users';
import { sessions } from '../../server/src/db/schema';
import { createTestApp, type TestApp, type TestClient } from './support/test-app';

const PASSWORD = 'Session-Password-1';
const NEW_PASSWORD = 'Session-Password-2';
let t: TestApp;
let counter = 0;

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t.close());

interface Signed {
  username: string;
  userId: number;
  /** Two browsers of the same user. */
  a: TestClient;
  b: TestClient;
  /** Their cookie headers as they were right after signing in. */
  copyA: string;
  copyB: string;
}

async function twoSessions(): Promise<Signed> {
  const username = `sessions-${++counter}`;
  const user = await insertUser(t.database.db, {
    username,
    email: `${username}@example.com`,
    passwordHash: await hashPassword(PASSWORD),
    verifiedEmail: true,
  });
  const a = t.client();
  await a.login(username, PASSWORD);
  const b = t.client();
  await b.login(username, PASSWORD);
  const signed = {
    username,
    userId: user.id,
    a,
    b,
    copyA: a.cookieHeader(),
    copyB: b.cookieHeader(),
  };
  expect(await status(signed.copyA)).toBe(200);
  expect(await status(signed.copyB)).toBe(200);
  return signed;
}

/** GET /v1/user/profile with exactly this cookie header. */
async function status(cookie: string): Promise<number> {
  const response = await t.app.inject({ url: '/v1/user/profile', headers: { cookie } });
  return response.statusCode;
}

async function sessionRows(userId: number): Promise<number> {
  return (await t.database.db.select().from(sessions).where(eq(sessions.userId, userId))).length;
}

describe('sessions end', () => {
  it('on logout: that session only', async () => {
    const s = await twoSessions();
    expect((await s.a.post('/app/auth/logout')).statusCode).toBe(200);
    expect(await status(s.copyA)).toBe(401);
    expect(await status(s.copyB)).toBe(200);
    expect(await sessionRows(s.userId)).toBe(1);
  });

  it('on password change: every session id from before; the changer goes on under a new one', async () => {
    const s = await twoSessions();
    const c = t.client();
    await c.login(s.username, PASSWORD);
    const copyC = c.cookieHeader();
    const response = await s.a.post('/app/auth/change-password', {
      old_password: PASSWORD,
      password: NEW_PASSWORD,
      confirm: NEW_PASSWORD,
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(await status(s.copyB)).toBe(401);
    expect(await status(copyC)).toBe(401);
    expect(await status(s.copyA)).toBe(401);
    // The browser that changed it got a new session cookie and stays signed in.
    expect(s.a.cookieHeader()).not.toBe(s.copyA);
    expect(await status(s.a.cookieHeader())).toBe(200);
    expect((await s.a.get('/v1/user/profile')).statusCode).toBe(200);
    expect(await sessionRows(s.userId)).toBe(1);
    // A mutation with an old session is refused as well (as anonymous: 401).
    const mutation = await s.b.post('/app/auth/user/profile', {
      email: `${s.username}@example.com`,
    });
    expect(mutation.statusCode).toBe(401);
  });

  it('on password reset by link: every session', async () => {
    const s = await twoSessions();
    const user = (await findUserByUsername(t.database.db, s.username))!;
    const token = makeToken(
      t.config.secretKey,
      'reset-password',
      { userId: user.id, email: user.email!, passwordHash: user.passwordHash },
      t.clock.now(),
    );
    const anonymous = t.client();
    await anonymous.init();
    const response = await anonymous.post(`/app/auth/reset-password/${token}`, {
      password: NEW_PASSWORD,
      confirm: NEW_PASSWORD,
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(await status(s.copyA)).toBe(401);
    expect(await status(s.copyB)).toBe(401);
    expect(await sessionRows(s.userId)).toBe(0);
  });

  it('on closing the account: every session, and no new one', async () => {
    const s = await twoSessions();
    const response = await s.a.delete('/v1/user');
    expect(response.statusCode, response.body).toBe(204);
    expect(await status(s.copyA)).toBe(401);
    expect(await status(s.copyB)).toBe(401);
    expect(await sessionRows(s.userId)).toBe(0);
    const again = t.client();
    await again.init();
    const login = await again.post('/app/auth/login', { login: s.username, password: PASSWORD });
    expect(login.statusCode).toBe(401);
  });

  it('on sign-in over an existing session: the old session id is not reused', async () => {
    const s = await twoSessions();
    await s.a.login(s.username, PASSWORD);
    expect(s.a.cookieHeader()).not.toBe(s.copyA);
    expect(await status(s.copyA)).toBe(401);
    expect(await status(s.a.cookieHeader())).toBe(200);
  });
});
