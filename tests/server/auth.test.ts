import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashSessionId } from '../../server/src/auth/sessions';
import { insertUser } from '../../server/src/db/queries/users';
import { loginHistory, sessions, users } from '../../server/src/db/schema';
import { hashPassword } from '../../server/src/auth/passwords';
import { ADMIN_PASSWORD, createTestApp, problem, type TestApp } from './support/test-app';

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp({
    extend(app) {
      app.post('/v1/test-echo', async () => ({ ok: true }));
      app.post('/app/test-echo', async () => ({ ok: true }));
    },
  });
  const passwordHash = await hashPassword('Jane-Password-1');
  await insertUser(t.database.db, {
    username: 'jane.doe',
    email: 'Jane.Doe@Example.com',
    passwordHash,
  });
  await insertUser(t.database.db, {
    username: 'inactive',
    email: 'inactive@example.com',
    passwordHash,
    active: false,
  });
  await insertUser(t.database.db, { username: 'ssouser', email: 'sso@example.com' });
});

afterAll(async () => {
  await t?.close();
});

describe('POST /app/auth/login', () => {
  it('signs in by username and reports it in /app/init', async () => {
    const client = t.client();
    expect(await client.init()).toEqual({ authenticated: false, superuser: false });
    const response = await client.post('/app/auth/login', {
      login: 'admin',
      password: ADMIN_PASSWORD,
    });
    expect(response.statusCode).toBe(200);
    expect(response.body).toBe('');
    const cookie = response.cookies.find((c) => c.name === 'session');
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/' });
    expect(cookie?.maxAge).toBe(14 * 24 * 3600);
    expect(await client.init()).toEqual({ authenticated: true, superuser: true });
  });

  it('records login history and last_signed_in', async () => {
    const client = t.client();
    await client.init();
    await client.post(
      '/app/auth/login',
      { login: 'jane.doe', password: 'Jane-Password-1' },
      { headers: { 'user-agent': 'TestAgent/1.0', 'x-device-id': 'device-7' } },
    );
    const [jane] = await t.database.db.select().from(users).where(eq(users.username, 'jane.doe'));
    expect(jane?.lastSignedIn).toBeInstanceOf(Date);
    const history = await t.database.db
      .select()
      .from(loginHistory)
      .where(eq(loginHistory.userId, jane!.id));
    expect(history.at(-1)).toMatchObject({ userAgent: 'TestAgent/1.0', deviceId: 'device-7' });
  });

  it('matches an email case-insensitively, and usernames case-insensitively', async () => {
    for (const login of ['jane.doe@example.COM', 'JANE.DOE', '  jane.doe  ']) {
      const client = t.client();
      await client.init();
      const response = await client.post('/app/auth/login', {
        login,
        password: 'Jane-Password-1',
      });
      expect(response.statusCode, login).toBe(200);
    }
  });

  it('answers 401 form errors for missing or empty fields', async () => {
    const client = t.client();
    await client.init();
    const empty = await client.post('/app/auth/login', { login: '  ', password: '' });
    expect(empty.statusCode).toBe(401);
    expect(empty.headers['content-type']).toBe('application/json');
    expect(empty.json()).toEqual({
      login: ['This field is required.'],
      password: ['This field is required.'],
    });
    const noPassword = await client.post('/app/auth/login', { login: 'admin' });
    expect(noPassword.statusCode).toBe(401);
    expect(noPassword.json()).toEqual({ password: ['This field is required.'] });
    const noLogin = await client.post('/app/auth/login', { password: 'x' });
    expect(noLogin.json()).toEqual({ login: ['This field is required.'] });
  });

  it.each([
    ['wrong password', 'admin', 'Wrong-Password-1'],
    ['unknown user', 'nobody', 'Whatever-1a'],
    ['unknown email', 'nobody@example.com', 'Whatever-1a'],
    ['inactive user', 'inactive', 'Jane-Password-1'],
    ['user without password', 'ssouser', 'Whatever-1a'],
  ])('refuses a %s with 401 Invalid username or password', async (_case, login, password) => {
    const client = t.client();
    await client.init();
    const response = await client.post('/app/auth/login', { login, password });
    expect(response.statusCode).toBe(401);
    expect(problem(response)).toEqual({
      detail: 'Invalid username or password',
      status: 401,
      title: 'Unauthorized',
      type: 'about:blank',
    });
    expect(response.cookies.find((c) => c.name === 'session')).toBeUndefined();
  });

  it('answers 415 without a JSON content type', async () => {
    const client = t.client();
    await client.init();
    const plain = await client.request('POST', '/app/auth/login', {
      payload: 'login=admin&password=x',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(plain.statusCode).toBe(415);
    expect(problem(plain).status).toBe(415);
    const none = await client.request('POST', '/app/auth/login');
    expect(none.statusCode).toBe(415);
  });

  it('rotates the session on a new login', async () => {
    const client = t.client();
    await client.login('admin', ADMIN_PASSWORD);
    const first = client.cookies.get('session')!;
    await client.post('/app/auth/login', { login: 'jane.doe', password: 'Jane-Password-1' });
    const second = client.cookies.get('session')!;
    expect(second).not.toBe(first);
    const old = await t.database.db
      .select()
      .from(sessions)
      .where(eq(sessions.idHash, hashSessionId(first)));
    expect(old).toHaveLength(0);
    expect(await client.init()).toEqual({ authenticated: true, superuser: false });
  });
});

describe('CSRF', () => {
  it('requires a token for login', async () => {
    const client = t.client();
    await client.init();
    const response = await client.post(
      '/app/auth/login',
      { login: 'admin', password: ADMIN_PASSWORD },
      { csrf: false },
    );
    expect(response.statusCode).toBe(400);
    expect(problem(response).detail).toBe('The CSRF token is missing.');
  });

  it('accepts the X-CSRFToken header too', async () => {
    const client = t.client();
    await client.init();
    const response = await client.post(
      '/app/auth/login',
      { login: 'admin', password: ADMIN_PASSWORD },
      { csrf: false, headers: { 'x-csrftoken': client.csrfToken! } },
    );
    expect(response.statusCode).toBe(200);
  });

  it('reports a missing CSRF cookie', async () => {
    const client = t.client();
    await client.init();
    client.cookies.delete('csrf');
    const response = await client.post('/app/auth/login', { login: 'admin', password: 'x' });
    expect(problem(response).detail).toBe('The CSRF session token is missing.');
  });

  it('reports a tampered CSRF cookie as missing', async () => {
    const client = t.client();
    await client.init();
    client.cookies.set('csrf', 'forged.value');
    const response = await client.post('/app/auth/login', { login: 'admin', password: 'x' });
    expect(problem(response).detail).toBe('The CSRF session token is missing.');
  });

  it('reports malformed and wrongly signed tokens as invalid', async () => {
    const client = t.client();
    await client.init();
    const [digest, issued] = client.csrfToken!.split('.');
    for (const token of ['garbage', `${digest}.${issued}.AAAA`, `${digest}.x.y`]) {
      const response = await client.post(
        '/app/auth/login',
        { login: 'admin', password: 'x' },
        { headers: { 'x-csrf-token': token } },
      );
      expect(response.statusCode).toBe(400);
      expect(problem(response).detail).toBe('The CSRF token is invalid.');
    }
  });

  it("reports another client's token as not matching", async () => {
    const victim = t.client();
    await victim.init();
    const attacker = t.client();
    await attacker.init();
    const response = await victim.post(
      '/app/auth/login',
      { login: 'admin', password: 'x' },
      { headers: { 'x-csrf-token': attacker.csrfToken! } },
    );
    expect(problem(response).detail).toBe('The CSRF tokens do not match.');
  });

  it('expires tokens after 24 hours, and a refreshed token works', async () => {
    const client = t.client();
    await client.login('admin', ADMIN_PASSWORD);
    const oldToken = client.csrfToken!;
    t.clock.advance(24 * 3600 * 1000 + 1000);
    try {
      const expired = await client.post('/app/auth/login', {
        login: 'admin',
        password: ADMIN_PASSWORD,
      });
      expect(expired.statusCode).toBe(400);
      expect(problem(expired).detail).toBe('The CSRF token has expired.');

      const refresh = await client.get('/app/auth/refresh/csrf');
      expect(refresh.statusCode).toBe(200);
      const { csrf } = refresh.json<{ csrf: string }>();
      expect(csrf).not.toBe(oldToken);
      client.csrfToken = csrf;
      const retried = await client.post('/app/auth/login', {
        login: 'admin',
        password: ADMIN_PASSWORD,
      });
      expect(retried.statusCode).toBe(200);
    } finally {
      t.clock.advance(-(24 * 3600 * 1000 + 1000));
    }
  });

  it('does not check /v1 requests without a session cookie, but does with one', async () => {
    // Bearer and anonymous API clients keep no cookies and send no token.
    const apiClient = t.client();
    expect((await apiClient.request('POST', '/v1/test-echo')).statusCode).toBe(200);
    const app = await apiClient.request('POST', '/app/test-echo');
    expect(problem(app).detail).toBe('The CSRF token is missing.');

    const browser = t.client();
    await browser.login('admin', ADMIN_PASSWORD);
    const withCookie = await browser.request('POST', '/v1/test-echo', { csrf: false });
    expect(problem(withCookie).detail).toBe('The CSRF token is missing.');
    expect((await browser.request('POST', '/v1/test-echo')).statusCode).toBe(200);
    expect((await browser.request('POST', '/alive', { csrf: false })).statusCode).toBe(200);
  });

  it('refresh/csrf needs a signed-in user', async () => {
    const client = t.client();
    const response = await client.get('/app/auth/refresh/csrf');
    expect(response.statusCode).toBe(401);
    expect(response.json()).toBe('Authentication information is missing or invalid.');
  });
});

describe('POST /app/auth/logout', () => {
  it('deletes the session server-side', async () => {
    const client = t.client();
    await client.login('jane.doe', 'Jane-Password-1');
    const cookie = client.cookies.get('session')!;
    const response = await client.post('/app/auth/logout');
    expect(response.statusCode).toBe(200);
    expect(response.body).toBe('');
    const rows = await t.database.db
      .select()
      .from(sessions)
      .where(eq(sessions.idHash, hashSessionId(cookie)));
    expect(rows).toHaveLength(0);

    // Replaying the old cookie does not work any more.
    const replay = await t.app.inject({
      method: 'GET',
      url: '/v1/user/profile',
      headers: { cookie: `session=${cookie}` },
    });
    expect(replay.statusCode).toBe(401);
    const init = await t.app.inject({
      method: 'GET',
      url: '/app/init',
      headers: { cookie: `session=${cookie}` },
    });
    expect(init.json()).toEqual({ authenticated: false, superuser: false });
  });

  it('answers 401 with the JSON string when not signed in', async () => {
    const client = t.client();
    await client.init();
    const response = await client.post('/app/auth/logout');
    expect(response.statusCode).toBe(401);
    expect(response.headers['content-type']).toBe('application/json');
    expect(response.body).toBe('"Authentication information is missing or invalid."');
  });
});

describe('sessions', () => {
  it('slide: used after a day, they are renewed for another 14 days', async () => {
    const client = t.client();
    await client.login('jane.doe', 'Jane-Password-1');
    const cookie = client.cookies.get('session')!;
    const day = 24 * 3600 * 1000;
    t.clock.advance(day);
    try {
      const response = await client.get('/v1/user/profile');
      expect(response.statusCode).toBe(200);
      const [row] = await t.database.db
        .select()
        .from(sessions)
        .where(eq(sessions.idHash, hashSessionId(cookie)));
      expect(row!.expiresAt.getTime()).toBe(t.clock.ms + 14 * day);
      expect(response.cookies.find((c) => c.name === 'session')?.maxAge).toBe(14 * 24 * 3600);
    } finally {
      t.clock.advance(-day);
    }
  });

  it('end after 14 days without use', async () => {
    const client = t.client();
    await client.login('jane.doe', 'Jane-Password-1');
    t.clock.advance(15 * 24 * 3600 * 1000);
    try {
      expect((await client.get('/v1/user/profile')).statusCode).toBe(401);
    } finally {
      t.clock.advance(-15 * 24 * 3600 * 1000);
    }
  });

  it('end when the user is deactivated', async () => {
    const passwordHash = await hashPassword('Temp-Password-1');
    const temp = await insertUser(t.database.db, {
      username: 'temporary',
      email: 'temporary@example.com',
      passwordHash,
    });
    const client = t.client();
    await client.login('temporary', 'Temp-Password-1');
    await t.database.db.update(users).set({ active: false }).where(eq(users.id, temp.id));
    expect(await client.init()).toEqual({ authenticated: false, superuser: false });
  });
});

describe('behind https (BASE_URL https://…)', () => {
  let secure: TestApp;

  beforeAll(async () => {
    secure = await createTestApp({ env: { BASE_URL: 'https://maps.example.org' } });
  });

  afterAll(async () => {
    await secure?.close();
  });

  it('uses Secure __Host- cookies', async () => {
    const client = secure.client();
    const init = await client.get('/app/init');
    expect(init.cookies.find((c) => c.name === '__Host-csrf')).toMatchObject({
      secure: true,
      httpOnly: true,
      path: '/',
    });
    const login = await client.post('/app/auth/login', {
      login: 'admin',
      password: ADMIN_PASSWORD,
    });
    expect(login.statusCode).toBe(200);
    const session = login.cookies.find((c) => c.name === '__Host-session');
    expect(session).toMatchObject({ secure: true, httpOnly: true, path: '/', sameSite: 'Lax' });
    expect(session).not.toHaveProperty('domain');
    expect(await client.init()).toEqual({ authenticated: true, superuser: true });
    // A plain `session` cookie means nothing here.
    const plain = await secure.app.inject({
      method: 'GET',
      url: '/app/init',
      headers: { cookie: `session=${session!.value}` },
    });
    expect(plain.json()).toEqual({ authenticated: false, superuser: false });
  });
});
