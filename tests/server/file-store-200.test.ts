/**
 * Issue 30's scenario: a 100,000-feature GeoPackage (made by ogr2ogr) pushed whole, then 200
 * diff pushes each editing 1 % of its rows (800 updates, 100 deletions, 100 insertions),
 * through the v1 push protocol.
 *
 * - Every version downloads byte-identical to the file the client had (the SHA-1 the push
 *   answered and the client's basefile, which applies each diff as the server does).
 * - What the blob store keeps for the file is at most 0.1 of the 201 versions' sizes.
 * - The map, the changeset, compare and restore of versions 1, 100 and 200 answer exactly as
 *   they do for a project holding the same versions stored whole (as before diffs were
 *   stored: commitVersion with full blobs), built alongside.
 *
 * `storage convert` on whole copies (every download identical after it, a kill -9 halfway
 * survived) is file-store-convert.test.ts: converting this project's 200 copies here too
 * took a further 90 s and checked nothing that file does not.
 *
 * Slow by nature (201 versions of a 12 MB file): minutes on a busy machine.
 */
import { mkdir } from 'node:fs/promises';
import { Readable } from 'node:stream';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashPassword } from '../../server/src/auth/passwords';
import { insertUser } from '../../server/src/db/queries/users';
import { projectMembers, projects, type Project, type User } from '../../server/src/db/schema';
import { changesetWorkIdle } from '../../server/src/services/changesets';
import {
  fileCacheOf,
  fileStoreWorkIdle,
  runFileStoreTasks,
} from '../../server/src/services/file-store';
import { warmCounts } from '../../server/src/services/map/warm';
import { commitVersion } from '../../server/src/services/versions';
import { DiffClient, sha1 } from './support/diff-client';
import { geopackageFromFeatures, scratch, type Feature, type Scratch } from './support/geopackage';
import { createProject } from './support/seed';
import { createTestApp, type TestApp, type TestClient } from './support/test-app';

const FEATURES = 100_000;
const EDITS = 200;
const UPDATES = 800;
const DELETES = 100;
const INSERTS = 100;
const FILE = 'survey/trees.gpkg';
const PASSWORD = 'Field-Password-1';
/** Minutes: 201 versions of a 12 MB file, on a machine other work shares. */
const SLOW = 90 * 60 * 1000;

let t: TestApp;
let s: Scratch;
let alice: User;
let client: TestClient;
let ns: string;
/** Diffs stored: project A, pushed as diffs. */
let a: Project;
/** Whole copies: project B, the same versions committed as before (full blobs). */
let b: Project;
/** SHA-1 and size of each version (from the client's basefile). */
const versions = new Map<number, { sha1: string; size: number }>();
/** Map warmings before this file's pushes (printed with the steps). */
const warmedBefore = warmCounts.warmed;
/** Milliseconds per step, printed at the end: where this test's minutes go. */
const spent = new Map<string, number>();

async function timed<T>(step: string, work: () => Promise<T>): Promise<T> {
  const started = performance.now();
  try {
    return await work();
  } finally {
    spent.set(step, (spent.get(step) ?? 0) + performance.now() - started);
  }
}

/** Points of a survey area (longitude 0-10, latitude 0-50), a name and a height each. */
function features(): Feature[] {
  return Array.from({ length: FEATURES }, (_, i) => {
    const id = i + 1;
    return {
      id,
      properties: { name: `tree ${id}`, height: (id % 400) / 10 },
      geometry: { type: 'Point', coordinates: [(id % 1000) / 100, Math.floor(id / 1000) / 2] },
    };
  });
}

function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state * 1664525 + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

beforeAll(async () => {
  // The project of whole copies keeps 2.4 GB.
  t = await createTestApp({ env: { GLOBAL_STORAGE: String(100 * 2 ** 30) } });
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
  for (const name of ['stored-as-diffs', 'stored-whole']) {
    const project = await createProject(t, { name, creatorId: alice.id });
    await t.database.db
      .insert(projectMembers)
      .values({ projectId: project.id, userId: alice.id, role: 'owner' });
    if (name === 'stored-as-diffs') a = project;
    else b = project;
  }
}, SLOW);

