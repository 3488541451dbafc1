/**
 * Restoring a version and a file (issue 20, schemas/restore.ts): a new version through the
 * push core whose files equal the restored version's byte for byte, no version changed;
 * GeoPackages as diffs a desktop client pulls and applies; the version's origin in its
 * detail; Mm-push-id; the push lock, the administrator's lock, the allowance; 4xx answers.
 */
import { copyFile, writeFile } from 'node:fs/promises';
import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findCurrentFile, findFileAtVersion } from '../../server/src/db/queries/files';
import { upsertProjectMembers } from '../../server/src/db/queries/projects';
import { projects, users, workspaces, type Project, type User } from '../../server/src/db/schema';
import { applyChangeset } from '../../server/src/geodiff/apply';
import { readChangeset } from '../../server/src/geodiff/format';
import { changesetWorkIdle } from '../../server/src/services/changesets';
import { projectFor } from '../../server/src/services/permissions';
import { SERVER_PUSH_ATTEMPTS, ServerPushMoved } from '../../server/src/services/push';
import { fileUpdate, versionFromChanges } from '../../server/src/services/time-travel/file-changes';
import { alreadyEqual } from '../../server/src/services/time-travel/restore';
import {
  editGeoPackage,
  geopackageFromFeatures,
  pointFeatures,
  scratch,
  tableRows,
  type Scratch,
} from './support/geopackage';
import { PythonClient, sha1 } from './support/python-client';
import { commit, createProject, filesAtVersion, signedInUser } from './support/seed';
import {
  ADMIN_PASSWORD,
  createTestApp,
  problem,
  type TestApp,
  type TestClient,
} from './support/test-app';

const GPKG = 'data/trees.gpkg';
let t: TestApp;
let s: Scratch;
let admin: TestClient;
let reader: TestClient;
let desktop: PythonClient;
let readerId: number;
let adminUser: User;
const META = { ip: null, userAgent: 'test', deviceId: null };
/** The GeoPackage at v1, v2, v3. */
const gpkg: Buffer[] = [];
let n = 0;

async function fileOf(bytes: Uint8Array): Promise<string> {
  const file = s.file(`f${++n}.gpkg`);
  await writeFile(file, bytes);
  return file;
}

const ns = () => t.config.globalWorkspace;
const restoreUrl = (p: Project) => `/app/project/restore/${ns()}/${p.name}`;
const restoreFileUrl = (p: Project) => `/app/project/restore-file/${ns()}/${p.name}`;

/** A project with three versions: v1 (a, b, trees), v2 (a changed, c added, trees edited), v3 (b removed, trees edited). */
async function threeVersions(name: string): Promise<Project> {
  const project = await createProject(t, { name });
  await commit(t, project.id, {
    added: { 'a.txt': 'a one', 'docs/b.txt': 'b one', [GPKG]: gpkg[0]! },
  });
  await commit(t, project.id, {
    updated: { 'a.txt': 'a two', [GPKG]: gpkg[1]! },
    added: { 'c.txt': 'c two' },
  });
  await commit(t, project.id, { updated: { [GPKG]: gpkg[2]! }, removed: ['docs/b.txt'] });
  return project;
}

beforeAll(async () => {
  t = await createTestApp();
  s = await scratch();
  admin = t.client();
  await admin.login('admin', ADMIN_PASSWORD);
  const { user, client } = await signedInUser(t, 'reader');
  reader = client;
  desktop = new PythonClient(t.app);
  await desktop.login('admin', ADMIN_PASSWORD);
  readerId = user.id;
  [adminUser] = (await t.database.db.select().from(users).where(eq(users.username, 'admin'))) as [
    User,
  ];

  gpkg.push(await geopackageFromFeatures(s, 'v1', 'trees', pointFeatures(20)));
  gpkg.push(
    await editGeoPackage(
      s,
      gpkg[0]!,
      `UPDATE trees SET name = 'renamed' WHERE fid = 1;
       INSERT INTO trees (fid, geom, name, height) SELECT 100, geom, 'new', 1 FROM trees WHERE fid = 2;
       DELETE FROM trees WHERE fid = 3;`,
    ),
  );
  gpkg.push(
    await editGeoPackage(
      s,
      gpkg[1]!,
      `UPDATE trees SET name = 'again', height = 2 WHERE fid = 1; DELETE FROM trees WHERE fid = 4;`,
    ),
  );
});

afterAll(async () => {
  await s?.cleanup();
  await t?.close();
});

