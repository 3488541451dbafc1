/**
 * Versions of GeoPackages stored as their diffs (services/file-store/): a diff push stores
 * the diff, not the file; the latest version is read from the cache at once and written
 * whole when due; older versions lose their whole copies by the checkpoint rule; every
 * reader gets the exact bytes of every version (downloads with ranges, archives, v1 and v2
 * pulls, the map, changesets, compare, restore); concurrent readers wait for one rebuild; a
 * rebuild that does not give the recorded SHA-1 is a logged 422, never other bytes; the cache
 * keeps its budget; the allowance counts stored bytes; purging removes whole chains.
 */
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { Writable } from 'node:stream';
import Database from 'better-sqlite3';
import { and, eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { hashPassword } from '../../server/src/auth/passwords';
import { insertUser } from '../../server/src/db/queries/users';
import {
  blobs,
  fileHistory,
  projectMembers,
  projects,
  type Project,
  type User,
} from '../../server/src/db/schema';
import { applyChangeset } from '../../server/src/geodiff/apply';
import { changesetWorkIdle } from '../../server/src/services/changesets';
import {
  fileCacheOf,
  fileStoreWorkIdle,
  runFileStoreTasks,
} from '../../server/src/services/file-store';
import { patchCounts } from '../../server/src/services/file-store/page-patch-store';
import { cachedFile } from '../../server/src/services/file-store/reader';
import { rebuildCounts } from '../../server/src/services/file-store/rebuild';
import { runAdminCommand } from '../../server/src/admin/commands';
import { purgeRemovedProjects } from '../../server/src/services/purge';
import { DELETED_PROJECT_EXPIRATION_DAYS } from '../../server/src/services/projects';
import type { LocalBlobStore } from '../../server/src/storage/local-blob-store';
import { DiffClient, sha1 } from './support/diff-client';
import { geopackageFromFeatures, pointFeatures, scratch, type Scratch } from './support/geopackage';
import { createProject } from './support/seed';
import { createTestApp, type TestApp, type TestClient } from './support/test-app';
import { readZip } from './support/zip-reader';

const PASSWORD = 'Field-Password-1';
const FILE = 'survey/trees.gpkg';
const DAY = 24 * 3600 * 1000;

let t: TestApp;
let s: Scratch;
let alice: User;
let client: TestClient;
let ns: string;
let count = 0;
const logged: string[] = [];
let v1: Buffer;

beforeAll(async () => {
  t = await createTestApp({
    logger: {
      level: 'warn',
      stream: new Writable({
        write(chunk: Buffer, _encoding, done) {
          logged.push(chunk.toString());
          done();
        },
      }),
    },
  });
  ns = t.config.globalWorkspace;
  s = await scratch();
  alice = await insertUser(t.database.db, {
    username: 'alice',
    email: 'alice@example.com',
    passwordHash: await hashPassword(PASSWORD),
    verifiedEmail: true,
  });
  client = t.client();
  await client.login('alice', PASSWORD);
  v1 = await geopackageFromFeatures(s, 'v1', 'trees', pointFeatures(2000));
});

afterAll(async () => {
  await t?.close();
  await s?.cleanup();
});

async function newProject(): Promise<Project> {
  const project = await createProject(t, { name: `fs${++count}`, creatorId: alice.id });
  await t.database.db
    .insert(projectMembers)
    .values({ projectId: project.id, userId: alice.id, role: 'owner' });
  return project;
}

/** A client with the file at v1 (pushed whole) and `edits` diff pushes after it. */
async function projectWithDiffs(
  edits: number,
): Promise<{ project: Project; desk: DiffClient; versions: Map<number, Buffer> }> {
  const project = await newProject();
  const dir = s.file(`client-${project.name}`);
  await mkdir(dir, { recursive: true });
  const desk = new DiffClient(client, `${ns}/${project.name}`, FILE, dir);
  await desk.pushWhole(v1);
  const versions = new Map<number, Buffer>([[1, v1]]);
  for (let i = 0; i < edits; i++) {
    const v = desk.version + 1;
    // Names carry the project's: projects never share the bytes of their versions.
    await desk.pushEdit(
      `UPDATE trees SET name = 'checked in ${project.name} v${v}' WHERE fid % 97 = ${v % 97};
       DELETE FROM trees WHERE fid = ${100 + v};
       INSERT INTO trees (fid, geom, name, height) SELECT ${5000 + v}, geom, 'new in v${v}', ${v} FROM trees WHERE fid = 7;`,
    );
    versions.set(desk.version, await desk.baseBytes());
  }
  return { project, desk, versions };
}

async function blobOf(project: Project, version: number) {
  const rows = await t.database.db
    .select({
      key: blobs.key,
      stored: blobs.stored,
      baseKey: blobs.baseKey,
      diffKey: blobs.diffKey,
      patchKey: blobs.patchKey,
      patchRefused: blobs.patchRefused,
    })
    .from(fileHistory)
    .innerJoin(blobs, eq(blobs.key, fileHistory.blobKey))
    .where(
      and(
        eq(fileHistory.projectId, project.id),
        eq(fileHistory.path, FILE),
        eq(fileHistory.versionName, version),
      ),
    );
  return rows[0]!;
}

const raw = (project: Project, query: string, headers?: Record<string, string>) =>
  client.get(
    `/v1/project/raw/${ns}/${project.name}?file=${encodeURIComponent(FILE)}&${query}`,
    headers ? { headers } : undefined,
  );

/** Runs the background work as if its delay had passed. */
async function arrange(): Promise<void> {
  await fileStoreWorkIdle(t.app.ctx);
  t.clock.advance(t.config.versionCopyDelayMs + 1000);
  await runFileStoreTasks(t.app.ctx);
}

async function versionBytes(project: Project, version: number): Promise<Buffer> {
  const response = await raw(project, `version=v${version}&diff=False`);
  expect(response.statusCode, response.body).toBe(200);
  return response.rawPayload;
}

describe('a diff push', () => {
  it('stores the diff, not the file; the latest reads at once; whole when due', async () => {
    const { project, desk, versions } = await projectWithDiffs(3);
    const latest = await blobOf(project, 4);
    expect(latest).toMatchObject({ stored: false });
    expect(latest.baseKey).toBe((await blobOf(project, 3)).key);
    expect(await t.app.ctx.blobStore.has(latest.key)).toBe(false);
    // Read at once from the cache the push left it in (no rebuild).
    const builds = fileCacheOf(t.app.ctx).builds;
    expect(sha1(await versionBytes(project, 4))).toBe(desk.answered.get(4));
    expect(fileCacheOf(t.app.ctx).builds).toBe(builds);

    await arrange();
    expect(await blobOf(project, 4)).toMatchObject({ stored: true });
    expect(await t.app.ctx.blobStore.has(latest.key)).toBe(true);
    // v1 stays whole (no recipe); v2 and v3 are left to their diffs (small diffs).
    expect(await blobOf(project, 1)).toMatchObject({ stored: true, baseKey: null });
    expect(await blobOf(project, 2)).toMatchObject({ stored: false });
    expect(await blobOf(project, 3)).toMatchObject({ stored: false });
    expect(await t.app.ctx.blobStore.has((await blobOf(project, 2)).key)).toBe(false);

    await fileCacheOf(t.app.ctx).clear();
    for (const [version, bytes] of versions) {
      const got = await versionBytes(project, version);
      expect(sha1(got), `v${version}`).toBe(sha1(bytes));
      expect(sha1(got)).toBe(desk.answered.get(version));
    }
  });

  it('serves ranges, HEAD and archives of versions stored as diffs', async () => {
    const { project, versions } = await projectWithDiffs(3);
    await arrange();
    await fileCacheOf(t.app.ctx).clear();
    const bytes = versions.get(2)!;
    const half = Math.floor(bytes.length / 2);
    const first = await raw(project, 'version=v2&diff=False', { range: `bytes=0-${half - 1}` });
    expect(first.statusCode).toBe(206);
    const second = await raw(project, 'version=v2&diff=False', { range: `bytes=${half}-` });
    expect(second.statusCode).toBe(206);
    expect(Buffer.concat([first.rawPayload, second.rawPayload]).equals(bytes)).toBe(true);
    const past = await raw(project, 'version=v3&diff=False', {
      range: `bytes=${bytes.length * 3}-`,
    });
    expect([206, 416]).toContain(past.statusCode);

    const zip = await client.get(
      `/v1/project/download/${ns}/${project.name}?version=v3&format=zip`,
    );
    expect(zip.statusCode, zip.body).toBe(200);
    const entry = readZip(zip.rawPayload).entries.find((e) => e.name === FILE)!;
    expect(sha1(entry.data)).toBe(sha1(versions.get(3)!));
  });
});

describe('readers of versions stored as diffs', () => {
  it('pull v1 (history and diffs) and v2 (delta and merged diff) give the right rows', async () => {
    const { project, versions } = await projectWithDiffs(4);
    await arrange();
    await fileCacheOf(t.app.ctx).clear();
    // v1 pull: the diffs of v2 … v5, applied to v1, give v5's rows.
    const local = s.file(`${project.name}-pull.gpkg`);
    await writeFile(local, versions.get(1)!);
    for (let v = 2; v <= 5; v++) {
      const diff = await raw(project, `version=v${v}&diff=True`);
      expect(diff.statusCode).toBe(200);
      applyChangeset(local, new Uint8Array(diff.rawPayload), { stable: true });
    }
    expect(sha1(await readFile(local))).toBe(sha1(versions.get(5)!));

    // v2 pull from v2: one merged diff.
    const delta = await client.get(`/v2/projects/${project.id}/delta?since=v2`);
    expect(delta.statusCode, delta.body).toBe(200);
    const item = (delta.json() as { items: { path: string; diffs: { id: string }[] }[] }).items[0]!;
    expect(item.diffs).toHaveLength(1);
    const merged = await client.get(
      `/v2/projects/${project.id}/raw/diff/${item.diffs[0]!.id.split('/').map(encodeURIComponent).join('/')}`,
    );
    expect(merged.statusCode, merged.body).toBe(200);
    const base = s.file(`${project.name}-v2.gpkg`);
    await writeFile(base, await versionBytes(project, 2));
    applyChangeset(base, new Uint8Array(merged.rawPayload));
    const rows = (file: string) => {
      const db = new Database(file, { readonly: true });
      try {
        return db.prepare('SELECT fid, name FROM trees ORDER BY fid').all();
      } finally {
        db.close();
      }
    };
    expect(rows(base)).toEqual(rows(local));
  });

  it('map, changeset, compare and restore read old versions rebuilt', async () => {
    const { project, versions } = await projectWithDiffs(3);
    await arrange();
    await changesetWorkIdle(t.app.ctx);
    await fileCacheOf(t.app.ctx).clear();
    const q = (v: number) => `file=${encodeURIComponent(FILE)}&version=v${v}`;
    const layers = await client.get(`/app/map/${ns}/${project.name}/layers?${q(2)}`);
    expect(layers.statusCode, layers.body).toBe(200);
    expect(layers.json()).toMatchObject({ checksum: sha1(versions.get(2)!) });
    const features = await client.get(
      `/app/map/${ns}/${project.name}/features/trees?${q(3)}&per_page=5`,
    );
    expect(features.statusCode, features.body).toBe(200);

    const changeset = await client.get(
      `/v1/resource/changesets/${ns}/${project.name}/v3?path=${encodeURIComponent(FILE)}`,
    );
    expect(changeset.statusCode, changeset.body).toBe(200);
    expect((changeset.json() as unknown[]).length).toBeGreaterThan(0);

    const compared = await client.get(
      `/app/project/compare/${ns}/${project.name}/rows?from=v2&to=v4&path=${encodeURIComponent(FILE)}`,
    );
    expect(compared.statusCode, compared.body).toBe(200);
    expect(compared.json()).toMatchObject({ status: 'done' });

    const restored = await client.post(`/app/project/restore-file/${ns}/${project.name}`, {
      version: 'v2',
      path: FILE,
    });
    expect(restored.statusCode, restored.body).toBe(201);
    expect(sha1(await versionBytes(project, 5))).toBe(sha1(versions.get(2)!));
    // The restored latest reuses v2's blob (a diff): it is written whole when due.
    expect((await blobOf(project, 5)).key).toBe((await blobOf(project, 2)).key);
    await arrange();
    expect(await blobOf(project, 5)).toMatchObject({ stored: true });
    expect(sha1(await versionBytes(project, 3))).toBe(sha1(versions.get(3)!));
  });
});

describe('rebuilds', () => {
  it('are shared by concurrent readers of the same version', async () => {
    const { project, versions } = await projectWithDiffs(3);
    await arrange();
    const cache = fileCacheOf(t.app.ctx);
    await cache.clear();
    const before = cache.builds;
    const answers = await Promise.all(
      Array.from({ length: 6 }, () => raw(project, 'version=v3&diff=False')),
    );
    for (const answer of answers) expect(sha1(answer.rawPayload)).toBe(sha1(versions.get(3)!));
    expect(cache.builds - before).toBe(1);
  });

  it('answer a download from memory when every step has its patch; the file is cached after', async () => {
    const { project, versions } = await projectWithDiffs(3);
    await arrange();
    const cache = fileCacheOf(t.app.ctx);
    await cache.clear();
    const v2 = versions.get(2)!;
    const inMemory = rebuildCounts.inMemory;
    // A range first (a download sniffs the head too), then the whole file and a later range.
    const head = await raw(project, 'version=v2&diff=False', { range: 'bytes=0-99' });
    expect(head.statusCode).toBe(206);
    expect(head.rawPayload.equals(v2.subarray(0, 100))).toBe(true);
    // A download sniffs the head, then sends the file: the blob store is looked in once.
    const v2Key = (await blobOf(project, 2)).key;
    const opened = vi.spyOn(t.app.ctx.blobStore, 'open');
    try {
      expect((await versionBytes(project, 2)).equals(v2)).toBe(true);
      expect(opened.mock.calls.filter(([key]) => key === v2Key)).toHaveLength(1);
    } finally {
      opened.mockRestore();
    }
    const tail = await raw(project, 'version=v2&diff=False', {
      range: `bytes=${v2.length - 4096}-`,
    });
    expect(tail.rawPayload.equals(v2.subarray(v2.length - 4096))).toBe(true);
    expect(rebuildCounts.inMemory - inMemory).toBe(1);
    await cache.settled();
    expect(cache.has(sha1(v2), v2.length)).toBe(true);
    // A reader that needs the file (the map, a zip) while the bytes are made waits for them,
    // and the one rebuild: then reads the file the cache wrote.
    await cache.clear();
    const builds = cache.builds;
    const key = (await blobOf(project, 3)).key;
    const [download, held] = await Promise.all([
      versionBytes(project, 3),
      cachedFile(t.app.ctx, key),
    ]);
    try {
      expect(download.equals(versions.get(3)!)).toBe(true);
      expect((await readFile(held.path)).equals(versions.get(3)!)).toBe(true);
    } finally {
      held.release();
    }
    expect(cache.builds - builds).toBe(1);
  });

  it("write the pages of each version's page patch: no diff is applied", async () => {
    const { project, versions } = await projectWithDiffs(4);
    await arrange();
    await fileCacheOf(t.app.ctx).clear();
    const store = t.app.ctx.blobStore as LocalBlobStore;
    // Every version made from a diff has its patch; the diffs' bytes are put aside, so only
    // the patches can make the versions.
    const aside: { file: string; bytes: Buffer }[] = [];
    for (let v = 2; v <= 5; v++) {
      const blob = await blobOf(project, v);
      expect(blob.patchKey, `v${v}`).toBeTruthy();
      const file = store.pathOf(blob.diffKey!);
      aside.push({ file, bytes: await readFile(file) });
    }
    for (const { file } of aside) await rm(file);
    try {
      for (const [version, bytes] of versions) {
        expect((await versionBytes(project, version)).equals(bytes), `v${version}`).toBe(true);
      }
    } finally {
      for (const { file, bytes } of aside) await writeFile(file, bytes);
    }
  });

  it('make a patch that was never made (a crash after the commit): on a rebuild, by the file task', async () => {
    const { project, desk, versions } = await projectWithDiffs(3);
    await arrange();
    const db = t.database.db;
    // As if the server died between each commit and its patch.
    const forget = async (v: number) => {
      const blob = await blobOf(project, v);
      await db.update(blobs).set({ patchKey: null }).where(eq(blobs.key, blob.key));
      return blob.patchKey!;
    };
    const was3 = await forget(3);
    await fileCacheOf(t.app.ctx).clear();
    // v3 is read through v3's diff; the rebuild has its patch made again afterwards.
    expect((await versionBytes(project, 3)).equals(versions.get(3)!)).toBe(true);
    await fileStoreWorkIdle(t.app.ctx);
    expect((await blobOf(project, 3)).patchKey).toBe(was3);
    // The file's storage task (durable: queued with the version) makes it too.
    const was2 = await forget(2);
    await fileCacheOf(t.app.ctx).clear();
    await desk.pushEdit(`UPDATE trees SET height = 99 WHERE fid = 3;`);
    versions.set(desk.version, await desk.baseBytes());
    await arrange();
    expect((await blobOf(project, 2)).patchKey).toBe(was2);
    expect((await blobOf(project, desk.version)).patchKey).toBeTruthy();
    await fileCacheOf(t.app.ctx).clear();
    for (const [version, bytes] of versions) {
      expect((await versionBytes(project, version)).equals(bytes), `v${version}`).toBe(true);
    }
  });

  it('apply the diffs when a patch is missing, damaged or for other bytes', async () => {
    const { project, versions } = await projectWithDiffs(3);
    await arrange();
    const store = t.app.ctx.blobStore as LocalBlobStore;
    const patchOf = async (v: number) => store.pathOf((await blobOf(project, v)).patchKey!);
    const v2Patch = await patchOf(2);
    const v3Patch = await patchOf(3);
    const saved = await Promise.all([readFile(v2Patch), readFile(v3Patch)]);
    const check = async (what: string) => {
      await fileCacheOf(t.app.ctx).clear();
      logged.length = 0;
      expect((await versionBytes(project, 3)).equals(versions.get(3)!), what).toBe(true);
      expect(logged.join('\n'), what).toContain('could not be rebuilt from its page patches');
      // The bad patch is made again meanwhile (the next test): done before the next case.
      await fileStoreWorkIdle(t.app.ctx);
    };
    try {
      await rm(v2Patch); // missing
      await check('missing');
      await writeFile(v2Patch, saved[0].subarray(0, saved[0].length - 5)); // damaged
      await check('damaged');
      // A whole patch, of another version: the bytes differ, so it is not served.
      await writeFile(v2Patch, saved[0]);
      await writeFile(v3Patch, saved[0]);
      await check('other bytes');
    } finally {
      await writeFile(v2Patch, saved[0]);
      await writeFile(v3Patch, saved[1]);
    }
  });

  it('do not try again a patch refused as too large, after a restart either', async () => {
    const { project, versions } = await projectWithDiffs(3);
    await arrange();
    const db = t.database.db;
    // As a process that found v3's change over MAX_PATCH_PAGE_BYTES leaves it: no patch, and
    // the row says none can be made (a new process has nothing in memory).
    const v3 = await blobOf(project, 3);
    await db.update(blobs).set({ patchKey: null, patchRefused: true }).where(eq(blobs.key, v3.key));
    await fileCacheOf(t.app.ctx).clear();
    const made = patchCounts.made;
    expect((await versionBytes(project, 3)).equals(versions.get(3)!)).toBe(true);
    await fileStoreWorkIdle(t.app.ctx);
    expect(await blobOf(project, 3)).toMatchObject({ patchKey: null, patchRefused: true });
    expect(patchCounts.made).toBe(made);
  });

  it('make a patch that failed again: missing, damaged or making other bytes', async () => {
    const { project, versions } = await projectWithDiffs(4);
    await arrange();
    const store = t.app.ctx.blobStore as LocalBlobStore;
    const patches = async () => {
      const keys: string[] = [];
      for (let v = 2; v <= 5; v++) keys.push((await blobOf(project, v)).patchKey!);
      return keys;
    };
    const good = await patches();
    const storedBytes = async () =>
      (
        await t.database.db
          .select({ storedBytes: projects.storedBytes })
          .from(projects)
          .where(eq(projects.id, project.id))
      )[0]!.storedBytes;
    const charged = await storedBytes();
    const v2Bytes = await readFile(store.pathOf(good[0]!));
    /** Reads v4 cold (v5 is whole), then waits for the patch work; how many rebuilds fell back. */
    const readV4 = async () => {
      await fileCacheOf(t.app.ctx).clear();
      const failed = rebuildCounts.patchesFailed;
      expect((await versionBytes(project, 4)).equals(versions.get(4)!)).toBe(true);
      await fileStoreWorkIdle(t.app.ctx);
      return rebuildCounts.patchesFailed - failed;
    };
    const cases: [string, () => Promise<void>][] = [
      ['missing', () => rm(store.pathOf(good[1]!))],
      ['damaged', () => writeFile(store.pathOf(good[1]!), v2Bytes.subarray(0, 40))],
      // v2's whole patch in v4's place: it reads, but makes other bytes than v4's.
      ['other bytes', () => writeFile(store.pathOf(good[2]!), v2Bytes)],
    ];
    for (const [what, spoil] of cases) {
      await spoil();
      logged.length = 0;
      expect(await readV4(), what).toBe(1);
      expect(logged.join('\n'), what).toContain('was dropped; it is made again from the diff');
      // Made again: the same patches (content-addressed), read through, charged once.
      expect(await patches(), what).toEqual(good);
      expect(await readV4(), what).toBe(0);
      expect(await storedBytes(), what).toBe(charged);
    }
  });

  it('refuse to serve bytes that are not the version: a logged 422', async () => {
    const { project, desk } = await projectWithDiffs(2);
    await arrange();
    await fileCacheOf(t.app.ctx).clear();
    // Rot in the whole copy v2 is rebuilt from (v3, the latest, is whole).
    const root = await blobOf(project, 1);
    const file = (t.app.ctx.blobStore as LocalBlobStore).pathOf(root.key);
    const bytes = await readFile(file);
    // In the name of a feature no diff touches, so the rot stays in every rebuild.
    const at = bytes.indexOf('tree 1500') + 5;
    expect(at).toBeGreaterThan(5);
    const flip = () => bytes.writeUInt8(bytes[at]! ^ 0x01, at);
    flip();
    await writeFile(file, bytes);
    try {
      logged.length = 0;
      const answer = await raw(project, 'version=v2&diff=False');
      expect(answer.statusCode).toBe(422);
      expect(answer.json()).toMatchObject({ code: 'FileRebuildError' });
      expect(logged.join('\n')).toContain('could not be rebuilt');
      const v2 = desk.answered.get(2)!;
      expect(fileCacheOf(t.app.ctx).has(v2, (await versionSize(project, 2)) ?? 0)).toBe(false);
    } finally {
      flip();
      await writeFile(file, bytes);
    }
    expect((await raw(project, 'version=v2&diff=False')).statusCode).toBe(200);
  });

  it('keep the cache within VERSION_CACHE_BYTES', async () => {
    const { project, versions } = await projectWithDiffs(5);
    await arrange();
    const cache = fileCacheOf(t.app.ctx);
    await cache.clear();
    cache.setBudget(Math.floor(v1.length * 2.5));
    try {
      for (let v = 2; v <= 5; v++) {
        expect(sha1(await versionBytes(project, v))).toBe(sha1(versions.get(v)!));
        // Answered from memory: the file enters the cache just after.
        await cache.settled();
        expect(cache.has(sha1(versions.get(v)!), versions.get(v)!.length)).toBe(true);
        expect(cache.bytes).toBeLessThanOrEqual(Math.floor(v1.length * 2.5));
      }
    } finally {
      cache.setBudget(t.config.versionCacheBytes);
    }
  });
});

describe('admin commands', () => {
  it('storage verify rebuilds versions stored as diffs; status tells what the store holds', async () => {
    const { project } = await projectWithDiffs(3);
    await arrange();
    await fileCacheOf(t.app.ctx).clear();
    const context = {
      config: t.config,
      getDatabase: async () => t.database,
      fileStore: t.app.ctx,
    };
    const verified = await runAdminCommand(['storage', 'verify', '--limit', '5'], context);
    expect(verified.code, verified.stderr).toBe(0);
    expect(verified.stdout).toMatch(/Rebuilt \d+ version\(s\) stored as diffs: all exact/);

    // Rot in v1: the versions built on it fail, named.
    const root = await blobOf(project, 1);
    const file = (t.app.ctx.blobStore as LocalBlobStore).pathOf(root.key);
    const bytes = await readFile(file);
    const at = bytes.indexOf('tree 1500') + 5;
    const flip = () => bytes.writeUInt8(bytes[at]! ^ 0x01, at);
    flip();
    await writeFile(file, bytes);
    try {
      await fileCacheOf(t.app.ctx).clear();
      const failing = await runAdminCommand(['storage', 'verify', '--limit', '2'], context);
      expect(failing.code).toBe(1);
      expect(failing.stderr).toContain((await blobOf(project, 3)).key);
    } finally {
      flip();
      await writeFile(file, bytes);
    }

    const status = await runAdminCommand(['storage', 'status'], context);
    expect(status.code).toBe(0);
    expect(status.stdout).toMatch(/No conversion has run|Conversion/);
    expect(status.stdout).toMatch(/file version\(s\) with a recipe/);
    const usage = await runAdminCommand(['storage', 'verify', '--limit', '0'], context);
    expect(usage.code).toBe(2);
  });
});

describe('storage accounting and purging', () => {
  it('counts the stored bytes: whole copies, diffs and page patches', async () => {
    const { project } = await projectWithDiffs(4);
    await arrange();
    const db = t.database.db;
    const history = await db
      .select({ blobKey: fileHistory.blobKey, diff: fileHistory.diff })
      .from(fileHistory)
      .where(eq(fileHistory.projectId, project.id));
    const keys = new Set<string>();
    for (const row of history) {
      if (row.blobKey) keys.add(row.blobKey);
      const diff = row.diff as { blob_key?: string } | null;
      if (diff?.blob_key) keys.add(diff.blob_key);
    }
    // Each version's page patch is stored too (one per version made from a diff).
    const patches = await db
      .select({ patchKey: blobs.patchKey })
      .from(blobs)
      .where(inArray(blobs.key, [...keys]));
    const patchKeys = patches.flatMap((r) => (r.patchKey ? [r.patchKey] : []));
    expect(patchKeys).toHaveLength(4);
    for (const key of patchKeys) keys.add(key);
    const rows = await db
      .select({ key: blobs.key, size: blobs.size, stored: blobs.stored })
      .from(blobs)
      .where(inArray(blobs.key, [...keys]));
    const expected = rows.filter((r) => r.stored).reduce((sum, r) => sum + r.size, 0);
    let inStore = 0;
    for (const row of rows) {
      if (await t.app.ctx.blobStore.has(row.key)) inStore += row.size;
    }
    expect(inStore).toBe(expected);
    const [stored] = await db
      .select({ storedBytes: projects.storedBytes, diskUsage: projects.diskUsage })
      .from(projects)
      .where(eq(projects.id, project.id));
    expect(stored!.storedBytes).toBe(expected);
    // Far less than the five versions whole; the project's size is still its latest file's.
    expect(stored!.storedBytes).toBeLessThan(3 * v1.length);
    expect(stored!.diskUsage).toBe((await versionBytes(project, 5)).length);
  });

  it('purges a project with its chains of diffs', async () => {
    const { project } = await projectWithDiffs(3);
    await arrange();
    const db = t.database.db;
    const keys = (
      await db
        .select({ key: fileHistory.blobKey })
        .from(fileHistory)
        .where(eq(fileHistory.projectId, project.id))
        // In version order (PostgreSQL returns rows in no particular order): v1 first.
        .orderBy(fileHistory.versionName)
    ).flatMap((r) => (r.key ? [r.key] : []));
    await db
      .update(projects)
      .set({
        removedAt: new Date(t.clock.now().getTime() - (DELETED_PROJECT_EXPIRATION_DAYS + 1) * DAY),
      })
      .where(eq(projects.id, project.id));
    const v1Key = keys[0]!;
    const patchKeys = (
      await db.select({ key: blobs.patchKey }).from(blobs).where(inArray(blobs.key, keys))
    ).flatMap((r) => (r.key ? [r.key] : []));
    expect(patchKeys).toHaveLength(3);
    await purgeRemovedProjects(t.app.ctx);
    // The page patches went with the versions they belong to.
    expect(
      await db.select({ key: blobs.key }).from(blobs).where(inArray(blobs.key, patchKeys)),
    ).toEqual([]);
    for (const key of patchKeys) expect(await t.app.ctx.blobStore.has(key)).toBe(false);
    // v1's bytes are shared with the other projects of this file (the same file): they stay;
    // every version made from a diff, and its bytes, went.
    const left = await db.select({ key: blobs.key }).from(blobs).where(inArray(blobs.key, keys));
    expect(left.map((row) => row.key)).toEqual([v1Key]);
    for (const key of keys.slice(1)) expect(await t.app.ctx.blobStore.has(key)).toBe(false);
  });
});

async function versionSize(project: Project, version: number): Promise<number | null> {
  const rows = await t.database.db
    .select({ size: fileHistory.size })
    .from(fileHistory)
    .where(
      and(
        eq(fileHistory.projectId, project.id),
        eq(fileHistory.path, FILE),
        eq(fileHistory.versionName, version),
      ),
    );
  return rows[0]?.size ?? null;
}