afterAll(async () => {
  if (spent.size > 0) {
    const lines = [...spent].map(
      ([step, ms]) => `       ${step.padEnd(34)} ${(ms / 1000).toFixed(1)} s`,
    );
    lines.push(`       map warmings (record 0156)         ${warmCounts.warmed - warmedBefore}`);
    console.log(`     where the time went:\n${lines.join('\n')}`);
  }
  await t?.close();
  await s?.cleanup();
});

/** Commits the client's basefile (its bytes) as the next version of B (whole), with the pushed diff. */
async function commitWhole(bytes: Buffer, diff: Buffer | null, version: number): Promise<void> {
  const { blobStore } = t.app.ctx;
  const blob = await blobStore.put(Readable.from([bytes]));
  const entry = { path: FILE, size: blob.size, checksum: blob.sha1, blobKey: blob.key };
  let diffEntry = null;
  if (diff) {
    const stored = await blobStore.put(Readable.from([diff]));
    diffEntry = {
      path: `${FILE}-diff-b${version}`,
      size: stored.size,
      checksum: stored.sha1,
      blobKey: stored.key,
    };
  }
  await t.database.db.transaction((tx) =>
    commitVersion(tx, {
      project: b,
      author: alice,
      ...(diff ? { updated: [{ ...entry, diff: diffEntry }] } : { added: [entry] }),
      at: t.clock.now(),
      blobStore,
    }),
  );
}

async function download(project: Project, version: number): Promise<Buffer> {
  const response = await client.get(
    `/v1/project/raw/${ns}/${project.name}?file=${encodeURIComponent(FILE)}&version=v${version}&diff=False`,
    { bytes: true },
  );
  // The body (an error's text) decoded only when the status is not the one expected.
  if (response.statusCode !== 200)
    expect.fail(`v${version}: ${response.statusCode} ${response.body}`);
  return response.rawPayload;
}

async function storedBytes(project: Project): Promise<number> {
  const [row] = await t.database.db
    .select({ n: projects.storedBytes })
    .from(projects)
    .where(eq(projects.id, project.id));
  return row!.n;
}