describe('POST /app/project/restore/{namespace}/{name}', () => {
  it('restoring v1 of a three-version project makes v4 with v1 bytes; v2 and v3 stay', async () => {
    const project = await threeVersions('restore-all');
    const before = [await filesAtVersion(t, project.id, 2), await filesAtVersion(t, project.id, 3)];
    const response = await admin.post(restoreUrl(project), { version: 'v1' });
    expect(response.statusCode, response.body).toBe(201);
    expect(response.json()).toEqual({
      version: 'v4',
      origin: { action: 'restore_version', version: 'v1', path: null, original: null },
      changes: { added: 1, updated: 2, removed: 1 },
    });
    expect(await filesAtVersion(t, project.id, 4)).toEqual(await filesAtVersion(t, project.id, 1));
    expect(await filesAtVersion(t, project.id, 2)).toEqual(before[0]);
    expect(await filesAtVersion(t, project.id, 3)).toEqual(before[1]);

    const detail = await admin.get(`/v1/project/version/${ns()}/${project.name}/v4`);
    expect(detail.statusCode).toBe(200);
    const body = detail.json();
    expect(body.origin).toEqual({
      action: 'restore_version',
      version: 'v1',
      path: null,
      original: null,
    });
    expect(body.author).toBe('admin');
    // The GeoPackage went as a diff; the other files whole; c.txt removed, docs/b.txt back.
    expect(body.changes.updated.map((f: { path: string }) => f.path).sort()).toEqual([
      'a.txt',
      GPKG,
    ]);
    expect(body.changes.updated.find((f: { path: string }) => f.path === GPKG).diff).toBeDefined();
    expect(body.changes.added.map((f: { path: string }) => f.path)).toEqual(['docs/b.txt']);
    expect(body.changes.removed.map((f: { path: string }) => f.path)).toEqual(['c.txt']);
    const list = await admin.get(
      `/v1/project/versions/paginated/${ns()}/${project.name}?page=1&per_page=10`,
    );
    const versions = list.json().versions as { name: string; origin?: unknown }[];
    expect(versions.find((v) => v.name === 'v4')!.origin).toMatchObject({ version: 'v1' });
    expect(versions.find((v) => v.name === 'v3')!.origin).toBeUndefined();

    // The row-level changeset of v4 shows the reverse edits (read from the diff).
    await changesetWorkIdle(t.app.ctx);
    const changes = await admin.get(
      `/v1/resource/changesets/${ns()}/${project.name}/v4?path=${encodeURIComponent(GPKG)}`,
    );
    expect(changes.statusCode, changes.body).toBe(200);
    const entries = changes.json() as {
      type: string;
      changes: { name: string; old?: unknown; new?: unknown }[];
    }[];
    const kinds = entries.map((e) => e.type).sort();
    // v1 → v3 was: fid 1 updated, fid 100 inserted, fids 3 and 4 deleted; the reverse:
    expect(kinds).toEqual(['delete', 'insert', 'insert', 'update']);
    const update = entries.find((e) => e.type === 'update')!;
    expect(update.changes.find((c) => c.name === 'name')).toMatchObject({
      old: 'again',
      new: 'tree 1',
    });
  });

  it('a desktop client pulling the restore version gets a diff and ends with the restored rows', async () => {
    const project = await threeVersions('restore-pull');
    expect((await admin.post(restoreUrl(project), { version: 'v1' })).statusCode).toBe(201);
    // The client holds v3; it pulls v4 (v2 pull: the delta, then the diffs it lists).
    const delta = await desktop.get(`/v2/projects/${project.id}/delta?since=v3`);
    expect(delta.statusCode, delta.body).toBe(200);
    const items = delta.json().items as { path: string; change: string; diffs: { id: string }[] }[];
    const item = items.find((i) => i.path === GPKG)!;
    expect(item.change).toBe('update_diff');
    expect(item.diffs).toHaveLength(1);
    const working = s.file('restore-pull.gpkg');
    await copyFile(await fileOf(gpkg[2]!), working);
    const diff = await desktop.get(
      `/v2/projects/${project.id}/raw/diff?file=${encodeURIComponent(item.diffs[0]!.id)}`,
    );
    expect(diff.statusCode).toBe(200);
    applyChangeset(working, readChangeset(diff.rawPayload));
    expect(tableRows(working, 'trees')).toEqual(tableRows(await fileOf(gpkg[0]!), 'trees'));
    // v1 pull reads the same from the project's history: v4 has a diff.
    const info = await desktop.get(`/v1/project/${ns()}/${project.name}?since=v3`);
    expect(info.statusCode).toBe(200);
    const file = (
      info.json().files as {
        path: string;
        checksum: string;
        history: Record<string, { diff?: unknown }>;
      }[]
    ).find((f) => f.path === GPKG)!;
    expect(file.checksum).toBe(sha1(gpkg[0]!));
    expect(file.history.v4?.diff).toBeDefined();
  });

  it('answers a retry with the same Mm-push-id with the first version', async () => {
    const project = await threeVersions('restore-retry');
    const id = randomUUID();
    const first = await admin.post(
      restoreUrl(project),
      { version: 'v2' },
      { headers: { 'mm-push-id': id } },
    );
    const again = await admin.post(
      restoreUrl(project),
      { version: 'v2' },
      { headers: { 'mm-push-id': id } },
    );
    expect(first.statusCode).toBe(201);
    expect(again.statusCode).toBe(201);
    expect(again.json()).toEqual(first.json());
    const [row] = await t.database.db.select().from(projects).where(eq(projects.id, project.id));
    expect(row!.latestVersion).toBe(4);
  });

  it('refuses bad versions, an equal project, readers, locks, a running push and the allowance', async () => {
    const project = await threeVersions('restore-refusals');
    const bad = await admin.post(restoreUrl(project), { version: 'one' });
    expect(bad.statusCode).toBe(400);
    const missing = await admin.post(restoreUrl(project), { version: 'v9' });
    expect(missing.statusCode).toBe(404);
    const same = await admin.post(restoreUrl(project), { version: 'v3' });
    expect(same.statusCode).toBe(400);
    expect(problem(same).detail).toBe(alreadyEqual(3));

    await upsertProjectMembers(t.database.db, project.id, [{ userId: readerId, role: 'reader' }]);
    expect((await reader.post(restoreUrl(project), { version: 'v1' })).statusCode).toBe(403);

    await t.database.db
      .update(projects)
      .set({ lockedUntil: new Date(t.clock.ms + 60_000) })
      .where(eq(projects.id, project.id));
    expect((await admin.post(restoreUrl(project), { version: 'v1' })).statusCode).toBe(423);
    await t.database.db
      .update(projects)
      .set({ lockedUntil: null })
      .where(eq(projects.id, project.id));

    // A desktop push holds the project's push lock: 409 until it ends.
    const start = await desktop.post(`/v1/project/push/${ns()}/${project.name}`, {
      version: 'v3',
      changes: {
        added: [
          { path: 'new.txt', size: 3, checksum: sha1(Buffer.from('new')), chunks: [randomUUID()] },
        ],
        updated: [],
        removed: [],
      },
    });
    expect(start.statusCode, start.body).toBe(200);
    const busy = await admin.post(restoreUrl(project), { version: 'v1' });
    expect(busy.statusCode).toBe(409);
    await desktop.post(`/v1/project/push/cancel/${start.json().transaction}`);

    const [ws] = await t.database.db
      .select()
      .from(workspaces)
      .where(eq(workspaces.id, t.setup.workspaceId));
    await t.database.db.update(workspaces).set({ storage: 1 }).where(eq(workspaces.id, ws!.id));
    try {
      // docs/b.txt is not in v3: restoring it grows the project past the allowance.
      const full = await admin.post(restoreFileUrl(project), { version: 'v1', path: 'docs/b.txt' });
      expect(full.statusCode).toBe(422);
    } finally {
      await t.database.db
        .update(workspaces)
        .set({ storage: ws!.storage })
        .where(eq(workspaces.id, ws!.id));
    }
    const [row] = await t.database.db.select().from(projects).where(eq(projects.id, project.id));
    expect(row!.latestVersion).toBe(3);
  });
});

