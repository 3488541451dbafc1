import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_PASSWORD, createTestApp, problem, type TestApp } from './support/test-app';

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp({
    env: { GLOBAL_READ: 'yes', DOCS_URL: 'https://docs.example.org/waymark' },
    extend(app) {
      // A deliberately failing route to check the 500 handling.
      app.get('/v1/test-crash', async () => {
        throw new Error('secret internal detail');
      });
      // An ordinary mutation, for the maintenance checks.
      app.post('/app/test-mutation', async () => ({ ok: true }));
    },
  });
});

afterAll(async () => {
  await t?.close();
});

describe('instance endpoints', () => {
  it('GET /ping', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/ping' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('application/json');
    expect(response.json()).toEqual({
      service: 'Waymark',
      status: 'online',
      base_url: 'v1',
      endpoints: {},
      version: '2026.1.0',
      blacklist_dirs: ['.mergin'],
      blacklist_files: ['.DS_Store', '.directory'],
      maintenance: false,
      subscriptions_enabled: false,
    });
  });

  it('GET /config', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/config' });
    expect(response.json()).toEqual({
      docs_url: 'https://docs.example.org/waymark',
      server_type: 'ce',
      collect_statistics: false,
      user_self_registration: false,
      global_admin: false,
      global_read: true,
      global_write: false,
      enable_superadmin_assignment: true,
      diagnostic_logs_url: '',
      v2_push_enabled: true,
      v2_pull_enabled: true,
      workspace_creation: false,
      blacklist_dirs: ['.mergin'],
      blacklist_files: ['.DS_Store', '.directory'],
      version: '2026.1.0',
      major: 2026,
      minor: 1,
      fix: 0,
      server_configured: true,
      build_hash: '',
    });
  });

  it('GET /config names the community chat when COMMUNITY_URL is set', async () => {
    const own = await createTestApp({ env: { COMMUNITY_URL: 'https://chat.example.org/waymark' } });
    try {
      const response = await own.app.inject({ method: 'GET', url: '/config' });
      expect(response.json()).toMatchObject({ community_url: 'https://chat.example.org/waymark' });
    } finally {
      await own.close();
    }
    // Without it the key is absent (above), and a bad address stops the start.
    await expect(createTestApp({ env: { COMMUNITY_URL: 'javascript:alert(1)' } })).rejects.toThrow(
      /COMMUNITY_URL/,
    );
  });

  it('GET /app/init mints a CSRF token and an HttpOnly csrf cookie', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/app/init' });
    expect(response.json()).toEqual({ authenticated: false, superuser: false });
    // digest(secret).time.session tag (`anon` without a session).signature
    expect(response.headers['x-csrf-token']).toMatch(/^[\w-]{43}\.\d+\.anon\.[\w-]{43}$/);
    const cookie = response.cookies.find((c) => c.name === 'csrf');
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/' });
    expect(response.headers['cache-control']).toBe('no-store');
  });

  it('GET /app/init keeps an existing CSRF secret', async () => {
    const client = t.client();
    await client.init();
    const cookie = client.cookies.get('csrf');
    const again = await client.get('/app/init');
    expect(again.cookies.find((c) => c.name === 'csrf')).toBeUndefined();
    expect(client.cookies.get('csrf')).toBe(cookie);
  });

  it('POST /alive works without CSRF', async () => {
    const response = await t.app.inject({ method: 'POST', url: '/alive' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ maintenance: false });
  });
});

