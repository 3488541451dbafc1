/**
 * Security headers on HTML, API and error responses; project files as inert attachments
 * under a sandboxing CSP; cookie flags (http and https); argon2id parameters in the hash.
 */
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LightMyRequestResponse } from 'fastify';
import { eq } from 'drizzle-orm';
import { users } from '../../server/src/db/schema';
import { APP_CSP, FILE_CSP } from '../../server/src/plugins/security-headers';
import { commit, createProject } from './support/seed';
import { ADMIN_PASSWORD, createTestApp, type TestApp } from './support/test-app';

let t: TestApp;
let distDir: string;

beforeAll(async () => {
  distDir = await fs.mkdtemp(path.join(os.tmpdir(), 'waymark-dist-'));
  await fs.writeFile(path.join(distDir, 'index.html'), '<!doctype html><title>Waymark</title>');
  await fs.mkdir(path.join(distDir, 'assets'));
  // A worker's policy is the one its script is served with: assets carry the app's too.
  await fs.writeFile(
    path.join(distDir, 'assets', 'hash.worker-abc123.js'),
    'self.onmessage = null;',
  );
  t = await createTestApp({ distDir });
  const project = await createProject(t, { name: 'markup', public: true });
  await commit(t, project.id, {
    added: {
      'drawing.svg':
        '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(document.cookie)</script></svg>',
      'page.html': '<!doctype html><html><body><script>alert(1)</script></body></html>',
      'page.htm': '<html><body onload="alert(1)"></body></html>',
      'doc.xhtml': '<html xmlns="http://www.w3.org/1999/xhtml"><script>alert(1)</script></html>',
    },
  });
});

afterAll(async () => {
  await t.close();
  await fs.rm(distDir, { recursive: true, force: true });
});

function expectCommonHeaders(response: LightMyRequestResponse) {
  expect(response.headers).toMatchObject({
    'x-content-type-options': 'nosniff',
    'x-frame-options': 'DENY',
    'referrer-policy': 'same-origin',
    'cross-origin-opener-policy': 'same-origin',
    'cross-origin-resource-policy': 'same-origin',
  });
  expect(response.headers['permissions-policy']).toContain('camera=()');
  // Field capture's 'Use my location' (issue 34): the app's own pages only.
  expect(response.headers['permissions-policy']).toContain('geolocation=(self)');
  expect(response.headers['strict-transport-security']).toBeUndefined();
}

describe('security headers', () => {
  it('sends the app CSP on the HTML shell, API answers and errors', async () => {
    const responses = [
      await t.app.inject({ url: '/', headers: { accept: 'text/html' } }),
      await t.app.inject({ url: '/dashboard', headers: { accept: 'text/html' } }),
      await t.app.inject({ url: '/assets/hash.worker-abc123.js' }),
      await t.app.inject({ url: '/ping' }),
      await t.app.inject({ url: '/app/init' }),
      await t.app.inject({ url: '/v1/project/nope/nope' }),
      await t.app.inject({ url: '/v1/no-such-route' }),
      await t.app.inject({ method: 'DELETE', url: '/ping' }),
      // An undecodable URL is answered by Fastify's framework error handler.
      await t.app.inject({ url: '/v1/project/%E0%A4%A' }),
    ];
    for (const response of responses) {
      expect(response.headers['content-security-policy'], response.body).toBe(APP_CSP);
      expectCommonHeaders(response);
    }
    expect(responses[0]!.headers['content-type']).toMatch(/^text\/html/);
  });

  it('allows only what the app uses: no inline or eval script, no framing', () => {
    const directives = new Map(
      APP_CSP.split('; ').map((d) => [d.split(' ')[0]!, d.split(' ').slice(1)] as const),
    );
    expect(directives.get('default-src')).toEqual(["'self'"]);
    expect(directives.get('script-src')).toEqual(["'self'", "'wasm-unsafe-eval'"]);
    expect(directives.get('worker-src')).toEqual(["'self'", 'blob:']);
    expect(directives.get('connect-src')).toEqual(["'self'"]);
    expect(directives.get('img-src')).toEqual(["'self'", 'data:', 'blob:']);
    expect(directives.get('object-src')).toEqual(["'none'"]);
    expect(directives.get('frame-ancestors')).toEqual(["'none'"]);
    expect(APP_CSP).not.toMatch(/script-src[^;]*'unsafe-(inline|eval)'/);
  });

  it('sends HSTS only when BASE_URL is https', async () => {
    const https = await createTestApp({ env: { BASE_URL: 'https://maps.example.com' } });
    try {
      const response = await https.app.inject({ url: '/ping' });
      expect(response.headers['strict-transport-security']).toBe('max-age=31536000');
      expect(response.headers['content-security-policy']).toBe(APP_CSP);
    } finally {
      await https.close();
    }
  });
});