describe('concurrent pushes', () => {
  it('two restores at once: each makes its version or is told another push runs', async () => {
    const project = await threeVersions('restore-race');
    const answers = await Promise.all([
      admin.post(restoreUrl(project), { version: 'v1' }),
      admin.post(restoreUrl(project), { version: 'v2' }),
    ]);
    const made = answers.filter((a) => a.statusCode === 201);
    expect(made.length).toBeGreaterThanOrEqual(1);
    for (const answer of answers) expect([201, 409]).toContain(answer.statusCode);
    const [row] = await t.database.db.select().from(projects).where(eq(projects.id, project.id));
    expect(row!.latestVersion).toBe(3 + made.length);
    // The last version made holds exactly the files of the version it restored.
    const last = made.map((a) => a.json()).find((b) => b.version === `v${row!.latestVersion}`)!;
    const restored = Number(last.origin.version.slice(1));
    expect(await filesAtVersion(t, project.id, row!.latestVersion)).toEqual(
      await filesAtVersion(t, project.id, restored),
    );
  });

  it('works the changes out again when another version lands before its commit', async () => {
    const project = await threeVersions('restore-moved');
    const access = await projectFor(t.app.ctx, adminUser, { id: project.id }, 'upload');
    let plans = 0;
    const origin = {
      action: 'restore_file',
      version: 'v1',
      path: 'a.txt',
      original: null,
    } as const;
    const made = await versionFromChanges(
      t.app.ctx,
      access,
      adminUser,
      META,
      origin,
      async (now) => {
        plans++;
        // The first time, another push makes v4 meanwhile.
        if (plans === 1) await commit(t, project.id, { added: { 'other.txt': 'x' } });
        const current = await findCurrentFile(t.database.db, now.project.id, 'a.txt');
        const target = await findFileAtVersion(t.database.db, now.project.id, 'a.txt', 1);
        return {
          added: [],
          updated: [await fileUpdate(t.app.ctx, current!, target!)],
          removed: [],
        };
      },
    );
    expect(plans).toBe(2);
    expect(made.version).toBe('v5');
    const files = await filesAtVersion(t, project.id, 5);
    expect(files.get('a.txt')!.toString()).toBe('a one');
    expect(files.get('other.txt')!.toString()).toBe('x');
  });

  it('deletes the diffs it made for attempts that could not become a version', async () => {
    const project = await threeVersions('restore-gives-up');
    // A content no other test restores from, so no other version holds the same diff.
    const unique = await editGeoPackage(
      s,
      gpkg[2]!,
      `UPDATE trees SET name = 'mine' WHERE fid = 5;`,
    );
    await commit(t, project.id, { updated: { [GPKG]: unique } });
    const access = await projectFor(t.app.ctx, adminUser, { id: project.id }, 'upload');
    const origin = { action: 'restore_file', version: 'v1', path: GPKG, original: null } as const;
    const diffKeys: string[] = [];
    let plans = 0;
    const attempt = versionFromChanges(t.app.ctx, access, adminUser, META, origin, async (now) => {
      plans++;
      const current = await findCurrentFile(t.database.db, now.project.id, GPKG);
      const target = await findFileAtVersion(t.database.db, now.project.id, GPKG, 1);
      const update = await fileUpdate(t.app.ctx, current!, target!);
      diffKeys.push(update.diff!.blobKey);
      expect(await t.app.ctx.blobStore.has(update.diff!.blobKey)).toBe(true);
      // Every time, another push makes a version before this one's commit.
      await commit(t, project.id, { added: { [`other-${plans}.txt`]: 'x' } });
      return { added: [], updated: [update], removed: [] };
    });
    await expect(attempt).rejects.toBeInstanceOf(ServerPushMoved);
    expect(plans).toBe(SERVER_PUSH_ATTEMPTS);
    for (const key of diffKeys) expect(await t.app.ctx.blobStore.has(key)).toBe(false);
    // The project's own blobs are all still there.
    const files = await filesAtVersion(t, project.id, 4 + SERVER_PUSH_ATTEMPTS);
    expect(files.get(GPKG)).toEqual(unique);
  });
});

