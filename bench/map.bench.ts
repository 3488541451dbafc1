// The map's server side (issue 19), with the real server over HTTP on an embedded database.
// Two GeoPackages with one point layer (rtree index) on the same area (14-24°E, 49-55°N):
// 1,000 and 100,000 points. Reported:
// - feature requests: every vector tile of the data's extent at zooms 5-9, each asked once
//   (cold: the first tile of a layer builds its point index), p95 with 100,000 points divided
//   by p95 with 1,000: target ≤ 2;
// - the server's part of the first frame: the layers list, then the tiles of the view that
//   fits the data (zoom 6), six at a time as a browser asks, divided by downloading the
//   100,000-point GeoPackage once from /v1/project/raw: cold (the first opening, which copies
//   the file and builds the index) target ≤ 1, and warm (median of alternate runs) printed;
// - warm tiles: the same tiles of the 100,000-point layer asked again (the tile cache answers,
//   so what is left is the request's own cost: the caller's access and the file), p95 divided
//   by the p95 of as many `GET /ping` with the same cookie: target ≤ 3.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { insertProjectWithInitialVersion } from '../server/src/db/queries/projects';
import type { RunningServer } from '../server/src/main';
import { commitVersion } from '../server/src/services/versions';
import { gridPoints, writeGeoPackage } from '../tests/server/support/map-geopackage';
import { measure, percentile, ratioResult, report, type BenchResult } from './harness';
import { signedInCookie, startBenchServer } from './session';

const AREA: [number, number, number, number] = [14, 49, 24, 55];
const FILE = 'survey/points.gpkg';
const FIT_ZOOM = 6;
const PORT = Number(process.env.BENCH_PORT ?? 18497);

/**
 * Creates a project whose first version holds `bytes` at `path`, committed directly (not
 * pushed: no map warming after it).
 */
export async function commitFile(
  server: RunningServer,
  name: string,
  path: string,
  bytes: Buffer,
): Promise<void> {
  const { blobStore } = server.app.ctx;
  const db = server.database.db;
  const created = await insertProjectWithInitialVersion(db, {
    workspaceId: 1,
    name,
    public: false,
    creatorId: 1,
    at: new Date(),
    userAgent: 'bench',
    ip: null,
    deviceId: null,
  });
  const blob = await blobStore.put(Readable.from([bytes]));
  await db.transaction((tx) =>
    commitVersion(tx, {
      project: created,
      author: { id: 1 },
      added: [{ path, size: blob.size, checksum: blob.sha1, blobKey: blob.key }],
      at: new Date(),
      blobStore,
    }),
  );
}

function tileX(lon: number, z: number): number {
  return Math.floor(((lon + 180) / 360) * 2 ** z);
}
function tileY(lat: number, z: number): number {
  const rad = (lat * Math.PI) / 180;
  return Math.floor(((1 - Math.log(Math.tan(rad) + 1 / Math.cos(rad)) / Math.PI) / 2) * 2 ** z);
}

/** The tiles covering AREA at zoom z. */
function tilesAt(z: number): [number, number, number][] {
  const tiles: [number, number, number][] = [];
  for (let x = tileX(AREA[0], z); x <= tileX(AREA[2], z); x++) {
    for (let y = tileY(AREA[3], z); y <= tileY(AREA[1], z); y++) tiles.push([z, x, y]);
  }
  return tiles;
}

interface Client {
  base: string;
  cookie: string;
}

async function get(client: Client, url: string): Promise<number> {
  const response = await fetch(`${client.base}${url}`, { headers: { cookie: client.cookie } });
  const body = await response.arrayBuffer();
  if (response.status !== 200 && response.status !== 204) {
    throw new Error(`${url}: ${response.status} ${Buffer.from(body).toString()}`);
  }
  return body.byteLength;
}

const query = `file=${encodeURIComponent(FILE)}&version=v1`;
const tileUrl = (name: string, [z, x, y]: [number, number, number]) =>
  `/app/map/waymark/${name}/tiles/points/${z}/${x}/${y}.mvt?${query}`;

/** Every tile of zooms 5-9, once each, one at a time: the time of each request. */
async function tileTimes(client: Client, name: string): Promise<number[]> {
  const times: number[] = [];
  for (let z = 5; z <= 9; z++) {
    for (const tile of tilesAt(z)) {
      const t = performance.now();
      await get(client, tileUrl(name, tile));
      times.push(performance.now() - t);
    }
  }
  return times;
}

