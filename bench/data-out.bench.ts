// Data out (issue 32), with the real server over HTTP on an embedded database. GeoPackages
// with one point layer (rtree index; a text, a real, an integer and a date column): 1,000 and
// 100,000 features in EPSG:2180, and 100,000 in WGS 84. Reported:
// - the GeoJSON export of a 100,000-feature layer (GET /app/export/…?format=geojson, the
//   answer written to a file as a browser saves it) against ogr2ogr converting the same
//   GeoPackage layer to GeoJSON, median of alternate runs, target ≤ 1: the WGS 84 layer
//   against plain `ogr2ogr -f GeoJSON`, the EPSG:2180 one against `-lco RFC7946=YES` (the
//   same work as the export: reprojected to WGS 84, polygons wound by the right-hand rule);
//   and what one export adds to memory: the peak RSS growth of the server process and of
//   the sandbox process writing the file, target < 100 MB each;
// - OGC API - Features items pages (limit 100, at random depths through `cursor`, every
//   other one with a bbox of about 1 % of the layer's area), asked alternately of the
//   EPSG:2180 layers: p95 with 100,000 features divided by p95 with 1,000, target ≤ 2.
import { execFile } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import { readdir, readFile, rm, stat } from 'node:fs/promises';
import { getPriority } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import { pipeline } from 'node:stream/promises';
import { promisify } from 'node:util';
import { OGR2OGR } from '../tests/server/support/geopackage';
import { writeGeoPackage, type TestLayer } from '../tests/server/support/map-geopackage';
import { residentBytes } from '../server/src/lib/sandbox/memory';
import { CHILD_NICE } from '../server/src/lib/sandbox/runner';
import { limitResult, measure, percentile, ratioResult, report, type BenchResult } from './harness';
import { commitFile } from './map.bench';
import { signedInCookie, startBenchServer } from './session';

const run = promisify(execFile);
const PORT = Number(process.env.BENCH_PORT ?? 18503);
const FILE = 'survey/points.gpkg';
const LAYER = 'points';
const LARGE = 100_000;
const SMALL = 1_000;
/** Pages asked of each layer. */
const PAGES = Number(process.env.BENCH_OGC_PAGES ?? 300);
const PAGE_LIMIT = 100;
const MEMORY_LIMIT_MB = 100;
/** EPSG:2180 (x easting, y northing), about Poland. */
const AREA: [number, number, number, number] = [180_000, 150_000, 850_000, 770_000];
const AREA_LON_LAT: [number, number, number, number] = [14.5, 49.2, 24, 54.8];

/**
 * `count` points in a grid over AREA (EPSG:2180) or over the same area in lon/lat (EPSG:4326),
 * with a text, a real, an integer and a date column.
 */
function layer(count: number, srsId: 2180 | 4326): TestLayer {
  const side = Math.ceil(Math.sqrt(count));
  const [west, south, east, north] = srsId === 2180 ? AREA : AREA_LON_LAT;
  return {
    name: LAYER,
    srsId,
    type: 'POINT',
    rtree: true,
    columns: { name: 'TEXT', height: 'REAL', visits: 'INTEGER', surveyed: 'DATE' },
    rows: Array.from({ length: count }, (_, i) => ({
      fid: i + 1,
      geometry: {
        point: [
          west + ((east - west) * ((i % side) + 0.5)) / side,
          south + ((north - south) * (Math.floor(i / side) + 0.5)) / side,
        ],
      },
      values: {
        name: `point ${i + 1}`,
        height: 100 + (i % 977) / 7,
        visits: i % 13,
        surveyed: `2026-${String((i % 12) + 1).padStart(2, '0')}-${String((i % 28) + 1).padStart(2, '0')}`,
      },
    })),
  };
}

interface Client {
  base: string;
  cookie: string;
}

async function fetchOk(client: Client, url: string): Promise<Response> {
  const response = await fetch(`${client.base}${url}`, { headers: { cookie: client.cookie } });
  if (!response.ok || !response.body) {
    throw new Error(`${url}: ${response.status} ${await response.text()}`);
  }
  return response;
}