describe('POST /app/project/restore-file/{namespace}/{name}', () => {
  it('restores one file to its content at a version as a new version', async () => {
    const project = await threeVersions('restore-one');
    const response = await admin.post(restoreFileUrl(project), { version: 'v1', path: 'a.txt' });
    expect(response.statusCode, response.body).toBe(201);
    expect(response.json()).toEqual({
      version: 'v4',
      origin: { action: 'restore_file', version: 'v1', path: 'a.txt', original: null },
      changes: { added: 0, updated: 1, removed: 0 },
    });
    const v3 = await filesAtVersion(t, project.id, 3);
    const v4 = await filesAtVersion(t, project.id, 4);
    expect(v4.get('a.txt')!.toString()).toBe('a one');
    v3.delete('a.txt');
    v4.delete('a.txt');
    expect(v4).toEqual(v3);

    // A file removed since comes back; a file that did not exist then goes.
    const back = await admin.post(restoreFileUrl(project), { version: 'v2', path: 'docs/b.txt' });
    expect(back.json().changes).toEqual({ added: 1, updated: 0, removed: 0 });
    const gone = await admin.post(restoreFileUrl(project), { version: 'v1', path: 'c.txt' });
    expect(gone.json().changes).toEqual({ added: 0, updated: 0, removed: 1 });
    const files = await filesAtVersion(t, project.id, 6);
    expect(files.get('docs/b.txt')!.toString()).toBe('b one');
    expect(files.has('c.txt')).toBe(false);

    // The GeoPackage back to v2's rows, as a diff.
    const geo = await admin.post(restoreFileUrl(project), { version: 'v2', path: GPKG });
    expect(geo.statusCode).toBe(201);
    expect((await filesAtVersion(t, project.id, 7)).get(GPKG)).toEqual(gpkg[1]);

    expect(
      (await admin.post(restoreFileUrl(project), { version: 'v1', path: 'nope.txt' })).statusCode,
    ).toBe(404);
    expect(
      (await admin.post(restoreFileUrl(project), { version: 'v7', path: 'a.txt' })).statusCode,
    ).toBe(400);
    expect(
      (await admin.post(restoreFileUrl(project), { version: 'v1', path: '' })).statusCode,
    ).toBe(400);
  });
});
