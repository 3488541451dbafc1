/**
 * Pushes of many files (issue 17): the push-start and v2-versions routes take bodies up to
 * PUSH_BODY_LIMIT (32 MiB), every other JSON route keeps 1 MiB. A 20,000-file first push,
 * entries shaped as the desktop client sends them (about 204 bytes each), is accepted.
 */
import { createHash, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PUSH_BODY_LIMIT } from '../../server/src/schemas/push';
import { ADMIN_PASSWORD, createTestApp, type TestApp, type TestClient } from './support/test-app';

const FILES = 20_000;
let t: TestApp;
let admin: TestClient;

beforeAll(async () => {
  t = await createTestApp();
  admin = t.client();
  await admin.login('admin', ADMIN_PASSWORD);
});

afterAll(async () => {
  await t.close();
});

/** An entry as the desktop client lists it: path, checksum, size, mtime, chunk uuids. */
function entry(index: number) {
  const path = `survey/area-${Math.floor(index / 500)}/photo-${String(index).padStart(6, '0')}.jpg`;
  return {
    path,
    checksum: createHash('sha1').update(path).digest('hex'),
    size: 1000 + index,
    mtime: '2026-11-24T10:00:00.000000+00:00',
    chunks: [randomUUID()],
  };
}

describe('large pushes', () => {
  it('accepts a 20,000-file push start, and another route still refuses more than 1 MiB', async () => {
    const created = await admin.post('/v1/project/waymark', { name: 'many-files' });
    expect(created.statusCode, created.body).toBe(200);
    const added = Array.from({ length: FILES }, (_, i) => entry(i));
    const body = JSON.stringify({ version: 'v0', changes: { added, updated: [], removed: [] } });
    expect(body.length / FILES).toBeGreaterThan(180);
    expect(body.length).toBeGreaterThan(1024 * 1024);
    expect(body.length).toBeLessThan(PUSH_BODY_LIMIT);
    const start = await admin.request('POST', '/v1/project/push/waymark/many-files', {
      payload: body,
      headers: { 'content-type': 'application/json' },
    });
    expect(start.statusCode, start.body.slice(0, 300)).toBe(200);
    const { transaction } = start.json() as { transaction: string };
    const status = await admin.get(`/v1/project/push/${transaction}`);
    expect(status.json().files).toHaveLength(FILES);

    // The same bytes to a route with the default limit.
    const other = await admin.request('POST', '/v1/project/waymark', {
      payload: body,
      headers: { 'content-type': 'application/json' },
    });
    expect(other.statusCode).toBe(413);
  });
});
