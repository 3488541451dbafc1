// Bundle size of the first screens: builds the PWA with the project's Vite config, serves it
// from the real server, opens the sign-in page and (signed in) the projects list in headless
// Chromium, and sums the gzipped size (zlib level 9) of every JavaScript and CSS file each page
// loaded (target ≤ 170 KB per page). The service worker is blocked, so its background precache
// does not count; only what the page itself asked for does. None of those files may contain
// hashing (hash-wasm), the upload engine or worker, or map code (maplibre): the build records
// which source modules went into each chunk, and the offenders are printed.
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

const PORT = 18473;
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
    modules: /src\/features\/uploads\/engine\/|src\/workers\/upload\.worker|src\/lib\/uploadWorker/,
  },
  { what: 'map code (maplibre)', modules: /node_modules\/maplibre-gl\// },
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

/** Opens `path`, waits for `ready` and for the network to settle; every JS/CSS body loaded. */
async function assetsOf(
  context: BrowserContext,
  path: string,
  ready: (page: Page) => Promise<void>,
): Promise<Asset[]> {
  const page = await context.newPage();
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
    await page.waitForLoadState('networkidle');
    const assets = (await Promise.all(pending)).filter((asset) => asset !== null);
    const unique = new Map(assets.map((asset) => [asset.url, asset]));
    return [...unique.values()];
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

function measurePage(name: string, assets: Asset[], modules: Map<string, string[]>): BenchResult[] {
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
    const signInAssets = await assetsOf(anonymous, '/login', async (page) => {
      await page.getByRole('heading', { name: 'Sign in to Waymark' }).waitFor();
    });
    await anonymous.close();

    const signedIn = await browser.newContext({ serviceWorkers: 'block' });
    await signIn(signedIn, server);
    const projectAssets = await assetsOf(signedIn, '/projects', async (page) => {
      await page.getByRole('heading', { name: 'My projects' }).waitFor();
    });
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