describe('maintenance mode', () => {
  const flag = () => path.join(t.config.dataDir, 'MAINTENANCE');

  it('is reported by /ping and blocks mutations, but not sign-in and sign-out', async () => {
    const client = t.client();
    await client.init();
    fs.writeFileSync(flag(), '');
    try {
      const ping = await t.app.inject({ method: 'GET', url: '/ping' });
      expect(ping.json()).toMatchObject({ maintenance: true });

      const login = await client.post('/app/auth/login', {
        login: 'admin',
        password: ADMIN_PASSWORD,
      });
      expect(login.statusCode).toBe(200);

      const blocked = await client.request('POST', '/app/test-mutation');
      expect(blocked.statusCode).toBe(503);
      expect((await client.request('POST', '/alive')).statusCode).toBe(200);
      expect(
        (await client.post('/v1/project/by_names', { projects: ['waymark/none'] })).statusCode,
      ).toBe(200);

      // GETs still work.
      const profile = await client.get('/v1/user/profile');
      expect(profile.statusCode).toBe(200);
      // Sign-out is a POST (issue 29) and works as sign-in does.
      expect((await client.post('/app/auth/logout')).statusCode).toBe(200);
    } finally {
      fs.rmSync(flag(), { force: true });
    }
    const ping = await t.app.inject({ method: 'GET', url: '/ping' });
    expect(ping.json()).toMatchObject({ maintenance: false });
  });

  it('answers 503 after the CSRF check', async () => {
    const client = t.client();
    await client.init();
    fs.writeFileSync(flag(), '');
    try {
      const noToken = await client.request('POST', '/app/test-mutation', { csrf: false });
      expect(problem(noToken).detail).toBe('The CSRF token is missing.');
      const response = await client.request('POST', '/app/test-mutation');
      expect(response.statusCode).toBe(503);
      expect(problem(response)).toEqual({
        detail: 'Service unavailable due to maintenance, please try later',
        status: 503,
        title: 'Service Unavailable',
        type: 'about:blank',
      });
    } finally {
      fs.rmSync(flag(), { force: true });
    }
    const client2 = t.client();
    await client2.init();
    const after = await client2.request('POST', '/app/test-mutation');
    expect(after.statusCode).toBe(200);
  });
});

describe('bad input and unknown routes', () => {
  async function post(payload: string, contentType: string) {
    const client = t.client();
    await client.init();
    return client.request('POST', '/app/auth/login', {
      payload,
      headers: { 'content-type': contentType },
    });
  }

  it('malformed JSON → 400 problem', async () => {
    const response = await post('{"login": ', 'application/json');
    expect(response.statusCode).toBe(400);
    expect(problem(response).detail).toMatch(/^Failed to decode JSON object/);
  });

  it('wrong content type → 415 problem', async () => {
    const response = await post('login=admin', 'text/plain');
    expect(response.statusCode).toBe(415);
    expect(problem(response).detail).toBe('Invalid Content-type (text/plain), expected JSON data');
  });

  it('oversized body → 413 problem', async () => {
    const big = JSON.stringify({ login: 'x'.repeat(1024 * 1024 + 10), password: 'y' });
    const response = await post(big, 'application/json');
    expect(response.statusCode).toBe(413);
    expect(problem(response).detail).toBe('The data value transmitted exceeds the capacity limit.');
  });

  it('a body of the wrong JSON type → 400 problem', async () => {
    const response = await post('[1,2]', 'application/json');
    expect(response.statusCode).toBe(400);
    expect(problem(response).detail).toBe("[1,2] is not of type 'object'");
  });

  it('unknown route → 404 problem, for API and non-API paths alike', async () => {
    for (const url of ['/v1/nothing', '/app/nothing', '/nothing.js', '/']) {
      const response = await t.app.inject({ method: 'GET', url });
      expect(response.statusCode, url).toBe(404);
      expect(problem(response).detail).toBe(
        'The requested URL was not found on the server. If you entered the URL manually please check your spelling and try again.',
      );
    }
  });

  it('an undecodable URL → 400 problem', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/v1/%E0%A4%A' });
    expect(response.statusCode).toBe(400);
    expect(problem(response).status).toBe(400);
  });

  it('a mutation of an unknown route → 404, not a CSRF error', async () => {
    const response = await t.app.inject({ method: 'POST', url: '/app/nothing' });
    expect(response.statusCode).toBe(404);
  });

  it('unknown method on a known path → 405 problem with Allow', async () => {
    const response = await t.app.inject({ method: 'DELETE', url: '/ping' });
    expect(response.statusCode).toBe(405);
    expect(response.headers.allow).toBe('GET, HEAD, OPTIONS');
    expect(problem(response).detail).toBe('The method is not allowed for the requested URL.');
    const put = await t.app.inject({ method: 'PUT', url: '/v1/workspace/1' });
    expect(put.statusCode).toBe(405);
  });

  it('an unexpected error → 500 generic problem without internals', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/v1/test-crash' });
    expect(response.statusCode).toBe(500);
    const body = problem(response);
    expect(body.detail).toMatch(/^The server encountered an internal error/);
    expect(response.body).not.toContain('secret internal detail');
    expect(response.body).not.toContain('at ');
    // The server keeps serving.
    expect((await t.app.inject({ method: 'GET', url: '/ping' })).statusCode).toBe(200);
  });
});
