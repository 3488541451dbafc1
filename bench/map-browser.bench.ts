// The Map tab in headless Chromium (issue 19): a GeoPackage with a 100,000-point layer, pushed
// to the real server (the app built by Vite with the project's config); the time from opening
// the Map tab to the first drawn frame with features (the map's performance mark), divided by
// the time to download that GeoPackage once in the same run (target ≤ 1). Each round opens the
// tab in a fresh browser context (no HTTP cache, no service worker); the first round also pays
// for the server's first reading of the file, and is printed apart.
// BENCH_MAP_UNWARMED=1: that first reading is of a file no push warmed (committed directly:
// no copy, no point index, no worker yet), as after a restart.
import { createHash, randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from '@playwright/test';
import { build } from 'vite';
import { startServer, type RunningServer } from '../server/src/main';
import { CHUNK_SIZE } from '../server/src/schemas/protocol';
import { FIRST_FEATURES_MARK } from '../src/features/map/model/marks';
import { geopackage, feature } from './changeset.bench';
import { report, type BenchResult } from './harness';
import { LinkProxy } from './link-proxy';
import { commitFile } from './map.bench';
import { BENCH_ADMIN_PASSWORD, adminSession } from './session';

const PORT = Number(process.env.BENCH_PORT ?? 18489);
export const ORIGIN = `http://127.0.0.1:${PORT}`;
const FEATURES = Number(process.env.BENCH_MAP_FEATURES ?? 100_000);
const ROUNDS = Number(process.env.BENCH_MAP_ROUNDS ?? 5);
/** Rounds through the field link (each downloads the file at the link's rate). */
const LINK_ROUNDS = Number(process.env.BENCH_MAP_LINK_ROUNDS ?? 3);
const LINK_RATE = 20e6;
const LINK_DELAY_MS = 40;
const UNWARMED = process.env.BENCH_MAP_UNWARMED === '1';
const PROJECT = 'map-bench';
const FILE = 'trees.gpkg';

function chromiumPath(): string {
  const path = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
  if (!existsSync(path)) throw new Error(`Chromium not found at ${path} (set CHROMIUM_PATH)`);
  return path;
}

function median(values: number[]): number {
  return [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? NaN;
}

/** Creates the project and pushes the GeoPackage as its first version (push v1 protocol). */
async function seed(server: RunningServer, bytes: Buffer): Promise<void> {
  const { cookie, csrf } = await adminSession(server);
  const post = async (path: string, body?: Buffer | string, json = true) => {
    const response = await fetch(`${ORIGIN}${path}`, {
      method: 'POST',
      headers: {
        cookie,
        'x-csrf-token': csrf,
        'content-type': json ? 'application/json' : 'application/octet-stream',
      },
      body,
    });
    const text = await response.text();
    if (!response.ok) throw new Error(`${path}: ${response.status} ${text}`);
    return (text ? JSON.parse(text) : {}) as Record<string, unknown>;
  };
  await post('/v1/project/admin', JSON.stringify({ name: PROJECT, public: false }));
  const count = Math.ceil(bytes.length / CHUNK_SIZE);
  const chunks = Array.from({ length: count }, () => randomUUID());
  const checksum = createHash('sha1').update(bytes).digest('hex');
  const { transaction } = (await post(
    `/v1/project/push/admin/${PROJECT}`,
    JSON.stringify({
      version: 'v0',
      changes: {
        added: [{ path: FILE, size: bytes.length, checksum, chunks }],
        updated: [],
        removed: [],
      },
    }),
  )) as { transaction: string };
  for (const [index, chunk] of chunks.entries()) {
    await post(
      `/v1/project/push/chunk/${transaction}/${chunk}`,
      bytes.subarray(index * CHUNK_SIZE, (index + 1) * CHUNK_SIZE),
      false,
    );
  }
  await post(`/v1/project/push/finish/${transaction}`);
}

/** A fresh browser context (no HTTP cache, no service worker) signed in as the admin. */
export async function signedInContext(
  browser: Browser,
  server: RunningServer,
): Promise<BrowserContext> {
  const context = await browser.newContext({ serviceWorkers: 'block' });
  const { cookie } = await adminSession(server);
  // Cookies are per host, not per port: they hold for the link proxy's origin too.
  await context.addCookies(
    cookie.split('; ').map((pair) => {
      const at = pair.indexOf('=');
      return { name: pair.slice(0, at), value: pair.slice(at + 1), url: ORIGIN };
    }),
  );
  return context;
}

/** The project's files page, with the Map tab shown. */
async function projectPage(context: BrowserContext, origin: string): Promise<Page> {
  const page = await context.newPage();
  await page.goto(`${origin}/projects/admin/${PROJECT}/tree`);
  await page.getByRole('tab', { name: 'Map' }).waitFor();
  // A person clicks a tab once the page has settled, not the instant it appears: the
  // page's idle work (the map's code preloaded) has had its moment.
  await page.waitForLoadState('networkidle');
  return page;
}

/** Downloads the GeoPackage once in the page; the ms it took. */
export async function downloadMs(context: BrowserContext, origin = ORIGIN): Promise<number> {
  const page = await projectPage(context, origin);
  try {
    return await page.evaluate(async (url) => {
      const started = performance.now();
      const response = await fetch(url);
      await response.arrayBuffer();
      return performance.now() - started;
    }, `/v1/project/raw/admin/${PROJECT}?file=${FILE}`);
  } finally {
    await page.close();
  }
}

/** Clicks the Map tab of a project page; the ms from the click to the first frame with features. */
export async function openMapTab(page: Page): Promise<number> {
  // Strings, as the page runs them: when the click on the tab started, in the page's clock.
  await page.evaluate(`document.addEventListener('pointerdown', () => {
    window.benchClickAt = performance.now();
  }, { capture: true, once: true });
  document.addEventListener('click', () => {
    window.benchClickEventAt = performance.now();
  }, { capture: true, once: true })`);
  await page.getByRole('tab', { name: 'Map' }).click();
  await page.waitForFunction(
    (mark) => performance.getEntriesByName(mark).length > 0,
    FIRST_FEATURES_MARK,
    { timeout: 120_000 },
  );
  return await page.evaluate<number>(
    `performance.getEntriesByName(${JSON.stringify(FIRST_FEATURES_MARK)})[0].startTime - window.benchClickAt`,
  );
}

/** Opens the Map tab in a new page; the ms from the click to the first frame with features. */
export async function mapMs(
  context: BrowserContext,
  origin = ORIGIN,
  around?: (page: Page, open: () => Promise<number>) => Promise<number>,
): Promise<number> {
  const page = await projectPage(context, origin);
  try {
    return await (around ? around(page, () => openMapTab(page)) : openMapTab(page));
  } finally {
    await page.close();
  }
}

/** The bench's world: the app built, the server with the pushed GeoPackage, Chromium. */
export interface MapBench {
  server: RunningServer;
  browser: Browser;
  /** The GeoPackage's bytes. */
  size: number;
  close(): Promise<void>;
}

export async function startMapBench(
  options: { minify?: boolean; unwarmed?: boolean } = {},
): Promise<MapBench> {
  const dir = await mkdtemp(join(tmpdir(), 'waymark-bench-map-browser-'));
  const distDir = join(dir, 'dist');
  let server: RunningServer | undefined;
  let browser: Browser | undefined;
  const close = async () => {
    await browser?.close();
    await server?.close();
    await rm(dir, { recursive: true, force: true });
  };
  try {
    await build({
      root: resolve(import.meta.dirname, '..'),
      logLevel: 'silent',
      build: {
        outDir: distDir,
        emptyOutDir: true,
        sourcemap: false,
        minify: options.minify ?? true,
      },
    });
    const features = Array.from({ length: FEATURES }, (_, index) => feature(index + 1));
    const bytes = await readFile(await geopackage(dir, 'trees', features));
    server = await startServer(
      {
        DATA_DIR: join(dir, 'data'),
        PORT: String(PORT),
        HOST: '127.0.0.1',
        LOG_LEVEL: 'silent',
        ADMIN_PASSWORD: BENCH_ADMIN_PASSWORD,
        GLOBAL_WORKSPACE: 'admin',
      },
      { handleSignals: false, exitOnError: false, print: () => {}, distDir },
    );
    if (options.unwarmed ?? UNWARMED) await commitFile(server, PROJECT, FILE, bytes);
    else await seed(server, bytes);
    browser = await chromium.launch({
      executablePath: chromiumPath(),
      args: ['--no-sandbox', '--disable-gpu'],
    });
    return { server, browser, size: bytes.length, close };
  } catch (error) {
    await close();
    throw error;
  }
}
/** Download and map times of `rounds` rounds, each in a fresh browser context. */
async function rounds(
  bench: MapBench,
  origin: string,
  count: number,
): Promise<{ downloads: number[]; maps: number[] }> {
  const downloads: number[] = [];
  const maps: number[] = [];
  for (let round = 0; round < count; round++) {
    const context = await signedInContext(bench.browser, bench.server);
    try {
      downloads.push(await downloadMs(context, origin));
      maps.push(await mapMs(context, origin));
    } finally {
      await context.close();
    }
  }
  return { downloads, maps };
}

function ratioLine(
  name: string,
  downloads: number[],
  maps: number[],
  note: string,
  target: number,
): BenchResult {
  const download = median(downloads);
  const map = median(maps);
  const ratio = map / download;
  return {
    name,
    baselineMs: download,
    candidateMs: map,
    ratio,
    target,
    ok: ratio <= target,
    detail: `${map.toFixed(0)} ms vs download ${download.toFixed(0)} ms = ${ratio.toFixed(2)}× (${note})`,
  };
}

export async function benchMapBrowser(): Promise<BenchResult[]> {
  const bench = await startMapBench();
  try {
    const size = (bench.size / 1024 ** 2).toFixed(1);
    // Round 0 is the file's first opening (printed apart); the median is of the others.
    const loopback = await rounds(bench, ORIGIN, ROUNDS + 1);
    const firstMap = loopback.maps[0] ?? NaN;
    const results = [
      ratioLine(
        `map tab to first frame with ${FEATURES} points / download of the ${size} MB GeoPackage`,
        loopback.downloads.slice(1),
        loopback.maps.slice(1),
        `target ≤ 1×; first opening, server reading the file: ${firstMap.toFixed(0)} ms`,
        1,
      ),
    ];
    if (LINK_ROUNDS > 0) {
      // Where the users are: the map and the download through the same shaped link.
      const proxy = new LinkProxy(PORT, { rateBitsPerSecond: LINK_RATE, delayMs: LINK_DELAY_MS });
      const proxyOrigin = `http://127.0.0.1:${await proxy.listen()}`;
      try {
        const link = await rounds(bench, proxyOrigin, LINK_ROUNDS);
        results.push(
          ratioLine(
            `the same over a field link (${LINK_RATE / 1e6} Mbit/s, +${LINK_DELAY_MS} ms each way)`,
            link.downloads,
            link.maps,
            `target ≤ 1×; ${LINK_ROUNDS} rounds`,
            1,
          ),
        );
      } finally {
        await proxy.close();
      }
    }
    return results;
  } finally {
    await bench.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) report(await benchMapBrowser());
