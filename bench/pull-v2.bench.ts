// The v2 pull of a GeoPackage through 50 versions, with the real server on an embedded
// database. The layer holds 100,000 point features (made by GDAL's ogr2ogr); each version edits
// 1 % of them (1,000: 800 attribute updates, 100 inserts, 100 deletes), drawn from a work area
// of 10 % of the layer, as field crews revisit the features of their area. Every version is
// committed with its diff made by the project's own geodiff code (geodiff/create.ts), as a
// push with diffs commits it.
//
// A client at v1 pulls v51 the v2 way: GET …/delta?since=v1, then each diff it lists from
// GET …/raw/diff/<id> (one merged diff, built by geodiff/concat.ts and cached). Reported:
// - bytes transferred (delta JSON + diff bodies) divided by the file's size: target ≤ 0.1;
//   the 50 separate diffs a v1 pull would fetch are printed for comparison;
// - time of the (warm) v2 pull against downloading the file whole from /v1/project/raw,
//   measured alternately in the same run (target ≤ 1×); the first, cold pull (merging the 50
//   diffs) is printed too.
import { copyFile, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import Database from 'better-sqlite3';
import { insertProjectWithInitialVersion } from '../server/src/db/queries/projects';
import { createChangeset } from '../server/src/geodiff/create';
import { registerSpatialFunctions } from '../server/src/geodiff/st-functions';
import type { RunningServer } from '../server/src/main';
import { commitVersion, type CommitFile } from '../server/src/services/versions';
import { feature, geopackage } from './changeset.bench';
import { measure, ratioResult, report, type BenchResult } from './harness';
import { signedInCookie, startBenchServer } from './session';

const FEATURES = 100_000;
const VERSIONS = 50;
const UPDATES = 800;
const INSERTS = 100;
const DELETES = 100;
/** Features a version may edit: the first 10 % of the layer. */
const WORK_AREA = FEATURES / 10;
const FILE = 'survey/trees.gpkg';

/** A small deterministic generator, so every run edits the same rows. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state * 1664525 + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

/** Edits 1 % of the features of the work area in `file` (version `v`). */
function edit(file: string, v: number, next: () => number, nextFid: { value: number }): void {
  const db = new Database(file);
  registerSpatialFunctions(db);
  try {
    const present = db
      .prepare('SELECT fid FROM trees WHERE fid <= ?')
      .pluck()
      .all(WORK_AREA) as number[];
    const pick = (count: number) => {
      const chosen = new Set<number>();
      while (chosen.size < count) chosen.add(present[Math.floor(next() * present.length)]!);
      return [...chosen];
    };
    const picked = pick(UPDATES + DELETES);
    const update = db.prepare('UPDATE trees SET height = ?, name = ? WHERE fid = ?');
    const remove = db.prepare('DELETE FROM trees WHERE fid = ?');
    const insert = db.prepare(
      `INSERT INTO trees (fid, geom, name, height) SELECT ?, geom, ?, ? FROM trees WHERE fid = ?`,
    );
    db.transaction(() => {
      for (const fid of picked.slice(0, UPDATES)) {
        update.run(Math.round(next() * 400) / 10, `checked in v${v}`, fid);
      }
      for (const fid of picked.slice(UPDATES)) remove.run(fid);
      for (let i = 0; i < INSERTS; i++) {
        // New features get new ids, at the place of an edited one.
        insert.run(nextFid.value++, `planted in v${v}`, 0.5, picked[0]);
      }
    })();
  } finally {
    db.close();
  }
}

interface Built {
  projectId: string;
  fileSize: number;
  /** Bytes of the 50 separate diffs. */
  diffBytes: number;
}

async function buildVersions(server: RunningServer, dir: string): Promise<Built> {
  const { blobStore } = server.app.ctx;
  const db = server.database.db;
  const project = await insertProjectWithInitialVersion(db, {
    workspaceId: 1,
    name: 'pull survey',
    public: false,
    creatorId: 1,
    at: new Date(),
    userAgent: 'bench',
    ip: null,
    deviceId: null,
  });
  const put = async (bytes: Buffer): Promise<CommitFile> => {
    const blob = await blobStore.put(Readable.from([bytes]));
    return { path: FILE, size: blob.size, checksum: blob.sha1, blobKey: blob.key };
  };

  const features = Array.from({ length: FEATURES }, (_, i) => feature(i + 1));
  const current = await geopackage(dir, 'v1', features);
  const previous = join(dir, 'previous.gpkg');
  const added = await put(await readFile(current));
  await db.transaction((tx) =>
    commitVersion(tx, { project, author: { id: 1 }, added: [added], at: new Date(), blobStore }),
  );
  const next = random(17);
  const nextFid = { value: FEATURES + 1 };
  let diffBytes = 0;
  for (let v = 2; v <= VERSIONS + 1; v++) {
    await copyFile(current, previous);
    edit(current, v, next, nextFid);
    const diff = Buffer.from(createChangeset(previous, current));
    diffBytes += diff.length;
    const file = await put(await readFile(current));
    const diffBlob = await blobStore.put(Readable.from([diff]));
    await db.transaction((tx) =>
      commitVersion(tx, {
        project,
        author: { id: 1 },
        updated: [
          {
            ...file,
            diff: {
              path: `${FILE}-diff-v${v}`,
              size: diffBlob.size,
              checksum: diffBlob.sha1,
              blobKey: diffBlob.key,
            },
          },
        ],
        at: new Date(),
        blobStore,
      }),
    );
  }
  return { projectId: project.id, fileSize: (await stat(current)).size, diffBytes };
}

async function body(response: Response): Promise<number> {
  if (!response.ok || !response.body) throw new Error(`${response.url}: ${response.status}`);
  let bytes = 0;
  for await (const chunk of response.body) bytes += chunk.byteLength;
  return bytes;
}

/** The python client's v2 pull from v1: delta, then every diff listed; bytes received. */
async function pullV2(base: string, cookie: string, projectId: string): Promise<number> {
  const headers = { cookie };
  const deltaResponse = await fetch(`${base}/v2/projects/${projectId}/delta?since=v1`, {
    headers,
  });
  const text = await deltaResponse.text();
  if (!deltaResponse.ok) throw new Error(`delta: ${deltaResponse.status} ${text}`);
  let bytes = Buffer.byteLength(text);
  const delta = JSON.parse(text) as { items: { change: string; diffs: { id: string }[] }[] };
  const ids = delta.items.flatMap((item) => item.diffs.map((diff) => diff.id));
  if (ids.length !== 1) throw new Error(`expected one merged diff, got ${ids.length}`);
  for (const id of ids) {
    const path = id.split('/').map(encodeURIComponent).join('/');
    bytes += await body(
      await fetch(`${base}/v2/projects/${projectId}/raw/diff/${path}`, { headers }),
    );
  }
  return bytes;
}

async function downloadWhole(base: string, cookie: string): Promise<number> {
  const query = `file=${encodeURIComponent(FILE)}&version=v${VERSIONS + 1}`;
  return body(
    await fetch(`${base}/v1/project/raw/waymark/pull%20survey?${query}`, { headers: { cookie } }),
  );
}

export async function benchPullV2(): Promise<BenchResult[]> {
  const { server, dataDir, close } = await startBenchServer('pull-v2', 18491);
  try {
    let t = performance.now();
    const built = await buildVersions(server, dataDir);
    const buildMs = performance.now() - t;
    const cookie = await signedInCookie(server);
    const base = `http://127.0.0.1:${server.port}`;

    t = performance.now();
    const transferred = await pullV2(base, cookie, built.projectId);
    const coldMs = performance.now() - t;
    const whole = await downloadWhole(base, cookie);
    if (whole !== built.fileSize) throw new Error(`whole download: ${whole} of ${built.fileSize}`);

    const MB = (n: number) => `${(n / 2 ** 20).toFixed(2)} MiB`;
    console.log(
      `     ${VERSIONS} versions built in ${(buildMs / 1000).toFixed(1)} s; file ${MB(built.fileSize)}, ` +
        `${VERSIONS} separate diffs ${MB(built.diffBytes)} (${(built.diffBytes / built.fileSize).toFixed(3)} of the file), ` +
        `v2 pull ${MB(transferred)}; cold pull (merging) ${coldMs.toFixed(0)} ms`,
    );
    const ratio = transferred / built.fileSize;
    const bytesResult: BenchResult = {
      ...ratioResult('v2 pull of 50 versions: bytes / file size', built.fileSize, transferred, 0.1),
      detail: `${transferred} of ${built.fileSize} bytes = ${ratio.toFixed(3)} (target ≤ 0.1)`,
    };
    const timeResult = await measure(
      'v2 pull of 50 versions (warm) vs downloading the file whole',
      async () => {
        await downloadWhole(base, cookie);
      },
      async () => {
        await pullV2(base, cookie, built.projectId);
      },
      1,
    );
    return [bytesResult, timeResult];
  } finally {
    await close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) report(await benchPullV2());
