/**
 * Malformed and hostile input is a 4xx with a short answer, never a 5xx (issue 22,
 * Hardening): deep JSON, huge echoes, out-of-range numbers, unpaired surrogates and bidi
 * controls in file paths, and JSON bodies of the wrong types (no coercion in bodies).
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projectPathError } from '../../server/src/lib/paths';
import {
  MAX_JSON_DEPTH,
  TOO_DEEP,
  UNPAIRED_SURROGATE_REFUSED,
} from '../../server/src/plugins/input-guard';
import { MAX_PROBLEM_DETAIL } from '../../server/src/plugins/errors';
import { createProject } from './support/seed';
import { sha1 } from './support/push-client';
import {
  ADMIN_PASSWORD,
  createTestApp,
  problem,
  type TestApp,
  type TestClient,
} from './support/test-app';

let t: TestApp;
let admin: TestClient;
let anonymous: TestClient;

beforeAll(async () => {
  t = await createTestApp();
  admin = t.client();
  await admin.login('admin', ADMIN_PASSWORD);
  anonymous = t.client();
  await anonymous.init();
});
afterAll(async () => t.close());

/** A raw JSON text posted without signing in. */
function postRaw(url: string, text: string) {
  return anonymous.request('POST', url, {
    payload: text,
    headers: { 'content-type': 'application/json' },
  });
}

function expectShort400(response: { statusCode: number; body: string }, limit = 1000) {
  expect(response.statusCode, response.body.slice(0, 200)).toBe(400);
  expect(response.body.length).toBeLessThan(limit);
}

describe('JSON bodies', () => {
  it('refuses arrays and objects nested 5,000 deep with a short 400, signed out', async () => {
    for (const text of [
      '['.repeat(5000) + ']'.repeat(5000),
      '{"a":'.repeat(5000) + '1' + '}'.repeat(5000),
    ]) {
      const response = await postRaw('/app/auth/login', text);
      expectShort400(response);
      expect(problem(response).detail).toBe(TOO_DEEP);
    }
  });

  it(`accepts ${MAX_JSON_DEPTH} levels; brackets inside strings do not count`, async () => {
    const nested = `{"login": "x", "password": "y", "n": ${'['.repeat(MAX_JSON_DEPTH - 1)}${']'.repeat(MAX_JSON_DEPTH - 1)}}`;
    expect((await postRaw('/app/auth/login', nested)).statusCode).toBe(401);
    const quoted = JSON.stringify({ login: '['.repeat(10_000), password: '{\\"['.repeat(100) });
    expect((await postRaw('/app/auth/login', quoted)).statusCode).toBe(401);
  });

  it('never echoes a large body back (900 KB of the wrong type, of broken JSON)', async () => {
    const big = JSON.stringify(['x'.repeat(900_000)]);
    const wrongType = await postRaw('/app/auth/login', big);
    expectShort400(wrongType, 600);
    expect(problem(wrongType).detail).toMatch(/is not of type 'object'$/);
    const broken = await postRaw('/app/auth/login', `{"login": "${'y'.repeat(900_000)}`);
    expectShort400(broken, 600);
    expect(problem(broken).detail).toMatch(/^Failed to decode JSON object: /);
    const longString = await admin.request('PATCH', `/app/project/${randomUUID()}/access`, {
      json: { user_id: 'z'.repeat(900_000), role: 'reader' },
    });
    expectShort400(longString, 600);
  });

  it('keeps the detail of any problem within MAX_PROBLEM_DETAIL characters', async () => {
    const project = await createProject(t, { name: 'long-paths' });
    const response = await admin.post(`/v1/project/push/waymark/${project.name}`, {
      version: 'v0',
      changes: {
        added: [{ path: `${'p'.repeat(800_000)}.txt`, size: 1, checksum: sha1('x'), chunks: [] }],
        updated: [],
        removed: [],
      },
    });
    expect(response.statusCode).toBe(400);
    expect(String(problem(response).detail).length).toBeLessThanOrEqual(MAX_PROBLEM_DETAIL);
  });
});

describe('numbers out of range', () => {
  it('answers last_updated_in=1000000 on the project list with 400; 0 and 36500 work', async () => {
    const list = (days: string) =>
      admin.get(`/v1/project/paginated?page=1&per_page=10&last_updated_in=${days}`);
    for (const days of ['1000000', '1e30', '-1', '-1000000']) {
      expectShort400(await list(days));
    }
    expect(problem(await list('1000000')).detail).toBe(
      '1000000 is greater than the maximum of 36500',
    );
    for (const days of ['0', '36500']) expect((await list(days)).statusCode).toBe(200);
  });

  it('answers user_id of 2^31 or more (or below 1) in PATCH access with 400', async () => {
    const project = await createProject(t, { name: 'big-ids' });
    for (const userId of [2 ** 31, 2 ** 53, 1e300, 0, -1]) {
      const response = await admin.request('PATCH', `/app/project/${project.id}/access`, {
        json: { user_id: userId, role: 'reader' },
      });
      expectShort400(response);
    }
    const largest = await admin.request('PATCH', `/app/project/${project.id}/access`, {
      json: { user_id: 2 ** 31 - 1, role: 'reader' },
    });
    expect(largest.statusCode).toBe(404);
  });
});

