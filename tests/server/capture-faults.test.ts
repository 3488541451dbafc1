/**
 * Edit batches under faults (issue 34), with the push core's guarantees: a batch that fails
 * before its version changes nothing and leaves no scratch files, and its retry (same
 * Mm-push-id) makes exactly one version; an upload running holds batches off (409); an
 * upload left 'committing' by a dead process does not (the lease says it is dead); a push
 * that lands while a batch is worked out makes the batch rebase onto it, not fail.
 */
import { randomUUID } from 'node:crypto';
import { readdir, writeFile } from 'node:fs/promises';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { uploads, workspaces, type Project } from '../../server/src/db/schema';
import type { EditBatch, EditResult } from '../../server/src/schemas/edits';
import { LEASE_MS } from '../../server/src/services/push';
import { scratchDir } from '../../server/src/services/capture/scratch';
import {
  editGeoPackage,
  geopackageFromFeatures,
  pointFeatures,
  scratch,
  tableRows,
  type Scratch,
} from './support/geopackage';
import { plan, startPush } from './support/push-client';
import { commit, createProject, filesAtVersion } from './support/seed';
import { ADMIN_PASSWORD, createTestApp, type TestApp, type TestClient } from './support/test-app';

let t: TestApp;
let s: Scratch;
let admin: TestClient;
let trees: Buffer;
let count = 0;

const batch = (base: string, name: string): EditBatch => ({
  base_version: base,
  changes: [{ file: 'trees.gpkg', layer: 'trees', op: 'update', fid: 1, values: { name } }],
});

const send = (p: Project, body: EditBatch, pushId = randomUUID()) =>
  admin.post(`/v2/projects/${p.id}/edits`, body, { headers: { 'mm-push-id': pushId } });

async function newProject(): Promise<Project> {
  const p = await createProject(t, { name: `faults-${++count}` });
  await commit(t, p.id, { added: { 'trees.gpkg': trees } });
  return p;
}

const versionOf = async (p: Project) =>
  ((await admin.get(`/v2/projects/${p.id}`)).json() as { version: string }).version;

beforeAll(async () => {
  t = await createTestApp();
  s = await scratch();
  admin = t.client();
  await admin.login('admin', ADMIN_PASSWORD);
  trees = await geopackageFromFeatures(s, 'trees', 'trees', pointFeatures(5), 'POINT');
});

afterAll(async () => {
  await s?.cleanup();
  await t?.close();
});

describe('edit batches under faults', () => {
  it('a batch failing before its version changes nothing; its retry makes one version', async () => {
    const p = await newProject();
    const store = t.app.ctx.blobStore;
    // The batch's diff is the first blob it stores (the version is stored as that diff).
    const put = store.put.bind(store);
    let failures = 1;
    store.put = async (...args) => {
      if (failures-- > 0) throw new Error('disk gone');
      return put(...args);
    };
    try {
      const pushId = randomUUID();
      const failed = await send(p, batch('v1', 'renamed'), pushId);
      expect(failed.statusCode).toBe(500);
      expect(await versionOf(p)).toBe('v1');
      // The failed batch's working files are gone.
      expect(await readdir(await scratchDir(t.app.ctx))).toEqual([]);
      const retry = await send(p, batch('v1', 'renamed'), pushId);
      expect(retry.statusCode, retry.body).toBe(201);
      expect((retry.json() as EditResult).version).toBe('v2');
      const again = await send(p, batch('v1', 'renamed'), pushId);
      expect(again.json()).toEqual(retry.json());
      expect(await versionOf(p)).toBe('v2');
    } finally {
      store.put = put;
    }
  });

  it('an upload running holds a batch off with 409, and nothing is made', async () => {
    const p = await newProject();
    const held = await startPush(admin, `${t.config.globalWorkspace}/${p.name}`, 'v1', {
      added: plan({ 'b.txt': 'b' }).list,
    });
    expect(held.statusCode, held.body).toBe(200);
    const response = await send(p, batch('v1', 'blocked'));
    expect(response.statusCode).toBe(409);
    expect(response.json()).toMatchObject({ code: 'AnotherUploadRunning' });
    expect(await versionOf(p)).toBe('v1');
  });

  it('an upload left committing by a dead process does not hold a batch off', async () => {
    const p = await newProject();
    const held = await startPush(admin, `${t.config.globalWorkspace}/${p.name}`, 'v1', {
      added: plan({ 'b.txt': 'b' }).list,
    });
    const { transaction } = held.json() as { transaction: string };
    await t.database.db
      .update(uploads)
      .set({
        status: 'committing',
        lastPingAt: new Date(t.clock.now().getTime() - LEASE_MS - 1000),
      })
      .where(eq(uploads.id, transaction));
    const response = await send(p, batch('v1', 'after the crash'));
    expect(response.statusCode, response.body).toBe(201);
    expect((response.json() as EditResult).version).toBe('v2');
  });

  it('a push landing while the batch is worked out: the batch is rebased onto it', async () => {
    const p = await newProject();
    const store = t.app.ctx.blobStore;
    const put = store.put.bind(store);
    let pushed = false;
    store.put = async (...args) => {
      if (!pushed) {
        pushed = true;
        // Another client's version lands between the batch's reading and its commit.
        await commit(t, p.id, {
          updated: {
            'trees.gpkg': await editGeoPackage(
              s,
              trees,
              'UPDATE trees SET height = 99 WHERE fid = 1',
            ),
          },
        });
      }
      return put(...args);
    };
    try {
      const response = await send(p, batch('v1', 'ours'));
      expect(response.statusCode, response.body).toBe(201);
      expect(response.json()).toMatchObject({ version: 'v3', rebased_onto: 'v2' });
    } finally {
      store.put = put;
    }
    const file = s.file(`${randomUUID()}.gpkg`);
    await writeFile(file, (await filesAtVersion(t, p.id, 3)).get('trees.gpkg')!);
    const row = tableRows(file, 'trees').find((r) => r[0] === 1)!;
    expect(row.slice(2)).toEqual(['ours', 99]);
  });

  it('refuses a batch past the storage allowance, as a push', async () => {
    const p = await newProject();
    const db = t.database.db;
    const [workspace] = await db
      .select()
      .from(workspaces)
      .where(eq(workspaces.id, t.setup.workspaceId));
    await db.update(workspaces).set({ storage: 1 }).where(eq(workspaces.id, t.setup.workspaceId));
    try {
      const response = await send(p, {
        base_version: 'v1',
        changes: Array.from({ length: 50 }, (_, i) => ({
          file: 'trees.gpkg',
          layer: 'trees',
          op: 'insert' as const,
          fid: -(i + 1),
          values: { name: `tree ${'x'.repeat(200)} ${i}` },
          geometry: { type: 'Point', coordinates: [i / 10, 1] },
        })),
      });
      expect(response.statusCode).toBe(422);
      expect(response.json()).toMatchObject({ code: 'StorageLimitHit' });
      expect(await versionOf(p)).toBe('v1');
    } finally {
      await db
        .update(workspaces)
        .set({ storage: workspace!.storage })
        .where(eq(workspaces.id, t.setup.workspaceId));
    }
  });
});
