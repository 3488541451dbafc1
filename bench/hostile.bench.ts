// A bystander while hostile files are read (issue 29): the real server over HTTP on an
// embedded database, with the default budgets (FILE_WORK_*). A public project holds files
// that attack the reader: GeoPackages whose layer list never ends (each a new content, so no
// verdict answers for them) and polygons of 1,000,000 vertices (seconds per tile). Anonymous
// attackers ask for those without pause, three at a time. Meanwhile a signed-in bystander
// asks, one after another: /ping, its project list, and its own map (the layers, attribute
// pages and polygon tiles of an ordinary GeoPackage, each a new request for the sandbox).
// Reported: the bystander's p95 under attack, against the same requests without attack
// (printed), with the target ≤ 500 ms.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { insertProjectWithInitialVersion } from '../server/src/db/queries/projects';
import type { RunningServer } from '../server/src/main';
import { commitVersion, type CommitFile } from '../server/src/services/versions';
import { endlessMetadata, hugePolygon } from '../tests/server/support/hostile-geopackage';
import {
  gridPoints,
  writeGeoPackage,
  type Ring,
  type TestLayer,
} from '../tests/server/support/map-geopackage';
import { percentile, report, type BenchResult } from './harness';
import { signedInCookie, startBenchServer } from './session';

const PORT = Number(process.env.BENCH_PORT ?? 18511);
const ENDLESS_FILES = 12;
const POLYGON_FILES = 2;
const ATTACKERS = 3;
const BYSTANDER_REQUESTS = Number(process.env.BENCH_HOSTILE_REQUESTS ?? 90);
const TARGET_MS = 500;

async function commitFiles(
  server: RunningServer,
  name: string,
  files: Record<string, Buffer>,
  isPublic: boolean,
): Promise<void> {
  const { blobStore } = server.app.ctx;
  const db = server.database.db;
  const created = await insertProjectWithInitialVersion(db, {
    workspaceId: 1,
    name,
    public: isPublic,
    creatorId: 1,
    at: new Date(),
    userAgent: 'bench',
    ip: null,
    deviceId: null,
  });
  const added: CommitFile[] = [];
  for (const [path, bytes] of Object.entries(files)) {
    const blob = await blobStore.put(Readable.from([bytes]));
    added.push({ path, size: blob.size, checksum: blob.sha1, blobKey: blob.key });
  }
  await db.transaction((tx) =>
    commitVersion(tx, { project: created, author: { id: 1 }, added, at: new Date(), blobStore }),
  );
}

/** Squares of `side` × `side` polygons over 14-15°E, 49-50°N. */
function squares(side: number): TestLayer['rows'] {
  const size = 1 / side;
  return Array.from({ length: side * side }, (_, i) => {
    const x = 14 + (i % side) * size;
    const y = 49 + Math.floor(i / side) * size;
    const ring: Ring = [
      [x, y],
      [x + size * 0.9, y],
      [x + size * 0.9, y + size * 0.9],
      [x, y + size * 0.9],
      [x, y],
    ];
    return { fid: i + 1, geometry: { polygon: [ring] }, values: { name: `plot ${i + 1}` } };
  });
}

function tile(lon: number, lat: number, z: number): [number, number, number] {
  const rad = (lat * Math.PI) / 180;
  const n = 2 ** z;
  return [
    z,
    Math.floor(((lon + 180) / 360) * n),
    Math.floor(((1 - Math.log(Math.tan(rad) + 1 / Math.cos(rad)) / Math.PI) / 2) * n),
  ];
}