/** The processes started by this one (the sandbox's), and theirs. */
async function descendants(pid = process.pid): Promise<number[]> {
  const found: number[] = [];
  const tasks = await readdir(`/proc/${pid}/task`).catch(() => [] as string[]);
  for (const task of tasks) {
    const text = await readFile(`/proc/${pid}/task/${task}/children`, 'utf8').catch(() => '');
    for (const child of text.split(/\s+/).filter(Boolean).map(Number)) {
      found.push(child, ...(await descendants(child)));
    }
  }
  return found;
}

/** Resident bytes of each of the processes. */
async function residents(pids: number[]): Promise<Map<number, number>> {
  const sizes = new Map<number, number>();
  for (const pid of pids) {
    const bytes = await residentBytes(pid);
    if (bytes !== null) sizes.set(pid, bytes);
  }
  return sizes;
}

const MB = 2 ** 20;

export async function benchDataOut(): Promise<BenchResult[]> {
  const { server, dataDir, close } = await startBenchServer('data-out', PORT);
  try {
    const files = {
      small: layer(SMALL, 2180),
      large: layer(LARGE, 2180),
      'large-wgs84': layer(LARGE, 4326),
    };
    for (const [name, content] of Object.entries(files)) {
      const path = join(dataDir, `${name}.gpkg`);
      writeGeoPackage(path, [content]);
      await commitFile(server, name, FILE, await readFile(path));
    }
    const client: Client = {
      base: `http://127.0.0.1:${server.port}`,
      cookie: await signedInCookie(server),
    };
    // The sandbox process and the server's copies of the files, warm.
    await fetchOk(client, exportUrl('small')).then((r) => r.arrayBuffer());
    return [
      ...(await exportResults(client, dataDir, 'large-wgs84', [])),
      ...(await exportResults(client, dataDir, 'large', ['-lco', 'RFC7946=YES'])),
      await ogcResult(client),
    ];
  } finally {
    await close();
  }
}

const exportUrl = (name: string) =>
  `/app/export/waymark/${name}/${LAYER}?file=${encodeURIComponent(FILE)}&version=v1&format=geojson`;

/**
 * The export of project `name`'s layer against ogr2ogr converting the same GeoPackage with
 * `options` (a layer in WGS 84: none, the same lon/lat either way; a projected one:
 * RFC7946=YES, which reprojects and winds as the export does), then its memory.
 */
