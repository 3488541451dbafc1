// The Map tab in headless Chromium (issue 19): a GeoPackage with a 100,000-point layer, pushed
// to the real server (the app built by Vite with the project's config); the time from opening
// the Map tab to the first drawn frame with features (the map's performance mark), divided by
// the time to download that GeoPackage once in the same run (target ≤ 1). Each round opens the
// tab in a fresh browser context (no HTTP cache, no service worker); the first round also pays
// for the server's first reading of the file, and is printed apart.
import { createHash, randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { chromium, type Browser, type BrowserContext } from '@playwright/test';
import { build } from 'vite';
import { startServer, type RunningServer } from '../server/src/main';
import { CHUNK_SIZE } from '../server/src/schemas/protocol';
import { FIRST_FEATURES_MARK } from '../src/features/map/model/marks';
import { geopackage, feature } from './changeset.bench';
import { report, type BenchResult } from './harness';
import { BENCH_ADMIN_PASSWORD, adminSession } from './session';

const PORT = Number(process.env.BENCH_PORT ?? 18489);
const ORIGIN = `http://127.0.0.1:${PORT}`;
const FEATURES = Number(process.env.BENCH_MAP_FEATURES ?? 100_000);
const ROUNDS = Number(process.env.BENCH_MAP_ROUNDS ?? 3);
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

async function signedInContext(browser: Browser, server: RunningServer): Promise<BrowserContext> {
  const context = await browser.newContext({ serviceWorkers: 'block' });
  const { cookie } = await adminSession(server);
  await context.addCookies(
    cookie.split('; ').map((pair) => {
      const at = pair.indexOf('=');
      return { name: pair.slice(0, at), value: pair.slice(at + 1), url: ORIGIN };
    }),
  );
  return context;
}

/** Downloads the GeoPackage once in the page; the ms it took. */
async function downloadMs(context: BrowserContext): Promise<number> {
  const page = await context.newPage();
  try {
    await page.goto(`${ORIGIN}/projects/admin/${PROJECT}/tree`);
    await page.getByRole('tab', { name: 'Map' }).waitFor();
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

/** Opens the Map tab; the ms from the click to the first frame drawn with features. */
async function mapMs(context: BrowserContext): Promise<number> {
  const page = await context.newPage();
  try {
    await page.goto(`${ORIGIN}/projects/admin/${PROJECT}/tree`);
    const tab = page.getByRole('tab', { name: 'Map' });
    await tab.waitFor();
    // Strings, as the page runs them: when the click on the tab started, in the page's clock.
    await page.evaluate(`document.addEventListener('pointerdown', () => {
      window.benchClickAt = performance.now();
    }, { capture: true, once: true })`);
    await tab.click();
    await page.waitForFunction(
      (mark) => performance.getEntriesByName(mark).length > 0,
      FIRST_FEATURES_MARK,
      { timeout: 120_000 },
    );
    return await page.evaluate<number>(
      `performance.getEntriesByName(${JSON.stringify(FIRST_FEATURES_MARK)})[0].startTime - window.benchClickAt`,
    );
  } finally {
    await page.close();
  }
}

export async function benchMapBrowser(): Promise<BenchResult[]> {
  const dir = await mkdtemp(join(tmpdir(), 'waymark-bench-map-browser-'));
  const distDir = join(dir, 'dist');
  let server: RunningServer | undefined;
  let browser: Browser | undefined;
  try {
    await build({
      root: resolve(import.meta.dirname, '..'),
      logLevel: 'silent',
      build: { outDir: distDir, emptyOutDir: true, sourcemap: false },
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
    await seed(server, bytes);
    browser = await chromium.launch({
      executablePath: chromiumPath(),
      args: ['--no-sandbox', '--disable-gpu'],
    });
    const downloads: number[] = [];
    const maps: number[] = [];
    for (let round = 0; round <= ROUNDS; round++) {
      const context = await signedInContext(browser, server);
      try {
        downloads.push(await downloadMs(context));
        maps.push(await mapMs(context));
      } finally {
        await context.close();
      }
    }
    const [firstMap] = maps;
    const download = median(downloads.slice(1));
    const map = median(maps.slice(1));
    const ratio = map / download;
    const size = (bytes.length / 1024 ** 2).toFixed(1);
    return [
      {
        name: `map tab to first frame with ${FEATURES} points / download of the ${size} MB GeoPackage`,
        baselineMs: download,
        candidateMs: map,
        ratio,
        target: 1,
        ok: ratio <= 1,
        detail: `${map.toFixed(0)} ms vs download ${download.toFixed(0)} ms = ${ratio.toFixed(2)}× (target ≤ 1×; first opening, server reading the file: ${(firstMap ?? NaN).toFixed(0)} ms)`,
      },
    ];
  } finally {
    await browser?.close();
    await server?.close();
    await rm(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) report(await benchMapBrowser());
