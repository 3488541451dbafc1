// Bundle size of the first screens: builds the PWA with the project's Vite config, serves it
// from the real server, opens the sign-in page and (signed in, with projects) the projects list
// in headless Chromium, and sums the gzipped size (zlib level 9) of every JavaScript and CSS file
// the page needed to render (target ≤ 170 KB per page): each file whose request started before
// the page's content was first in the document (its heading, and for the list its rows; taken
// in the page by a MutationObserver and compared with the Resource Timing start of each file).
// Files fetched afterwards (e.g. Dexie, loaded to save offline copies once the list shows) are
// listed but not counted. The service worker is blocked, so its background precache does not
// count either. None of the counted files may contain hashing (hash-wasm), the upload engine or
// worker, or map code (OpenLayers, the map feature's components): the build records which source modules went into each chunk,
// and the offenders are printed.
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';
import { chromium, type Browser, type BrowserContext, type Page } from '@playwright/test';
import { build, type Plugin } from 'vite';
import { startServer, type RunningServer } from '../server/src/main';
import { BENCH_ADMIN_PASSWORD, adminSession } from './session';
import { countResult, limitResult, report, type BenchResult } from './harness';

const PORT = Number(process.env.BENCH_PORT ?? 18473);
const ORIGIN = `http://127.0.0.1:${PORT}`;
const BUDGET_KB = 170;

/** Code that must stay out of the first screens: the source modules (and worker files) of each. */
const FORBIDDEN: ReadonlyArray<{ what: string; modules: RegExp }> = [
  {
    what: 'hashing (hash-wasm)',
    modules: /node_modules\/hash-wasm\/|src\/workers\/(sha1|hash\.worker)|src\/lib\/hashWorker/,
  },
  {
    what: 'upload engine or worker',
    modules:
      /src\/features\/uploads\/(worker|testing)\/|src\/features\/uploads\/page\/(engine|workerBridge)\.|src\/workers\/upload\.worker/,
  },
  {
    what: 'map code (OpenLayers, maplibre, the map feature)',
    modules: /node_modules\/(ol|maplibre-gl|proj4)\/|src\/features\/map\/components\//,
  },
];

/** Records which source modules went into each emitted chunk, by its public path. */
function chunkModules(into: Map<string, string[]>): Plugin {
  return {
    name: 'bench-chunk-modules',
    apply: 'build',
    generateBundle(_options, bundle) {
      for (const [fileName, output] of Object.entries(bundle)) {
        if (output.type === 'chunk') into.set(`/${fileName}`, output.moduleIds);
      }
    },
  };
}

function chromiumPath(): string {
  const path = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
  if (!existsSync(path)) throw new Error(`Chromium not found at ${path} (set CHROMIUM_PATH)`);
  return path;
}

interface Asset {
  url: string;
  body: Buffer;
}

interface PageAssets {
  /** Requested before the page's content was shown: what it needed to render. */
  needed: Asset[];
  /** Requested afterwards (listed, not counted). */
  later: Asset[];
}

/**
 * In the page: records when every one of `markers` is first in the document's text. A string,
 * because tsx would wrap a function's inner functions in helpers the page does not have.
 */
function recordShown(markers: string[]): string {
  return `(() => {
    const markers = ${JSON.stringify(markers)};
    const observer = new MutationObserver(() => {
      if (window.__benchShownAt !== undefined) return;
      const text = document.body ? document.body.textContent : '';
      if (markers.every((marker) => text.includes(marker))) {
        window.__benchShownAt = performance.now();
        observer.disconnect();
      }
    });
    observer.observe(document, { childList: true, subtree: true, characterData: true });
  })();`;
}

/**
 * Opens `path`, waits until `markers` are shown (and `ready`), then for the network to settle;
 * every JS/CSS body loaded, split by whether its request started before the markers showed.
 */
async function assetsOf(
  context: BrowserContext,
  path: string,
  markers: string[],
  ready: (page: Page) => Promise<void>,
): Promise<PageAssets> {
  const page = await context.newPage();
  await page.addInitScript(recordShown(markers));
  const pending: Array<Promise<Asset | null>> = [];
  page.on('response', (response) => {
    const url = new URL(response.url());
    if (url.origin !== ORIGIN || !/\.(m?js|css)$/.test(url.pathname)) return;
    pending.push(
      response.body().then(
        (body) => ({ url: url.pathname, body }),
        () => null,
      ),
    );
  });
  try {
    await page.goto(`${ORIGIN}${path}`);
    await ready(page);
    await page.waitForFunction('window.__benchShownAt !== undefined');
    await page.waitForLoadState('networkidle');
    // Paths of the files whose request started before the content was shown.
    const before = new Set(
      await page.evaluate<string[]>(`performance
        .getEntriesByType('resource')
        .filter((entry) => entry.startTime <= window.__benchShownAt)
        .map((entry) => new URL(entry.name).pathname)`),
    );
    const assets = (await Promise.all(pending)).filter((asset) => asset !== null);
    const unique = [...new Map(assets.map((asset) => [asset.url, asset])).values()];
    return {
      needed: unique.filter((asset) => before.has(asset.url)),
      later: unique.filter((asset) => !before.has(asset.url)),
    };
  } finally {
    await page.close();
  }
}