// On PGlite only: its minutes are rebuilding, hashing and applying files, the same on both
// databases; what is database-specific (recipes, tasks, leases, stored bytes) file-store.test.ts
// and file-store-convert.test.ts check on PostgreSQL too. CI's PostgreSQL run keeps its minutes.
describe.skipIf(Boolean(process.env.TEST_DATABASE_URL))(
  `${EDITS} diff pushes, each editing 1 % of ${FEATURES.toLocaleString('en')} features`,
  () => {
    it(
      'every version downloads byte-identical to the file the client had',
      async () => {
        const dir = s.file('client');
        await mkdir(dir, { recursive: true });
        const v1 = await timed('v1 of 100,000 features (ogr2ogr, cached)', () =>
          geopackageFromFeatures(s, 'v1', 'trees', features(), 'POINT', { cached: true }),
        );
        const desk = new DiffClient(client, `${ns}/${a.name}`, FILE, dir);
        await timed('A: push v1 whole', () => desk.pushWhole(v1));
        await timed('B: commit whole', () => commitWhole(v1, null, 1));
        versions.set(1, { sha1: sha1(v1), size: v1.length });

        // B's commit of each version runs beside A's next push (B's versions stay in order:
        // each commit waits for the one before); both are done before anything is checked.
        let committing: Promise<void> = Promise.resolve();
        const next = random(30);
        let fids = Array.from({ length: FEATURES }, (_, i) => i + 1);
        let nextFid = FEATURES + 1;
        for (let e = 0; e < EDITS; e++) {
          const v = desk.version + 1;
          const picked = new Set<number>();
          while (picked.size < UPDATES + DELETES) {
            picked.add(fids[Math.floor(next() * fids.length)]!);
          }
          const chosen = [...picked];
          const removed = new Set(chosen.slice(UPDATES));
          const inserted = Array.from({ length: INSERTS }, () => nextFid++);
          const diff = await desk.pushEdit(
            (db) => {
              const update = db.prepare('UPDATE trees SET name = ?, height = ? WHERE fid = ?');
              const remove = db.prepare('DELETE FROM trees WHERE fid = ?');
              const insert = db.prepare(
                'INSERT INTO trees (fid, geom, name, height) SELECT ?, geom, ?, ? FROM trees WHERE fid = ?',
              );
              for (const fid of chosen.slice(0, UPDATES))
                update.run(`checked in v${v}`, v / 10, fid);
              for (const fid of removed) remove.run(fid);
              for (const fid of inserted) insert.run(fid, `planted in v${v}`, 0.5, chosen[0]);
            },
            { keepLive: true },
          );
          fids = fids.filter((fid) => !removed.has(fid)).concat(inserted);
          const [bytes, hash] = [await desk.baseBytes(), await desk.baseSha1()];
          versions.set(v, { sha1: hash, size: bytes.length });
          expect(desk.answered.get(v)).toBe(hash);
          const previous = committing;
          committing = previous.then(() =>
            timed('B: commit whole (beside A)', () => commitWhole(bytes, diff, v)),
          );
          // A failed commit fails the test where it is awaited, not as an unhandled rejection.
          committing.catch(() => undefined);
        }
        await committing;
        expect(desk.version).toBe(EDITS + 1);
        for (const [step, ms] of desk.spent) spent.set(`A: ${step} (${EDITS} pushes)`, ms);

        // Whole copies placed (the latest's copy due), then every version, from a cold cache.
        await timed('A: file store work, copies placed', async () => {
          await fileStoreWorkIdle(t.app.ctx);
          t.clock.advance(t.config.versionCopyDelayMs + 1000);
          await runFileStoreTasks(t.app.ctx);
        });
        await fileCacheOf(t.app.ctx).clear();
        await timed(`A: download ${EDITS + 1} versions, cold`, async () => {
          for (const [version, expected] of versions) {
            const bytes = await download(a, version);
            expect(sha1(bytes), `v${version}`).toBe(expected.sha1);
          }
        });
      },
      SLOW,
    );

    it('keeps at most 0.1 of the versions whole in the blob store', async () => {
      const whole = [...versions.values()].reduce((sum, v) => sum + v.size, 0);
      const kept = await storedBytes(a);
      console.log(
        `     stored ${(kept / 2 ** 20).toFixed(1)} MiB for ${versions.size} versions of ${(whole / 2 ** 20).toFixed(1)} MiB: ${(kept / whole).toFixed(3)}`,
      );
      expect(kept / whole).toBeLessThanOrEqual(0.1);
      // The same versions stored whole keep them all.
      expect(await storedBytes(b)).toBeGreaterThan(whole);
    });

    it(
      'answers map, changeset, compare and restore of v1, v100 and v200 as with whole copies',
      () =>
        timed('A and B: map, changeset, compare, restore', async () => {
          await changesetWorkIdle(t.app.ctx);
          await fileCacheOf(t.app.ctx).clear();
          const get = async (project: Project, path: string) => {
            const response = await client.get(path.replaceAll('{p}', `${ns}/${project.name}`));
            expect(response.statusCode, `${path}: ${response.body}`).toBe(200);
            return response;
          };
          const file = encodeURIComponent(FILE);
          const same = async (path: string, asBytes = false) => {
            const [x, y] = [await get(a, path), await get(b, path)];
            if (asBytes) expect(x.rawPayload.equals(y.rawPayload), path).toBe(true);
            else expect(x.json(), path).toEqual(y.json());
          };
          for (const v of [1, 100, 200]) {
            const q = `file=${file}&version=v${v}`;
            await same(`/app/map/{p}/layers?${q}`);
            await same(`/app/map/{p}/features/trees?${q}&page=2&per_page=50`);
            await same(`/app/map/{p}/tiles/trees/5/16/15.mvt?${q}`, true);
            if (v > 1) await same(`/v1/resource/changesets/{p}/v${v}?path=${file}`);
          }
          await same(`/app/project/compare/{p}?from=v1&to=v200`);
          await same(`/app/project/compare/{p}/rows?from=v1&to=v100&path=${file}&per_page=200`);
          await same(`/app/project/compare/{p}/rows?from=v100&to=v200&path=${file}&per_page=200`);

          for (const v of [1, 100]) {
            const answers = [];
            for (const project of [a, b]) {
              const restored = await client.post(
                `/app/project/restore-file/${ns}/${project.name}`,
                {
                  version: `v${v}`,
                  path: FILE,
                },
              );
              expect(restored.statusCode, restored.body).toBe(201);
              answers.push(restored.json());
              const body = restored.json() as { version: string };
              const bytes = await download(project, Number(body.version.slice(1)));
              expect(sha1(bytes)).toBe(versions.get(v)!.sha1);
            }
            expect(answers[0]).toEqual(answers[1]);
          }
        }),
      SLOW,
    );
  },
);