async function exportResults(
  client: Client,
  dataDir: string,
  name: string,
  options: string[],
): Promise<BenchResult[]> {
  const source = join(dataDir, `${name}.gpkg`);
  const ogrOut = join(dataDir, 'ogr2ogr.geojson');
  const ourOut = join(dataDir, 'export.geojson');
  const label = `GeoJSON export of ${LARGE.toLocaleString('en')} features (${name === 'large' ? 'EPSG:2180' : 'WGS 84'})`;

  // ogr2ogr at the sandbox's niceness: on a busy machine the export's writer (a sandbox
  // process, CHILD_NICE) and the baseline get the same share of the cores.
  const nice = Math.max(0, CHILD_NICE - getPriority());
  const ogr2ogrArgs = ['-f', 'GeoJSON', ...options, ogrOut, source, LAYER];
  const ogr2ogr = async () => {
    await rm(ogrOut, { force: true });
    await run('nice', ['-n', String(nice), OGR2OGR, ...ogr2ogrArgs]);
  };
  let features = 0;
  const download = async () => {
    const response = await fetchOk(client, exportUrl(name));
    features = Number(response.headers.get('x-feature-count'));
    await pipeline(
      Readable.fromWeb(response.body as WebReadableStream<Uint8Array>),
      createWriteStream(ourOut),
    );
  };

  // Both sides once (the file in the page cache; the server's copy of it and its layers).
  await ogr2ogr();
  await download();
  if (features !== LARGE) throw new Error(`export: ${features} features, not ${LARGE}`);
  const ogrCount = (JSON.parse(await readFile(ogrOut, 'utf8')) as { features: unknown[] }).features
    .length;
  if (ogrCount !== LARGE) throw new Error(`ogr2ogr wrote ${ogrCount} features`);
  const [ourSize, ogrSize] = await Promise.all([stat(ourOut), stat(ogrOut)]);
  const time = await measure(
    `${label} vs ogr2ogr ${['-f GeoJSON', ...options].join(' ')}`,
    ogr2ogr,
    download,
    1,
  );
  const memory = await watchMemory(download);
  const cpu = await exportCpu(download);
  await rm(ogrOut, { force: true });
  const ogrCpu = await commandCpu(OGR2OGR, ogr2ogrArgs);
  console.log(
    `     ${label}: ${(ourSize.size / MB).toFixed(1)} MiB, ogr2ogr's ${(ogrSize.size / MB).toFixed(1)} MiB; ` +
      `CPU ${cpu.sandboxMs + cpu.serverMs} ms (sandbox ${cpu.sandboxMs}, server process ${cpu.serverMs}), ogr2ogr's ${ogrCpu} ms; ` +
      `server RSS ${(memory.serverBefore / MB).toFixed(0)} MB + peak ${(memory.serverGrowth / MB).toFixed(1)} MB (heap + ${(memory.heapGrowth / MB).toFixed(1)} MB), ` +
      `sandbox RSS ${(memory.sandboxBefore / MB).toFixed(0)} MB + peak ${(memory.sandboxGrowth / MB).toFixed(1)} MB`,
  );
  const growth = (process: string, bytes: number) =>
    limitResult(
      `${label}: ${process} peak RSS growth`,
      bytes / MB,
      MEMORY_LIMIT_MB,
      `${(bytes / MB).toFixed(1)} MB (target < ${MEMORY_LIMIT_MB} MB)`,
    );
  return [
    time,
    { ...growth('server process', memory.serverGrowth), ok: memory.serverGrowth / MB < 100 },
    { ...growth('sandbox process', memory.sandboxGrowth), ok: memory.sandboxGrowth / MB < 100 },
  ];
}

interface MemoryFigures {
  serverBefore: number;
  serverGrowth: number;
  heapGrowth: number;
  sandboxBefore: number;
  sandboxGrowth: number;
}

/**
 * Runs `work` while sampling every 20 ms the resident memory of this process (the server's)
 * and of the sandbox processes: each one's peak growth over what it held before.
 */
async function watchMemory(work: () => Promise<void>): Promise<MemoryFigures> {
  global.gc?.();
  const serverBefore = process.memoryUsage().rss;
  const heapBefore = process.memoryUsage().heapUsed;
  const children = await descendants();
  const before = await residents(children);
  let serverPeak = serverBefore;
  let heapPeak = heapBefore;
  const peaks = new Map(before);
  let sampling = Promise.resolve();
  const sample = async () => {
    const usage = process.memoryUsage();
    serverPeak = Math.max(serverPeak, usage.rss);
    heapPeak = Math.max(heapPeak, usage.heapUsed);
    // A process started meanwhile counts from nothing.
    for (const [pid, bytes] of await residents(await descendants())) {
      peaks.set(pid, Math.max(peaks.get(pid) ?? 0, bytes));
    }
  };
  const timer = setInterval(() => {
    sampling = sampling.then(sample);
  }, 20);
  try {
    await work();
  } finally {
    clearInterval(timer);
    await sampling;
  }
  if (peaks.size === 0) throw new Error('no sandbox process seen during the export');
  let sandboxBefore = 0;
  let sandboxGrowth = 0;
  for (const [pid, peak] of peaks) {
    const growth = peak - (before.get(pid) ?? 0);
    if (growth > sandboxGrowth) {
      sandboxGrowth = growth;
      sandboxBefore = before.get(pid) ?? 0;
    }
  }
  return {
    serverBefore,
    serverGrowth: serverPeak - serverBefore,
    heapGrowth: heapPeak - heapBefore,
    sandboxBefore,
    sandboxGrowth,
  };
}

