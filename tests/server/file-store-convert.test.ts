/**
 * `storage convert` on a data folder of whole files, killed halfway (SIGKILL of the server
 * that runs it): three GeoPackages of 20,000 features, 40 versions each, pushed as diffs and
 * stored whole as the server did before (each diff applied to a copy of the file before,
 * geodiff/apply.ts without `stable`). The conversion runs in a real server process; when the
 * first whole copies have left the blob store the process is killed. Every version still
 * downloads with its recorded SHA-1; a new server finishes the conversion; every version
 * again downloads identical, and the blob store keeps far less; the versions given a recipe
 * got their page patches.
 */
import type { ChildProcess } from 'node:child_process';
import { copyFile, mkdir, readdir, readFile, stat } from 'node:fs/promises';
import { createReadStream } from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import Database from 'better-sqlite3';
import { isNotNull } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sendControlCommand } from '../../server/src/admin/control-socket';
import { buildApp } from '../../server/src/app';
import { bootstrap } from '../../server/src/bootstrap';
import { loadConfig } from '../../server/src/config';
import { openDatabase } from '../../server/src/db/database';
import { migrate } from '../../server/src/db/migrate';
import { blobs, jobRuns } from '../../server/src/db/schema';
import { applyChangeset } from '../../server/src/geodiff/apply';
import { createChangeset } from '../../server/src/geodiff/create';
import { registerSpatialFunctions } from '../../server/src/geodiff/st-functions';
import { COMPUTE_CHANGESETS_JOB } from '../../server/src/services/changesets';
import { FILE_STORE_JOB, TASK_LEASE_MS } from '../../server/src/services/file-store/tasks';
import { commitVersion } from '../../server/src/services/versions';
import { openBlobStore } from '../../server/src/storage/open-blob-store';
import { sha1 } from './support/diff-client';
import { geopackageFromFeatures, pointFeatures, scratch, type Scratch } from './support/geopackage';
import { freePort, runCli } from './support/processes';
import { HttpSession, isRunning, killServer, startServer } from './support/server-process';
import { insertProjectWithInitialVersion } from '../../server/src/db/queries/projects';
import { createTestDataDir, type TestDataDir } from './support/test-db';

const ADMIN_PASSWORD = 'Admin-Password-1';
const FILES = ['a/one.gpkg', 'b/two.gpkg', 'c/three.gpkg'];
const VERSIONS = 40;
const FEATURES = 20_000;
const SLOW = 30 * 60 * 1000;

let data: TestDataDir;
let s: Scratch;
let env: Record<string, string>;
let child: ChildProcess | null = null;
/** SHA-1 of every version of every file. */
const recorded = new Map<string, Map<number, string>>();

beforeAll(async () => {
  data = await createTestDataDir();
  s = await scratch();
  env = {
    ...data.env,
    ADMIN_PASSWORD,
    HOST: '127.0.0.1',
    PORT: String(await freePort()),
    LOG_LEVEL: 'silent',
  };
}, SLOW);

afterAll(async () => {
  if (isRunning(child)) child.kill('SIGKILL');
  await data?.cleanup();
  await s?.cleanup();
});