describe('version numbers beyond the database range', () => {
  it('answers vN of 2^31 or more with a 4xx wherever a version is named', async () => {
    const project = await createProject(t, { name: 'big-versions' });
    const big = 'v99999999999999';
    for (const url of [
      `/v1/project/version/${project.id}/${big}`,
      `/v1/project/waymark/${project.name}?version=${big}`,
      `/v1/resource/changesets/waymark/${project.name}/${big}?path=a.gpkg`,
      `/v2/projects/${project.id}?files_at_version=${big}`,
      `/v1/project/download/waymark/${project.name}?version=${big}`,
      `/v1/project/raw/waymark/${project.name}?file=a.txt&version=${big}`,
    ]) {
      const response = await admin.get(url);
      expect(response.statusCode, url).toBeLessThan(500);
      expect(response.body.length, url).toBeLessThan(1000);
    }
  });
});

describe('file paths', () => {
  const BAD = [
    'a\ud800.txt',
    'b\udc00.txt',
    'dir\udbff/c.txt',
    'invoice\u202efdp.exe.txt',
    'report\u202egpj.qgz',
    'x\u200e.txt',
    'x\u200f.txt',
    'x\u061c.txt',
    'x\u202a.txt',
    'x\u2066y.txt',
    'x\u2069.txt',
  ];

  it('refuses unpaired surrogates and bidi controls; keeps paired ones (emoji)', () => {
    for (const path of BAD) expect(projectPathError(path), path).not.toBeNull();
    expect(projectPathError('photo-\ud83d\udcf7.jpg')).toBeNull();
    expect(projectPathError('تقرير.txt')).toBeNull();
  });

  it('answers them on v1 push start with the reference text', async () => {
    const project = await createProject(t, { name: 'paths-v1' });
    for (const path of BAD) {
      const response = await admin.post(`/v1/project/push/waymark/${project.name}`, {
        version: 'v0',
        changes: {
          added: [{ path, size: 1, checksum: sha1('x'), chunks: [randomUUID()] }],
          updated: [],
          removed: [],
        },
      });
      expectShort400(response);
      expect(problem(response).detail).toBe(
        `Unsupported file name detected: '${path}'. Please remove the invalid characters.`,
      );
    }
  });

  it('answers them on v2 push with the reference dialect (422 UploadError)', async () => {
    const project = await createProject(t, { name: 'paths-v2' });
    for (const path of BAD) {
      const response = await admin.post(`/v2/projects/${project.id}/versions`, {
        version: 'v0',
        changes: {
          added: [{ path, size: 1, checksum: sha1('x'), chunks: [randomUUID()] }],
          updated: [],
          removed: [],
        },
      });
      expect(response.statusCode).toBe(422);
      expect(response.json()).toMatchObject({
        code: 'UploadError',
        detail: `Unsupported file name detected: '${path}'. Please remove the invalid characters. (UploadError)`,
      });
    }
  });

  it('answers an unpaired surrogate that reaches a JSON column with 400, not 500', async () => {
    const project = await createProject(t, { name: 'paths-mtime' });
    const response = await admin.post(`/v1/project/push/waymark/${project.name}`, {
      version: 'v0',
      changes: {
        added: [
          { path: 'ok.txt', size: 1, checksum: sha1('x'), chunks: [randomUUID()], mtime: '\ud800' },
        ],
        updated: [],
        removed: [],
      },
    });
    expectShort400(response);
    expect(problem(response).detail).toBe(UNPAIRED_SURROGATE_REFUSED);
  });
});

describe('unpaired surrogates in body texts', () => {
  it('refuses them instead of storing U+FFFD; paired ones (emoji) are kept', async () => {
    const profile = (json: unknown) => admin.post('/app/auth/user/profile', json);
    for (const json of [
      { email: 'admin@example.com', first_name: 'An\ud800na' },
      { email: 'admin@example.com', last_name: '\udfff' },
      { email: 'admin@example.com', ['x\ud800']: 'key' },
    ]) {
      const response = await profile(json);
      expectShort400(response);
      expect(problem(response).detail).toBe(UNPAIRED_SURROGATE_REFUSED);
    }
    expect(
      (await profile({ email: 'admin@example.com', first_name: 'Anna \ud83d\uddfa' })).statusCode,
    ).toBe(200);
    expect((await admin.get('/v1/user/profile')).json().first_name).toBe('Anna \ud83d\uddfa');
  });
});

describe('types in bodies', () => {
  it('refuses {"name": 123} on rename instead of renaming the project to "123"', async () => {
    const project = await createProject(t, { name: 'typed' });
    const response = await admin.request('PATCH', `/v2/projects/${project.id}`, {
      json: { name: 123 },
    });
    expectShort400(response);
    expect(problem(response).detail).toBe("123 is not of type 'string' - 'name'");
    const detail = await admin.get(`/v1/project/by_uuid/${project.id}`);
    expect(detail.json().name).toBe('typed');
  });

  it('refuses strings for numbers and booleans in bodies', async () => {
    const project = await createProject(t, { name: 'typed-2' });
    const asString = await admin.request('PATCH', `/app/project/${project.id}/access`, {
      json: { user_id: '1', role: 'reader' },
    });
    expect(problem(asString).detail).toBe("'1' is not of type 'integer' - 'user_id'");
    const publicText = await admin.request('PATCH', `/app/project/${project.id}/access`, {
      json: { public: 'true' },
    });
    expect(problem(publicText).detail).toBe("'true' is not of type 'boolean' - 'public'");
  });

  it('still coerces query strings and path parameters (text on the wire)', async () => {
    const list = await admin.get(
      '/v1/project/paginated?page=1&per_page=5&public=False&descending=true',
    );
    expect(list.statusCode).toBe(200);
    expect(list.json()).toHaveProperty('count');
    expect((await admin.get('/v1/project/paginated?page=x&per_page=5')).statusCode).toBe(400);
  });
});