/** `GET /ping` `count` times, one at a time: the time of each request. */
async function pingTimes(client: Client, count: number): Promise<number[]> {
  const times: number[] = [];
  for (let n = 0; n < count; n++) {
    const t = performance.now();
    await get(client, '/ping');
    times.push(performance.now() - t);
  }
  return times;
}

/** The layers, then the fitted view's tiles six at a time. */
async function firstFrame(client: Client, name: string): Promise<void> {
  await get(client, `/app/map/waymark/${name}/layers?${query}`);
  const queue = tilesAt(FIT_ZOOM);
  await Promise.all(
    Array.from({ length: 6 }, async () => {
      for (let tile = queue.shift(); tile; tile = queue.shift())
        await get(client, tileUrl(name, tile));
    }),
  );
}

export async function benchMap(): Promise<BenchResult[]> {
  const { server, dataDir, close } = await startBenchServer('map', PORT);
  try {
    const small = join(dataDir, 'small.gpkg');
    const large = join(dataDir, 'large.gpkg');
    const layer = (count: number) => ({
      name: 'points',
      srsId: 4326 as const,
      type: 'POINT' as const,
      rtree: true,
      columns: { name: 'TEXT' },
      rows: gridPoints(count, AREA),
    });
    writeGeoPackage(small, [layer(1_000)]);
    writeGeoPackage(large, [layer(100_000)]);
    await commitFile(server, 'small', FILE, await readFile(small));
    await commitFile(server, 'large', FILE, await readFile(large));
    // Another copy of the large file for the cold first frame (the caches are by content).
    const client: Client = {
      base: `http://127.0.0.1:${server.port}`,
      cookie: await signedInCookie(server),
    };
    const download = () => get(client, `/v1/project/raw/waymark/large?${query}`);
    const fileSize = await download();

    let t = performance.now();
    await download();
    const downloadMs = performance.now() - t;
    t = performance.now();
    await firstFrame(client, 'large');
    const coldMs = performance.now() - t;
    console.log(
      `     100,000 points: file ${(fileSize / 2 ** 20).toFixed(1)} MiB downloaded in ${downloadMs.toFixed(0)} ms; ` +
        `first frame cold ${coldMs.toFixed(0)} ms (${tilesAt(FIT_ZOOM).length} tiles at zoom ${FIT_ZOOM})`,
    );
    const cold = ratioResult(
      'map first frame (cold, server side) vs downloading the GeoPackage once',
      downloadMs,
      coldMs,
      1,
    );
    const warm = await measure(
      'map first frame (warm, server side) vs downloading the GeoPackage once',
      async () => {
        await download();
      },
      () => firstFrame(client, 'large'),
      1,
    );

    const smallTimes = await tileTimes(client, 'small');
    // The large layer's tiles at zooms 5-9 other than the first frame's are still cold.
    const largeTimes = await tileTimes(client, 'large');
    const p95Small = percentile(smallTimes, 95);
    const p95Large = percentile(largeTimes, 95);
    console.log(
      `     ${smallTimes.length} tiles each: p50 ${percentile(smallTimes, 50).toFixed(1)} / ${percentile(largeTimes, 50).toFixed(1)} ms, ` +
        `max ${Math.max(...smallTimes).toFixed(0)} / ${Math.max(...largeTimes).toFixed(0)} ms (1,000 / 100,000 points)`,
    );
    const tiles = ratioResult(
      'map tile request p95: 100,000 points vs 1,000',
      p95Small,
      p95Large,
      2,
    );
    // Every tile asked again: the tile cache answers.
    const warmTimes = await tileTimes(client, 'large');
    const pings = await pingTimes(client, warmTimes.length);
    const p95Warm = percentile(warmTimes, 95);
    const p95Ping = percentile(pings, 95);
    console.log(
      `     warm tiles: p50 ${percentile(warmTimes, 50).toFixed(2)} ms, p95 ${p95Warm.toFixed(2)} ms; ` +
        `GET /ping p50 ${percentile(pings, 50).toFixed(2)} ms, p95 ${p95Ping.toFixed(2)} ms`,
    );
    const warmTiles = ratioResult(
      'map tile request p95, warm (tile cache answers) vs GET /ping',
      p95Ping,
      p95Warm,
      3,
    );
    return [tiles, cold, warm, warmTiles];
  } finally {
    await close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) report(await benchMap());
