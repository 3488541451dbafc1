/**
 * The storage allowance cannot be talked around (issue 17): the allowance counts the bytes the
 * server keeps stored, every version (issue 30, services/file-store/README.md), so a removal
 * frees nothing, whatever size a client claims for it. Workspace `tiny` allows 1,000,000
 * bytes; project `tiny/q` holds keep.txt (10 B); a 5 MiB addition is refused on v1 and v2,
 * with or without a lying `removed` entry, and the workspace's usage never passes its
 * allowance.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { workspaceDiskUsage } from '../../server/src/db/queries/projects';
import { workspaces } from '../../server/src/db/schema';
import { changesPayload, PythonClient, sha1 } from './support/python-client';
import { commit, createProject } from './support/seed';
import { ADMIN_PASSWORD, createTestApp, type TestApp } from './support/test-app';

const ALLOWANCE = 1_000_000;
const KEEP = Buffer.from('0123456789');
const BIG = randomBytes(5 * 1024 * 1024);
/** keep.txt, with the size a hostile client claims for it. */
const LYING_REMOVAL = { 'keep.txt': { checksum: sha1(KEEP), size: 1_000_000_000_000_000 } };
const HONEST_REMOVAL = { 'keep.txt': { checksum: sha1(KEEP), size: KEEP.length } };

let t: TestApp;
let client: PythonClient;
let workspaceId: number;
let project: { id: string; path: string };

beforeAll(async () => {
  t = await createTestApp();
  client = new PythonClient(t.app);
  await client.login('admin', ADMIN_PASSWORD);
  const [tiny] = await t.database.db
    .insert(workspaces)
    .values({ name: 'tiny', storage: ALLOWANCE })
    .returning();
  workspaceId = tiny!.id;
  const q = await createProject(t, { workspaceId, name: 'q' });
  await commit(t, q.id, { added: { 'keep.txt': KEEP } });
  project = { id: q.id, path: 'tiny/q' };
});

afterAll(async () => {
  await t.close();
});

const usage = () => workspaceDiskUsage(t.database.db, workspaceId);

function expectStorageLimitHit(response: { statusCode: number; body: string }) {
  expect(response.statusCode, response.body).toBe(422);
  expect(JSON.parse(response.body)).toMatchObject({
    code: 'StorageLimitHit',
    storage_limit: ALLOWANCE,
  });
}

describe('storage allowance', () => {
  it('starts at keep.txt alone', async () => {
    expect(await usage()).toBe(KEEP.length);
  });

  for (const [name, removed] of [
    ['no removal', {}],
    ['an honest removal', HONEST_REMOVAL],
    ['a removal claiming a huge size', LYING_REMOVAL],
  ] as const) {
    it(`refuses a 5 MiB v1 push with ${name}`, async () => {
      const { payload } = changesPayload({ added: { 'big.bin': BIG }, removed });
      const start = await client.post(`/v1/project/push/${project.path}`, {
        version: 'v1',
        changes: payload,
      });
      expectStorageLimitHit(start);
      expect(await usage()).toBeLessThanOrEqual(ALLOWANCE);
    });

    it(`refuses a 5 MiB v2 push with ${name} (check_only and the version)`, async () => {
      const { payload } = changesPayload({ added: { 'big.bin': BIG }, removed });
      const check = await client.post(`/v2/projects/${project.id}/versions`, {
        version: 'v1',
        changes: payload,
        check_only: true,
      });
      expectStorageLimitHit(check);
      // A client that skips check_only: its chunks are taken, the version is not.
      const chunk = await client.postBytes(`/v2/projects/${project.id}/chunks`, BIG);
      expect(chunk.statusCode, chunk.body).toBe(200);
      payload.added[0]!.chunks = [chunk.json().id];
      const version = await client.post(`/v2/projects/${project.id}/versions`, {
        version: 'v1',
        changes: payload,
      });
      expectStorageLimitHit(version);
      expect(await usage()).toBeLessThanOrEqual(ALLOWANCE);
    });
  }

  it('still takes pushes that fit, and a removal while over the allowance', async () => {
    const small = await client.pushV2(project.id, 'v1', {
      added: { 'small.txt': Buffer.from('fits') },
      removed: LYING_REMOVAL,
    });
    expect(small.statusCode, small.body).toBe(201);
    // keep.txt's version stays stored (it can be restored): 10 + 4 bytes.
    expect(await usage()).toBe(KEEP.length + 4);
    // Over the allowance (the allowance was lowered): a removal, which stores nothing, is taken.
    await t.database.db
      .update(workspaces)
      .set({ storage: 1 })
      .where(eq(workspaces.id, workspaceId));
    try {
      const info = await client.pushV1(project.path, 'v2', {
        removed: { 'small.txt': { checksum: sha1(Buffer.from('fits')), size: 4 } },
      });
      expect(info.version).toBe('v3');
    } finally {
      await t.database.db
        .update(workspaces)
        .set({ storage: ALLOWANCE })
        .where(eq(workspaces.id, workspaceId));
    }
  });
});