/** The project's versions, stored whole as before diffs were stored. */
async function seed(): Promise<void> {
  const config = loadConfig({ ...env, PORT: env.PORT! });
  const database = await openDatabase(config);
  await migrate(database);
  const setup = await bootstrap(database, config);
  const blobStore = openBlobStore(config);
  const app = buildApp({ config, database, blobStore, distDir: null, logger: false });
  await app.ready();
  try {
    const project = await insertProjectWithInitialVersion(database.db, {
      workspaceId: setup.workspaceId,
      name: 'legacy',
      public: false,
      creatorId: 1,
      at: new Date(),
      userAgent: 'seed',
      ip: null,
      deviceId: null,
    });
    await geopackageFromFeatures(s, 'v1', 'trees', pointFeatures(FEATURES));
    const put = async (file: string) => blobStore.put(createReadStream(file));
    for (const [n, file] of FILES.entries()) {
      const dir = s.file(`f${n}`);
      await mkdir(dir, { recursive: true });
      const base = path.join(dir, 'base.gpkg');
      const live = path.join(dir, 'live.gpkg');
      const next = path.join(dir, 'next.gpkg');
      await copyFile(s.file('v1.gpkg'), base);
      await copyFile(base, live);
      const versions = new Map<number, string>();
      recorded.set(file, versions);
      const first = await put(base);
      versions.set(1, first.sha1);
      const commit = (change: object) =>
        database.db.transaction((tx) =>
          commitVersion(tx, {
            project,
            author: { id: 1 },
            ...change,
            at: new Date(),
            blobStore,
          }),
        );
      // One file after the other: v1-v40 are the first's, v41-v80 the second's, …
      await commit({
        added: [{ path: file, size: first.size, checksum: first.sha1, blobKey: first.key }],
      });
      for (let v = 2; v <= VERSIONS; v++) {
        const db = new Database(live);
        registerSpatialFunctions(db);
        db.exec(`UPDATE trees SET name = '${file} v${v}' WHERE fid % 100 = ${v};
          DELETE FROM trees WHERE fid = ${1000 + v};
          INSERT INTO trees (fid, geom, name, height) SELECT ${FEATURES + v}, geom, 'new', ${v} FROM trees WHERE fid = 3;`);
        db.close();
        const diff = Buffer.from(createChangeset(base, live));
        // As the server did: the diff applied to a copy of the file before.
        await copyFile(base, next);
        applyChangeset(next, diff);
        await copyFile(next, base);
        const whole = await put(base);
        const stored = await blobStore.put(Readable.from([diff]));
        versions.set(v, whole.sha1);
        await commit({
          updated: [
            {
              path: file,
              size: whole.size,
              checksum: whole.sha1,
              blobKey: whole.key,
              diff: {
                path: `${file}-diff-${v}`,
                size: stored.size,
                checksum: stored.sha1,
                blobKey: stored.key,
              },
            },
          ],
        });
      }
    }
    expect(sha1(await readFile(s.file('v1.gpkg')))).toBe(recorded.get(FILES[0]!)!.get(1));
  } finally {
    await app.close();
    await database.close();
  }
}

/** Files in the local blob store. */
/** Files in the blob store; with `whole`, only the whole copies (not the diffs nor patches). */
async function blobFiles(whole = false): Promise<number> {
  const root = path.join(data.dataDir, 'blobs');
  let count = 0;
  // The running server removes copies while this walks the store: a name listed and gone a
  // moment later is not counted (nor is a folder gone).
  for (const a of await listed(root)) {
    if (a === 'tmp') continue;
    for (const b of await listed(path.join(root, a))) {
      for (const name of await listed(path.join(root, a, b))) {
        // A whole copy of the 20,000-feature layer is megabytes; its diffs and page patches,
        // kilobytes.
        if (!whole) count++;
        else if (((await sizeOf(path.join(root, a, b, name))) ?? 0) >= WHOLE_AT_LEAST) count++;
      }
    }
  }
  return count;
}

const gone = (error: unknown) => (error as NodeJS.ErrnoException).code === 'ENOENT';
const listed = (dir: string) =>
  readdir(dir).catch((error: unknown) => (gone(error) ? [] : Promise.reject(error)));
const sizeOf = (file: string) =>
  stat(file).then(
    (stats) => stats.size,
    (error: unknown) => (gone(error) ? undefined : Promise.reject(error)),
  );

const WHOLE_AT_LEAST = 512 * 1024;

/** Every version of every file downloads with its recorded SHA-1. */
async function expectEveryVersion(): Promise<void> {
  const http = await new HttpSession(`http://127.0.0.1:${env.PORT}`).signIn(
    'admin',
    ADMIN_PASSWORD,
  );
  const get = (url: string) => http.request('GET', url);
  let version = 0;
  const versionsOf = new Map<string, number[]>();
  for (const file of FILES) {
    const list: number[] = [];
    for (let v = 1; v <= VERSIONS; v++) list.push(++version);
    versionsOf.set(file, list);
  }
  for (const file of FILES) {
    const list = versionsOf.get(file)!;
    for (const [i, projectVersion] of list.entries()) {
      const response = await get(
        `/v1/project/raw/waymark/legacy?file=${encodeURIComponent(file)}&version=v${projectVersion}&diff=False`,
      );
      expect(response.status, `${file} v${projectVersion}`).toBe(200);
      const bytes = Buffer.from(await response.arrayBuffer());
      expect(sha1(bytes), `${file} v${projectVersion}`).toBe(recorded.get(file)!.get(i + 1));
    }
  }
}