export async function benchHostile(): Promise<BenchResult[]> {
  const { server, dataDir, close } = await startBenchServer('hostile', PORT);
  try {
    const hostile: Record<string, Buffer> = {};
    for (let i = 0; i < ENDLESS_FILES; i++) {
      const file = join(dataDir, `endless-${i}.gpkg`);
      endlessMetadata(file);
      // Each its own content: a verdict on one does not answer for another.
      const bytes = await readFile(file);
      bytes.writeUInt32BE(i, 60); // the user version: a byte SQLite does not read
      hostile[`endless-${i}.gpkg`] = bytes;
    }
    for (let i = 0; i < POLYGON_FILES; i++) {
      const file = join(dataDir, `coast-${i}.gpkg`);
      hugePolygon(file, 1_000_000 + i);
      hostile[`coast-${i}.gpkg`] = await readFile(file);
    }
    await commitFiles(server, 'hostile', hostile, true);
    const field = join(dataDir, 'field.gpkg');
    writeGeoPackage(field, [
      {
        name: 'wells',
        srsId: 4326,
        type: 'POINT',
        rtree: true,
        columns: { name: 'TEXT' },
        rows: gridPoints(1000, [14, 49, 15, 50]),
      },
      {
        name: 'plots',
        srsId: 4326,
        type: 'POLYGON',
        rtree: true,
        columns: { name: 'TEXT' },
        rows: squares(40),
      },
    ]);
    await commitFiles(server, 'field', { 'field.gpkg': await readFile(field) }, false);

    const base = `http://127.0.0.1:${server.port}`;
    const cookie = await signedInCookie(server);
    const get = async (url: string, headers: Record<string, string> = {}) => {
      const response = await fetch(`${base}${url}`, { headers });
      await response.arrayBuffer();
      return response.status;
    };

    // The bystander: each request a new one for the sandbox where it reads the file.
    let round = 0;
    const fieldMap = '/app/map/waymark/field';
    const fieldQuery = 'file=field.gpkg&version=v1';
    const bystanderRequests = (): string[] => {
      round++;
      const [z, x, y] = tile(14 + ((round * 7) % 100) / 100, 49 + ((round * 3) % 100) / 100, 12);
      return [
        '/ping',
        '/v1/project/paginated?page=1&per_page=25',
        `${fieldMap}/layers?${fieldQuery}`,
        `${fieldMap}/features/plots?${fieldQuery}&page=${(round % 30) + 1}&per_page=50&sort=name`,
        `${fieldMap}/tiles/plots/${z}/${x}/${y}.mvt?${fieldQuery}`,
      ];
    };
    const bystander = async (): Promise<number[]> => {
      const times: number[] = [];
      while (times.length < BYSTANDER_REQUESTS) {
        for (const url of bystanderRequests()) {
          const t = performance.now();
          const status = await get(url, { cookie });
          times.push(performance.now() - t);
          if (status >= 400) throw new Error(`bystander ${url}: ${status}`);
        }
      }
      return times;
    };

    // Warm: the sandbox processes loaded, the field's layers known.
    await bystander();
    const quiet = await bystander();

    let attacking = true;
    let attacks = 0;
    let refused = 0;
    const attacker = async (n: number) => {
      for (let i = n; attacking; i += ATTACKERS) {
        const url =
          i % 2 === 0
            ? `/app/map/waymark/hostile/layers?file=endless-${(i / 2) % ENDLESS_FILES}.gpkg`
            : `/app/map/waymark/hostile/tiles/coast/${tile(14.5, 49.9, 8 + (i % 9)).join('/')}.mvt?file=coast-${i % POLYGON_FILES}.gpkg`;
        const status = await get(url);
        attacks++;
        if (status === 422) refused++;
      }
    };
    const attackers = Array.from({ length: ATTACKERS }, (_, n) => attacker(n));
    // Let the attack take hold of the sandbox before measuring.
    await new Promise((resolve) => setTimeout(resolve, 3000));
    const attacked = await bystander();
    attacking = false;
    await Promise.all(attackers);

    const quietP95 = percentile(quiet, 95);
    const attackedP95 = percentile(attacked, 95);
    console.log(
      `     bystander: ${attacked.length} requests, p50 ${percentile(attacked, 50).toFixed(0)} ms, ` +
        `p95 ${attackedP95.toFixed(0)} ms, max ${Math.max(...attacked).toFixed(0)} ms under attack; ` +
        `p95 ${quietP95.toFixed(0)} ms without; ${attacks} hostile requests answered meanwhile (${refused} with 422)`,
    );
    return [
      {
        name: 'bystander p95 while hostile files are read',
        baselineMs: quietP95,
        candidateMs: attackedP95,
        ratio: attackedP95 / quietP95,
        target: TARGET_MS,
        ok: attackedP95 <= TARGET_MS,
        detail: `${attackedP95.toFixed(0)} ms (without attack ${quietP95.toFixed(0)} ms = ${(attackedP95 / quietP95).toFixed(2)}×; target ≤ ${TARGET_MS} ms)`,
      },
    ];
  } finally {
    await close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) report(await benchHostile());
