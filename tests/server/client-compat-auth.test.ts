/**
 * Desktop and mobile clients, part 1 (client-compat §1–§3): token login and the token as the
 * python client decodes it, bearer requests without cookies or CSRF, the end of a token
 * (expiry, password change, closed account), /config as the clients read it, and the
 * transport rules (exact error Content-Types, True/False booleans, no redirects).
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashPassword } from '../../server/src/auth/passwords';
import { BEARER_TTL_MS } from '../../server/src/auth/bearer';
import { insertUser } from '../../server/src/db/queries/users';
import { loginHistory } from '../../server/src/db/schema';
import { setWorkspaceMember } from '../../server/src/db/queries/workspaces';
import { AUTH_REQUIRED_TEXT } from '../../server/src/errors';
import {
  decodeTokenLikePythonClient,
  parseZonedTime,
  PythonClient,
  USER_AGENT,
} from './support/python-client';
import { createTestApp, type TestApp } from './support/test-app';

const PASSWORD = 'Field-Password-1';
let t: TestApp;
let counter = 0;

async function newUser(options: { admin?: boolean } = {}) {
  const username = `surveyor${++counter}`;
  const user = await insertUser(t.database.db, {
    username,
    email: `${username}@example.com`,
    passwordHash: await hashPassword(PASSWORD),
    verifiedEmail: true,
  });
  if (options.admin) await setWorkspaceMember(t.database.db, t.setup.workspaceId, user.id, 'admin');
  return user;
}

beforeAll(async () => {
  t = await createTestApp();
});

afterAll(async () => {
  await t.close();
});

describe('token login (POST /v1/auth/login)', () => {
  it('answers the user and a token the python client decodes itself', async () => {
    const user = await newUser();
    const client = new PythonClient(t.app);
    const body = (await client.login(user.username, PASSWORD)) as {
      username: string;
      email: string;
      session: { token: string; expire: string };
    };
    expect(body.username).toBe(user.username);
    expect(body.email).toBe(user.email);
    const expire = parseZonedTime(body.session.expire);
    expect(expire.getTime()).toBe(t.clock.now().getTime() + BEARER_TTL_MS);

    // decode_token_data: `Bearer .` + base64url(zlib(JSON)) up to the next dot.
    const payload = decodeTokenLikePythonClient(`Bearer ${body.session.token}`);
    expect(payload.username).toBe(user.username);
    expect(parseZonedTime(payload.expire).getTime()).toBe(expire.getTime());
    // Not a JWT: the first segment is the payload, not a header.
    expect(body.session.token.startsWith('.')).toBe(true);
  });

  it('accepts the email as login, case-insensitively', async () => {
    const user = await newUser();
    const client = new PythonClient(t.app);
    const body = await client.login(user.email!.toUpperCase(), PASSWORD);
    expect(body.username).toBe(user.username);
  });

  it('refuses wrong credentials and incomplete forms with decodable problems', async () => {
    const user = await newUser();
    const client = new PythonClient(t.app);
    const wrong = await client.post('/v1/auth/login', { login: user.username, password: 'x' });
    expect(wrong.statusCode).toBe(401);
    expect(wrong.headers['content-type']).toBe('application/problem+json');
    expect(wrong.json().detail).toBe('Invalid username or password');

    const missing = await client.post('/v1/auth/login', { login: user.username });
    expect(missing.statusCode).toBe(400);
    expect(missing.headers['content-type']).toBe('application/problem+json');
    expect(missing.json().detail).toBe("'password' is a required property");

    const empty = await client.post('/v1/auth/login', { login: ' ', password: PASSWORD });
    expect(empty.statusCode).toBe(400);
    expect(empty.json().detail).toBe('This field is required.(login)');
  });

  it('records the login in the login history with the client user agent', async () => {
    const user = await newUser();
    await new PythonClient(t.app).login(user.username, PASSWORD);
    const rows = await t.database.db
      .select({ userAgent: loginHistory.userAgent })
      .from(loginHistory)
      .where(eq(loginHistory.userId, user.id));
    expect(rows.map((r) => r.userAgent)).toEqual([USER_AGENT]);
  });
});

describe('token login in maintenance mode', () => {
  it('still signs in (and writes no login history), while pushes are refused', async () => {
    const user = await newUser();
    const flag = path.join(t.config.dataDir, 'MAINTENANCE');
    await fs.writeFile(flag, '');
    try {
      const client = new PythonClient(t.app);
      await client.login(user.username, PASSWORD);
      expect((await client.get('/v1/user/profile')).statusCode).toBe(200);
      const rows = await t.database.db
        .select({ id: loginHistory.id })
        .from(loginHistory)
        .where(eq(loginHistory.userId, user.id));
      expect(rows).toEqual([]);
      const push = await client.post('/v1/project/push/waymark/anything', {
        version: 'v0',
        changes: { added: [], updated: [], removed: [] },
      });
      expect(push.statusCode).toBe(503);
      expect(push.headers['content-type']).toBe('application/problem+json');
    } finally {
      await fs.rm(flag, { force: true });
    }
  });
});

describe('bearer requests', () => {
  it('work on /v1 and /v2 calls without cookies or a CSRF token', async () => {
    const user = await newUser({ admin: true });
    const client = new PythonClient(t.app);
    await client.login(user.username, PASSWORD);

    const profile = await client.get('/v1/user/profile');
    expect(profile.statusCode, profile.body).toBe(200);
    expect(profile.json().username).toBe(user.username);
    expect(profile.headers['set-cookie']).toBeUndefined();

    // A mutation: create a project (POST, no X-CSRF-Token, no cookie).
    const create = await client.post('/v1/project/waymark', { name: 'bearer-made', public: false });
    expect(create.statusCode, create.body).toBe(200);
    const info = await client.info('waymark/bearer-made');
    expect(info.version).toBe('v0');
    expect(info.role).toBe('owner');
  });

  it('answer the legacy user info of old servers, whatever username the path names', async () => {
    const user = await newUser({ admin: true });
    const client = new PythonClient(t.app);
    await client.login(user.username, PASSWORD);
    const workspace = (await client.get('/v1/workspaces')).json()[0] as {
      name: string;
      storage: number;
      disk_usage: number;
    };
    for (const name of [user.username, 'someone-else']) {
      const info = await client.get(`/v1/user/${name}`);
      expect(info.statusCode, info.body).toBe(200);
      expect(info.json()).toEqual({
        username: user.username,
        email: user.email,
        disk_usage: workspace.disk_usage,
        storage: workspace.storage,
        storage_limit: workspace.storage,
        organisations: { [workspace.name]: 'admin' },
      });
    }
    expect((await new PythonClient(t.app).get(`/v1/user/${user.username}`)).statusCode).toBe(401);
  });

  it('are anonymous with a forged, malformed or expired token (401 JSON string)', async () => {
    const user = await newUser();
    const client = new PythonClient(t.app);
    await client.login(user.username, PASSWORD);
    const good = client.authorization!;

    const [, payload, signature] = good.split('.');
    for (const bad of [
      `${good.slice(0, -2)}xx`,
      `Bearer .${payload}.${signature}.extra`,
      'Bearer not-a-token',
      `Bearer eyJhbGciOiJIUzI1NiJ9.${payload}.${signature}`,
    ]) {
      client.authorization = bad;
      const response = await client.get('/v1/user/profile');
      expect(response.statusCode, bad).toBe(401);
      expect(response.headers['content-type']).toBe('application/json');
      expect(response.json()).toBe(AUTH_REQUIRED_TEXT);
    }

    client.authorization = good;
    expect((await client.get('/v1/user/profile')).statusCode).toBe(200);
    t.clock.advance(BEARER_TTL_MS + 1);
    try {
      expect((await client.get('/v1/user/profile')).statusCode).toBe(401);
    } finally {
      t.clock.advance(-(BEARER_TTL_MS + 1));
    }
  });

  it('end when the password changes (and a new login works)', async () => {
    const user = await newUser();
    const client = new PythonClient(t.app);
    await client.login(user.username, PASSWORD);
    expect((await client.get('/v1/user/profile')).statusCode).toBe(200);

    // The password changes in the browser.
    const browser = t.client();
    await browser.login(user.username, PASSWORD);
    const changed = await browser.post('/app/auth/change-password', {
      old_password: PASSWORD,
      password: 'Another-Password-2',
      confirm: 'Another-Password-2',
    });
    expect(changed.statusCode, changed.body).toBe(200);

    expect((await client.get('/v1/user/profile')).statusCode).toBe(401);
    await client.login(user.username, 'Another-Password-2');
    expect((await client.get('/v1/user/profile')).statusCode).toBe(200);
  });

  it('end when the account is closed', async () => {
    const user = await newUser();
    const client = new PythonClient(t.app);
    await client.login(user.username, PASSWORD);
    const other = new PythonClient(t.app);
    await other.login(user.username, PASSWORD);

    const closed = await client.delete('/v1/user');
    expect(closed.statusCode, closed.body).toBe(204);
    expect((await other.get('/v1/user/profile')).statusCode).toBe(401);
    const again = await new PythonClient(t.app).post('/v1/auth/login', {
      login: user.username,
      password: PASSWORD,
    });
    expect(again.statusCode).toBe(401);
  });

  it('lose to a valid session cookie (the browser session wins)', async () => {
    const bearerUser = await newUser();
    const cookieUser = await newUser();
    const client = new PythonClient(t.app);
    await client.login(bearerUser.username, PASSWORD);
    const browser = t.client();
    await browser.login(cookieUser.username, PASSWORD);
    const response = await browser.get('/v1/user/profile', {
      headers: { authorization: client.authorization! },
    });
    expect(response.json().username).toBe(cookieUser.username);
  });
});

describe('/config', () => {
  it('passes every version gate of the client (major and minor compared as strings)', async () => {
    const config = await new PythonClient(t.app).config();
    expect(config.v2_push_enabled).toBe(true);
    expect(config.server_type).toBe('ce');
    expect(config.v2_pull_enabled).toBe(true);
    const [major, minor] = String(config.version).split('.');
    for (const gate of ['2023.5', '2024.4', '2025.1', '2025.4', '2025.6', '2025.8']) {
      const [gateMajor, gateMinor] = gate.split('.') as [string, string];
      const acceptable = major! > gateMajor || (major === gateMajor && minor! >= gateMinor);
      expect(acceptable, `gate ${gate} for ${String(config.version)}`).toBe(true);
    }
  });

  it('answers with a bearer token too', async () => {
    const user = await newUser();
    const client = new PythonClient(t.app);
    await client.login(user.username, PASSWORD);
    expect((await client.get('/config')).statusCode).toBe(200);
  });
});

describe('diagnostic logs (POST /v2/diagnostic-logs)', () => {
  it('keeps the logs on this server, with or without a token', async () => {
    const user = await newUser();
    const signedIn = new PythonClient(t.app);
    await signedIn.login(user.username, PASSWORD);
    for (const client of [new PythonClient(t.app), signedIn]) {
      const response = await t.app.inject({
        method: 'POST',
        url: `/v2/diagnostic-logs?app=plugin-2025.2.0&username=${user.username}`,
        headers: {
          'content-type': 'text/plain',
          ...(client.authorization ? { authorization: client.authorization } : {}),
        },
        payload: 'QGIS log line 1\nline 2\n',
      });
      expect(response.statusCode, response.body).toBe(200);
      const { file } = response.json() as { file: string };
      const text = await fs.readFile(path.join(t.config.dataDir, 'diagnostic-logs', file), 'utf8');
      expect(text).toContain('app: plugin-2025.2.0');
      expect(text).toContain(`username: ${user.username}`);
      expect(text).toContain(
        `signed in as: ${client.authorization ? user.username : '(anonymous)'}`,
      );
      expect(text.endsWith('QGIS log line 1\nline 2\n')).toBe(true);
    }
    const tooLarge = await t.app.inject({
      method: 'POST',
      url: '/v2/diagnostic-logs?app=x',
      headers: { 'content-type': 'text/plain' },
      payload: Buffer.alloc(10 * 1024 * 1024 + 1, 0x61),
    });
    expect(tooLarge.statusCode).toBe(413);
    expect(tooLarge.headers['content-type']).toBe('application/problem+json');
  });
});

describe('transport', () => {
  it('sends errors as exactly application/problem+json or application/json', async () => {
    const client = new PythonClient(t.app);
    const missing = await client.get('/v1/project/waymark/no-such-project');
    expect(missing.statusCode).toBe(404);
    expect(missing.headers['content-type']).toBe('application/problem+json');
    const anonymous = await client.get('/v1/user/profile');
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.headers['content-type']).toBe('application/json');
    const bad = await client.get('/v1/project/paginated?page=0&per_page=50');
    expect(bad.statusCode).toBe(400);
    expect(bad.headers['content-type']).toBe('application/problem+json');
  });

  it('accepts booleans as True/False in any case', async () => {
    const client = new PythonClient(t.app);
    for (const value of ['True', 'False', 'TRUE', 'false']) {
      const response = await client.get(
        `/v1/project/paginated?page=1&per_page=50&only_public=${value}`,
      );
      expect(response.statusCode, `${value}: ${response.body}`).toBe(200);
    }
    const wrong = await client.get('/v1/project/paginated?page=1&per_page=50&only_public=yes');
    expect(wrong.statusCode).toBe(400);
  });

  it('never redirects API routes (a trailing slash is a plain 404)', async () => {
    const client = new PythonClient(t.app);
    for (const url of ['/v1/project/paginated/?page=1&per_page=5', '/config/', '/v1/auth/login/']) {
      const response = await client.get(url);
      expect(response.statusCode, url).toBe(404);
      expect(response.headers.location).toBeUndefined();
    }
  });
});