const TICK_MS = 10; // Linux's clock ticks (USER_HZ 100)

/** User + system CPU of a process (or of its waited-for children) in ms, from /proc/…/stat. */
function statCpu(stat: string, children = false): number {
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // Fields 14-17 of proc(5): utime, stime, cutime, cstime (fields[0] is field 3).
  const [user, system] = children ? [fields[13], fields[14]] : [fields[11], fields[12]];
  return (Number(user) + Number(system)) * TICK_MS;
}

/** CPU time one export takes: the sandbox processes' and this (the server's) process's. */
async function exportCpu(
  work: () => Promise<void>,
): Promise<{ sandboxMs: number; serverMs: number }> {
  const cpuOf = async (pids: number[]) => {
    let total = 0;
    for (const pid of pids) {
      total += statCpu(await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => ''));
    }
    return total;
  };
  const pids = await descendants();
  const before = await cpuOf(pids);
  const server = process.cpuUsage();
  await work();
  const used = process.cpuUsage(server);
  return {
    sandboxMs: (await cpuOf(pids)) - before,
    serverMs: Math.round((used.user + used.system) / 1000),
  };
}

/** CPU time of a command, as the shell that waited for it counts its children's. */
async function commandCpu(command: string, args: string[]): Promise<number> {
  const { stdout } = await run('sh', [
    '-c',
    '"$@" >/dev/null && cat /proc/$$/stat',
    'sh',
    command,
    ...args,
  ]);
  return statCpu(stdout, true);
}

/** A small random generator (the same pages every run). */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
    return state / 2 ** 31;
  };
}

async function ogcResult(client: Client): Promise<BenchResult> {
  const next = random(32);
  const itemsUrl = (name: string, count: number, i: number) => {
    const params = new URLSearchParams({ f: 'json', limit: String(PAGE_LIMIT) });
    // Every fifth page is the first one; the others start at a random depth.
    if (i % 5 !== 0) params.set('cursor', String(Math.floor(next() * (count - PAGE_LIMIT))));
    if (i % 2 === 1) {
      // About 1 % of the layer's area, in lon/lat, somewhere inside it.
      const lon = 15 + next() * 8;
      const lat = 49.5 + next() * 4.5;
      params.set('bbox', [lon, lat, lon + 0.7, lat + 0.4].map((v) => v.toFixed(4)).join(','));
    }
    return `/ogc/waymark/${name}/v1/collections/${LAYER}/items?${params}`;
  };
  const page = async (name: string, count: number, i: number): Promise<number> => {
    const url = itemsUrl(name, count, i);
    const t = performance.now();
    const response = await fetchOk(client, url);
    const doc = (await response.json()) as { numberReturned: number };
    const ms = performance.now() - t;
    if (doc.numberReturned === 0 && i % 2 === 0) throw new Error(`${url}: an empty page`);
    return ms;
  };
  // Warm both (the collections, the sandbox's first opening of each file).
  for (let i = 0; i < 10; i++) {
    await page('small', SMALL, i);
    await page('large', LARGE, i);
  }
  const smallTimes: number[] = [];
  const largeTimes: number[] = [];
  for (let i = 0; i < PAGES; i++) {
    smallTimes.push(await page('small', SMALL, i));
    largeTimes.push(await page('large', LARGE, i));
  }
  const p95Small = percentile(smallTimes, 95);
  const p95Large = percentile(largeTimes, 95);
  console.log(
    `     ${PAGES} OGC items pages each (limit ${PAGE_LIMIT}, half with a bbox): p50 ${percentile(smallTimes, 50).toFixed(1)} / ${percentile(largeTimes, 50).toFixed(1)} ms, ` +
      `max ${Math.max(...smallTimes).toFixed(0)} / ${Math.max(...largeTimes).toFixed(0)} ms (1,000 / 100,000 features)`,
  );
  return ratioResult('OGC API items page p95: 100,000 features vs 1,000', p95Small, p95Large, 2);
}

if (import.meta.url === `file://${process.argv[1]}`) report(await benchDataOut());