/** Blobs holding a version's page patch (the server is stopped: one process per database). */
async function patchCount(): Promise<number> {
  const database = await openDatabase(loadConfig({ ...env, PORT: env.PORT! }));
  try {
    const rows = await database.db
      .selectDistinct({ key: blobs.patchKey })
      .from(blobs)
      .where(isNotNull(blobs.patchKey));
    return rows.length;
  } finally {
    await database.close();
  }
}

/**
 * The scheduler's claims of its jobs held for an hour, as a process killed during a scheduled
 * pass leaves them (the server is stopped): the next server must not wait for them.
 */
async function holdSchedulerClaims(): Promise<void> {
  const database = await openDatabase(loadConfig({ ...env, PORT: env.PORT! }));
  try {
    const hour = new Date(Date.now() + 60 * 60 * 1000);
    for (const name of [FILE_STORE_JOB, COMPUTE_CHANGESETS_JOB]) {
      await database.db
        .insert(jobRuns)
        .values({ name, lockedUntil: hour })
        .onConflictDoUpdate({ target: jobRuns.name, set: { lockedUntil: hour } });
    }
  } finally {
    await database.close();
  }
}

/** `storage status` by the CLI (a process of its own, on the database: no server runs). */
async function status(): Promise<string> {
  const result = await runCli(['storage', 'status'], env);
  expect(result.code, result.stderr).toBe(0);
  return result.stdout;
}

/**
 * `storage status` through the running server's control socket, as the CLI sends it, from this
 * process: polled while the conversion runs, a CLI process per poll (a Node start and the
 * server's modules, every 2 s for minutes) took the CPU the conversion needs.
 */
async function statusFromServer(): Promise<string> {
  const result = await sendControlCommand(data.dataDir, ['storage', 'status']);
  expect(result, 'no server answers on the control socket').not.toBeNull();
  expect(result!.code, result!.stderr).toBe(0);
  return result!.stdout;
}

describe('storage convert', () => {
  it(
    'survives kill -9 halfway: every version stays readable, a new server finishes it',
    async () => {
      await seed();
      const before = await blobFiles(true);
      child = await startServer(env);
      const started = await runCli(['storage', 'convert'], env);
      expect(started.code, started.stderr).toBe(0);
      expect(started.stdout).toContain(`Queued ${FILES.length} file(s)`);

      // Killed once the first whole copies have left the blob store (the page patches the
      // conversion makes are counted apart: they come in first).
      const deadline = Date.now() + 10 * 60 * 1000;
      while ((await blobFiles(true)) > before - 5) {
        if (Date.now() > deadline) throw new Error('The conversion dropped no copy in 10 minutes');
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      await killServer(child);
      await holdSchedulerClaims();
      const halfway = await status();
      expect(halfway).toMatch(/done/);
      expect(halfway).not.toMatch(/Conversion finished/);

      // Readable at once on a new server, which finishes the conversion once the dead
      // process's claim of each file lapsed (its clock runs a lease ahead: no minute waited
      // for), whatever scheduler claims the dead process held.
      child = await startServer(env, { clockOffsetMs: TASK_LEASE_MS });
      await expectEveryVersion();
      // Generous: the new server redoes the dead one's file from its start (2 minutes quiet).
      const until = Date.now() + 15 * 60 * 1000;
      let text = await statusFromServer();
      while (!/Conversion finished/.test(text)) {
        if (Date.now() > until) throw new Error(`The conversion did not finish:\n${text}`);
        await new Promise((resolve) => setTimeout(resolve, 1000));
        text = await statusFromServer();
      }
      expect(text).toContain(`${FILES.length} of ${FILES.length} file(s) done`);
      await expectEveryVersion();
      const after = await blobFiles(true);
      // The versions given a recipe got their page patches too (one blob each).
      await killServer(child);
      const patches = await patchCount();
      console.log(
        `     whole copies in the blob store: ${before} before, ${after} after the conversion (${patches} page patches)\n${text}`,
      );
      expect(patches).toBeGreaterThan(80);
      // Of the 120 whole copies, most went (the diffs stay).
      expect(after).toBeLessThan(before - 80);
    },
    SLOW,
  );
});
