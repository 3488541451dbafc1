/**
 * Crash recovery without a timeout (issue 17): an upload left 'finishing' (v1) or
 * 'committing' (v2) by a process that died is resolved at the next request for it: the
 * retried finish makes the version, the next push takes the lock. (faults-kill.test.ts does
 * the same with a real process killed by SIGKILL.)
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { uploads } from '../../server/src/db/schema';
import { LEASE_MS } from '../../server/src/services/push';
import { plan, sendChunk, startPush } from './support/push-client';
import { PythonClient } from './support/python-client';
import { ADMIN_PASSWORD, createTestApp, type TestApp, type TestClient } from './support/test-app';

let t: TestApp;
let admin: TestClient;
let python: PythonClient;
let count = 0;

beforeAll(async () => {
  t = await createTestApp();
  admin = t.client();
  await admin.login('admin', ADMIN_PASSWORD);
  python = new PythonClient(t.app);
  await python.login('admin', ADMIN_PASSWORD);
});

afterAll(async () => {
  await t.close();
});

async function newProject() {
  const name = `crashed-${++count}`;
  expect((await admin.post('/v1/project/waymark', { name })).statusCode).toBe(200);
  const info = await admin.get(`/v1/project/waymark/${name}`);
  return { path: `waymark/${name}`, id: info.json().id as string };
}

/** Marks the upload as a dead process leaves it: `status`, last pinged before the lease. */
async function leftBy(transaction: string, status: 'finishing' | 'committing') {
  const lastPingAt = new Date(t.clock.now().getTime() - LEASE_MS - 1000);
  await t.database.db
    .update(uploads)
    .set({ status, lastPingAt })
    .where(eq(uploads.id, transaction));
}

describe('an upload left by a dead process', () => {
  it('v1 finishing: the retried finish makes the version at once', async () => {
    const project = await newProject();
    const files = plan({ 'a.txt': 'alpha' });
    const start = await startPush(admin, project.path, 'v0', { added: files.list });
    const { transaction } = start.json() as { transaction: string };
    for (const [id, bytes] of files.chunks) {
      expect((await sendChunk(admin, transaction, id, bytes)).statusCode).toBe(200);
    }
    await leftBy(transaction, 'finishing');
    // Chunks are taken again too (the finish is not running).
    const [id, bytes] = files.chunks[0]!;
    expect((await sendChunk(admin, transaction, id, bytes)).statusCode).toBe(200);
    await leftBy(transaction, 'finishing');
    const retry = await admin.post(`/v1/project/push/finish/${transaction}`);
    expect(retry.statusCode, retry.body).toBe(200);
    expect(retry.json().version).toBe('v1');
  });

  it('v2 committing: the next push takes the lock at once', async () => {
    const project = await newProject();
    const first = await python.pushV2(project.id, 'v0', { added: { 'a.txt': Buffer.from('a') } });
    expect(first.statusCode, first.body).toBe(201);
    // A v2 call died mid-way: its row holds the lock as 'committing'.
    const held = await startPush(admin, project.path, 'v1', {
      added: plan({ 'b.txt': 'b' }).list,
    });
    const { transaction } = held.json() as { transaction: string };
    await leftBy(transaction, 'committing');
    const next = await python.pushV2(project.id, 'v1', { added: { 'c.txt': Buffer.from('c') } });
    expect(next.statusCode, next.body).toBe(201);
    expect(next.json().version).toBe('v2');
  });

  it('an open v1 upload still holds the lock (its client may come back)', async () => {
    const project = await newProject();
    const held = await startPush(admin, project.path, 'v0', { added: plan({ 'b.txt': 'b' }).list });
    expect(held.statusCode).toBe(200);
    const response = await admin.post(`/v1/project/push/${project.path}`, {
      version: 'v0',
      changes: { added: plan({ 'c.txt': 'c' }).list, updated: [], removed: [] },
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().detail).toBe('Another process is running. Please try later.');
  });
});
