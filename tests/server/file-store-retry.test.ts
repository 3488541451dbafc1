/**
 * A rebuild a person waits for (a download of an old version) runs on the sandbox's
 * interactive lane; when it passes that lane's time budget, the half-applied file is dropped
 * and the rebuild starts again from its whole copy on the background lane
 * (services/file-store/rebuild.ts `rebuildInto`): the reader still gets the exact bytes, and
 * the log says what happened. Any other verdict (memory) is not retried: a clean 422.
 *
 * The budget is passed deterministically: geodiff/run.ts is wrapped so that the first
 * interactive apply of a chain is stopped as the sandbox stops work over its time budget
 * (after half of its diffs were applied, so the retry must start from the whole copy again).
 * The versions have no page patches (as versions stored before patches, or whose patch was
 * never made): a rebuild through patches applies no diff.
 */
import { mkdir, readFile } from 'node:fs/promises';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { hashPassword } from '../../server/src/auth/passwords';
import { insertUser } from '../../server/src/db/queries/users';
import { blobs, projectMembers, type Project, type User } from '../../server/src/db/schema';
import { applyChangesets } from '../../server/src/geodiff/apply';
import type * as Run from '../../server/src/geodiff/run';
import { WorkTooHeavyError, type WorkLane } from '../../server/src/lib/sandbox';
import { changesetWorkIdle } from '../../server/src/services/changesets';
import {
  fileCacheOf,
  fileStoreWorkIdle,
  runFileStoreTasks,
} from '../../server/src/services/file-store';
import { mapWarmIdle } from '../../server/src/services/map/warm';
import { DiffClient, sha1 } from './support/diff-client';
import { geopackageFromFeatures, pointFeatures, scratch, type Scratch } from './support/geopackage';
import { createProject } from './support/seed';
import { createTestApp, type TestApp, type TestClient } from './support/test-app';

/**
 * What the wrapped runGeodiffWork does to the next interactive apply of a chain, and the lanes
 * of the applies made on the file it stopped (other work of the server, such as the changesets
 * job reading an old version, may rebuild other files meanwhile: their lanes are not counted).
 */
const fault: {
  next: 'time' | 'memory' | null;
  file: string | null;
  calls: { lane: WorkLane; file: string; diffs: number }[];
  readonly lanes: WorkLane[];
} = {
  next: null,
  file: null,
  calls: [],
  get lanes() {
    return this.calls.filter((call) => call.file === this.file).map((call) => call.lane);
  },
};

vi.mock('../../server/src/geodiff/run', async (importOriginal) => {
  const original = await importOriginal<typeof Run>();
  const runGeodiffWork: typeof original.runGeodiffWork = async (ctx, request, call) => {
    if (request.kind === 'apply-chain') {
      fault.calls.push({ lane: call.lane, file: request.file, diffs: request.diffs.length });
      if (call.lane === 'interactive' && fault.next) {
        const reason = fault.next;
        fault.next = null;
        fault.file = request.file;
        // Stopped midway, as the sandbox stops work over its budget: part of the chain applied.
        const half = request.diffs.slice(0, Math.max(1, Math.floor(request.diffs.length / 2)));
        applyChangesets(request.file, await Promise.all(half.map((d) => readFile(d))), {
          stable: true,
        });
        throw new WorkTooHeavyError(reason);
      }
    }
    return original.runGeodiffWork(ctx, request, call);
  };
  return { ...original, runGeodiffWork };
});

const PASSWORD = 'Field-Password-1';
const FILE = 'survey/trees.gpkg';

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
  // The patches the rebuilds had made meanwhile.
  if (t) await fileStoreWorkIdle(t.app.ctx);
  await t?.close();
  await s?.cleanup();
});

beforeEach(() => {
  fault.next = null;
  fault.file = null;
  fault.calls = [];
  logged.length = 0;
});

/** A project whose file was pushed whole at v1, then changed by `edits` diff pushes. */
async function projectWithDiffs(edits: number) {
  const project: Project = await createProject(t, { name: `retry${++count}`, creatorId: alice.id });
  await t.database.db
    .insert(projectMembers)
    .values({ projectId: project.id, userId: alice.id, role: 'owner' });
  const dir = s.file(`client-${project.name}`);
  await mkdir(dir, { recursive: true });
  const desk = new DiffClient(client, `${ns}/${project.name}`, FILE, dir);
  await desk.pushWhole(v1);
  const versions = new Map<number, Buffer>([[1, v1]]);
  for (let i = 0; i < edits; i++) {
    const v = desk.version + 1;
    await desk.pushEdit(
      `UPDATE trees SET name = 'checked in ${project.name} v${v}' WHERE fid % 89 = ${v % 89};
       DELETE FROM trees WHERE fid = ${200 + v};
       INSERT INTO trees (fid, geom, name, height) SELECT ${6000 + v}, geom, 'new in v${v}', ${v} FROM trees WHERE fid = 9;`,
    );
    versions.set(desk.version, await desk.baseBytes());
  }
  // The map's warm-up of each pushed version rebuilds it on the interactive lane: it must be
  // over before a fault is armed, or it takes the fault meant for the download (a busy machine).
  await mapWarmIdle(t.app.ctx);
  // The latest written whole, as its delay passed; the cache emptied: old versions are cold.
  await fileStoreWorkIdle(t.app.ctx);
  t.clock.advance(t.config.versionCopyDelayMs + 1000);
  await runFileStoreTasks(t.app.ctx);
  await changesetWorkIdle(t.app.ctx);
  // Rebuilt by applying their diffs: versions without page patches (stored before patches
  // existed, or whose patch was never made; patched versions apply no diff).
  await t.database.db.update(blobs).set({ patchKey: null });
  await fileCacheOf(t.app.ctx).clear();
  fault.calls = [];
  logged.length = 0;
  return { project, versions };
}

const download = (project: Project, version: number) =>
  client.get(
    `/v1/project/raw/${ns}/${project.name}?file=${encodeURIComponent(FILE)}&version=v${version}&diff=False`,
  );

describe('a rebuild over the interactive budget', () => {
  it('starts again from the whole copy in the background and serves the exact bytes', async () => {
    const { project, versions } = await projectWithDiffs(4);
    fault.next = 'time';
    const response = await download(project, 4);
    expect(response.statusCode, response.body).toBe(200);
    expect(sha1(response.rawPayload)).toBe(sha1(versions.get(4)!));
    // Stopped on the interactive lane, then done whole on the background lane.
    expect(fault.lanes).toEqual(['interactive', 'background']);
    expect(logged.join('')).toContain(
      'A rebuild passed the interactive budget; started again in the background',
    );
    // Kept in the cache like any rebuild: the next read is warm (no apply of this chain).
    const chain = fault.calls.find((call) => call.file === fault.file)!.diffs;
    fault.calls = [];
    const again = await download(project, 4);
    expect(sha1(again.rawPayload)).toBe(sha1(versions.get(4)!));
    expect(fault.calls.filter((call) => call.diffs === chain)).toEqual([]);
  });

  it('is not retried when it passed its memory budget: a clean 422, nothing cached', async () => {
    const { project, versions } = await projectWithDiffs(3);
    fault.next = 'memory';
    const response = await download(project, 3);
    expect(response.statusCode).toBe(422);
    expect(fault.lanes).toEqual(['interactive']);
    expect(logged.join('')).not.toContain('started again in the background');
    // Nothing half-applied was kept: the next read rebuilds and gets the exact bytes.
    const again = await download(project, 3);
    expect(again.statusCode, again.body).toBe(200);
    expect(sha1(again.rawPayload)).toBe(sha1(versions.get(3)!));
  });
});