function offendersOf(asset: Asset, modules: Map<string, string[]>): string[] {
  const ids = modules.get(asset.url);
  // Worker bundles are built apart from the app's chunks; their file names say what they are.
  if (!ids) return /worker/i.test(asset.url) ? [`${asset.url} (a worker)`] : [];
  return FORBIDDEN.filter(({ modules: pattern }) => ids.some((id) => pattern.test(id))).map(
    ({ what, modules: pattern }) => {
      const examples = ids
        .filter((id) => pattern.test(id))
        .map((id) => id.replace(/^.*?(src|node_modules)\//, '$1/'));
      return `${asset.url} (${what}: ${examples.slice(0, 3).join(', ')}${examples.length > 3 ? ', …' : ''})`;
    },
  );
}

/** Package or source folder of a module id, for the BENCH_BUNDLE_VERBOSE listing. */
function origin(id: string): string {
  const pkg = /node_modules\/((@[^/]+\/)?[^/]+)/.exec(id);
  if (pkg?.[1]) return pkg[1];
  const src = /\/src\/(.*)$/.exec(id);
  return src?.[1] ? `src/${src[1].split('/').slice(0, 2).join('/')}` : id;
}

/** BENCH_BUNDLE_VERBOSE=1: each file's gzipped size and the packages and folders in it. */
function describe(name: string, asset: Asset, size: number, modules: Map<string, string[]>) {
  const origins = new Set((modules.get(asset.url) ?? []).map(origin));
  console.log(`  ${name}: ${asset.url} ${(size / 1024).toFixed(1)} KB: ${[...origins].join(' ')}`);
}

function measurePage(
  name: string,
  { needed: assets, later }: PageAssets,
  modules: Map<string, string[]>,
): BenchResult[] {
  if (process.env.BENCH_BUNDLE_VERBOSE) {
    for (const asset of later) {
      describe(
        `${name} (after it rendered, not counted)`,
        asset,
        gzipSync(asset.body, { level: 9 }).length,
        modules,
      );
    }
  }
  let gzipped = 0;
  const offenders: string[] = [];
  for (const asset of assets) {
    const size = gzipSync(asset.body, { level: 9 }).length;
    gzipped += size;
    if (process.env.BENCH_BUNDLE_VERBOSE) describe(name, asset, size, modules);
    offenders.push(...offendersOf(asset, modules));
  }
  for (const offender of offenders) console.log(`  ${name} loads ${offender}`);
  const kb = gzipped / 1024;
  return [
    limitResult(
      `${name}: JS + CSS gzipped (${assets.length} files)`,
      kb,
      BUDGET_KB,
      `${kb.toFixed(1)} KB (target ≤ ${BUDGET_KB} KB)`,
    ),
    countResult(`${name}: files with hashing, upload or map code`, offenders.length, 0),
  ];
}

const BENCH_PROJECTS = ['Bench survey 1', 'Bench survey 2', 'Bench survey 3'];

/** Rows for the list: the admin's projects, created through the API. */
async function seedProjects(server: RunningServer): Promise<void> {
  const { cookie, csrf } = await adminSession(server);
  for (const name of BENCH_PROJECTS) {
    const created = await server.app.inject({
      method: 'POST',
      url: '/v1/project/admin',
      headers: { cookie, 'x-csrf-token': csrf },
      payload: { name, public: false },
    });
    if (created.statusCode !== 200) throw new Error(`creating ${name} failed: ${created.body}`);
  }
}

async function signIn(context: BrowserContext, server: RunningServer): Promise<void> {
  const { cookie } = await adminSession(server);
  await context.addCookies(
    cookie.split('; ').map((pair) => {
      const at = pair.indexOf('=');
      return { name: pair.slice(0, at), value: pair.slice(at + 1), url: ORIGIN };
    }),
  );
}

export async function benchBundleSize(): Promise<BenchResult[]> {
  const dir = await mkdtemp(join(tmpdir(), 'waymark-bench-bundle-'));
  const distDir = join(dir, 'dist');
  let server: RunningServer | undefined;
  let browser: Browser | undefined;
  const modules = new Map<string, string[]>();
  try {
    await build({
      root: resolve(import.meta.dirname, '..'),
      logLevel: 'silent',
      plugins: [chunkModules(modules)],
      build: { outDir: distDir, emptyOutDir: true, sourcemap: false },
    });
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
    browser = await chromium.launch({
      executablePath: chromiumPath(),
      args: ['--no-sandbox', '--disable-gpu'],
    });

    const anonymous = await browser.newContext({ serviceWorkers: 'block' });
    const signInAssets = await assetsOf(
      anonymous,
      '/login',
      ['Sign in to Waymark'],
      async (page) => {
        await page.getByRole('heading', { name: 'Sign in to Waymark' }).waitFor();
      },
    );
    await anonymous.close();

    const signedIn = await browser.newContext({ serviceWorkers: 'block' });
    await signIn(signedIn, server);
    await seedProjects(server);
    const projectAssets = await assetsOf(
      signedIn,
      '/projects',
      ['My projects', ...BENCH_PROJECTS],
      async (page) => {
        await page.getByRole('heading', { name: 'My projects' }).waitFor();
        await page.getByText(BENCH_PROJECTS[0]!, { exact: true }).first().waitFor();
      },
    );
    await signedIn.close();

    return [
      ...measurePage('sign-in page', signInAssets, modules),
      ...measurePage('projects list', projectAssets, modules),
    ];
  } finally {
    await browser?.close();
    await server?.close();
    await rm(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) report(await benchBundleSize());