describe('project files never run in the app origin', () => {
  for (const file of ['drawing.svg', 'page.html', 'page.htm', 'doc.xhtml']) {
    it(`serves ${file} as an inert attachment under a sandbox CSP`, async () => {
      for (const method of ['GET', 'HEAD'] as const) {
        const response = await t.app.inject({
          method,
          url: `/v1/project/raw/waymark/markup?file=${encodeURIComponent(file)}`,
        });
        expect(response.statusCode).toBe(200);
        expect(response.headers['content-type']).toBe('text/plain');
        expect(response.headers['content-disposition']).toBe(
          `attachment; filename*=UTF-8''${file}`,
        );
        expect(response.headers['content-security-policy']).toBe(FILE_CSP);
        expect(response.headers['x-content-type-options']).toBe('nosniff');
      }
    });
  }

  it('sends the project ZIP as an attachment under the sandbox CSP', async () => {
    const response = await t.app.inject({ url: '/v1/project/download/waymark/markup?format=zip' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('application/zip');
    expect(response.headers['content-disposition']).toMatch(/^attachment;/);
    expect(response.headers['content-security-policy']).toBe(FILE_CSP);
    expect(FILE_CSP.split('; ')).toEqual([
      'sandbox',
      "default-src 'none'",
      "frame-ancestors 'none'",
    ]);
  });
});

/** Set-Cookie headers of a response, by cookie name. */
function setCookies(response: LightMyRequestResponse): Map<string, string> {
  const header = response.headers['set-cookie'];
  const list = header === undefined ? [] : Array.isArray(header) ? header : [header];
  return new Map(list.map((line) => [line.split('=')[0]!, line] as const));
}

async function signInCookies(app: TestApp): Promise<Map<string, string>> {
  const init = await app.app.inject({ url: '/app/init' });
  const cookies = setCookies(init);
  const cookie = [...cookies.values()].map((line) => line.split(';')[0]).join('; ');
  const login = await app.app.inject({
    method: 'POST',
    url: '/app/auth/login',
    headers: {
      cookie,
      'content-type': 'application/json',
      'x-csrf-token': String(init.headers['x-csrf-token']),
    },
    payload: JSON.stringify({ login: 'admin', password: ADMIN_PASSWORD }),
  });
  expect(login.statusCode, login.body).toBe(200);
  return new Map([...cookies, ...setCookies(login)]);
}

function attributes(line: string): string[] {
  return line
    .split(';')
    .slice(1)
    .map((part) => part.trim().toLowerCase());
}

describe('cookie flags', () => {
  it('over http: HttpOnly, SameSite=Lax, Path=/, not Secure, no prefix', async () => {
    const cookies = await signInCookies(t);
    expect([...cookies.keys()].sort()).toEqual(['csrf', 'session']);
    for (const line of cookies.values()) {
      const attrs = attributes(line);
      expect(attrs).toEqual(expect.arrayContaining(['httponly', 'samesite=lax', 'path=/']));
      expect(attrs).not.toContain('secure');
      expect(attrs.some((a) => a.startsWith('domain='))).toBe(false);
    }
  });

  it('over https: the __Host- prefix with Secure, Path=/ and no Domain', async () => {
    const https = await createTestApp({ env: { BASE_URL: 'https://maps.example.com' } });
    try {
      const cookies = await signInCookies(https);
      expect([...cookies.keys()].sort()).toEqual(['__Host-csrf', '__Host-session']);
      for (const line of cookies.values()) {
        const attrs = attributes(line);
        expect(attrs).toEqual(
          expect.arrayContaining(['httponly', 'samesite=lax', 'path=/', 'secure']),
        );
        expect(attrs.some((a) => a.startsWith('domain='))).toBe(false);
      }
      // The plain names are not accepted as a session under https.
      const session = cookies.get('__Host-session')!.split(';')[0]!.split('=')[1];
      const plain = await https.app.inject({
        url: '/v1/user/profile',
        headers: { cookie: `session=${session}` },
      });
      expect(plain.statusCode).toBe(401);
    } finally {
      await https.close();
    }
  });
});

describe('password hashing', () => {
  it('stores argon2id with the OWASP parameters (19 MiB, 2 passes, 1 lane)', async () => {
    const client = t.client();
    await client.login('admin', ADMIN_PASSWORD);
    const newPassword = 'Changed-Password-2';
    const response = await client.post('/app/auth/change-password', {
      old_password: ADMIN_PASSWORD,
      password: newPassword,
      confirm: newPassword,
    });
    expect(response.statusCode, response.body).toBe(200);
    const [row] = await t.database.db
      .select({ hash: users.passwordHash })
      .from(users)
      .where(eq(users.username, 'admin'));
    expect(row!.hash).toMatch(
      /^\$argon2id\$v=19\$m=19456,t=2,p=1\$[A-Za-z0-9+/]{22}\$[A-Za-z0-9+/]{43}$/,
    );
    await client.post('/app/auth/change-password', {
      old_password: newPassword,
      password: ADMIN_PASSWORD,
      confirm: ADMIN_PASSWORD,
    });
  });
});
