// What the Chromium benches (browser.bench.ts, link.bench.ts) share on the Node side: the
// benchmark page (bench/browser, built by Vite from the app's own modules), the server
// that serves it, a file of random bytes, and the page's calls.
import { spawn } from 'node:child_process';
import { createHash, randomFillSync } from 'node:crypto';
import { createReadStream, existsSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import type { Page } from '@playwright/test';
import { build } from 'vite';
import { startServer, type RunningServer } from '../server/src/main';
import { aliases } from '../aliases';
import { BENCH_ADMIN_PASSWORD } from './session';
import type { BenchWindow, NewProject, UploadTarget } from './browser/api';
import type { RequestLog } from './upload-profile';

export function chromiumPath(): string {
  const path = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
  if (!existsSync(path)) throw new Error(`Chromium not found at ${path} (set CHROMIUM_PATH)`);
  return path;
}

export /** A file of random bytes (incompressible, so nothing can shortcut the work). */
async function writeRandomFile(file: string, size: number): Promise<void> {
  const handle = await open(file, 'w');
  const block = Buffer.allocUnsafe(16 * 1024 * 1024);
  try {
    for (let written = 0; written < size; written += block.length) {
      randomFillSync(block);
      await handle.write(block, 0, Math.min(block.length, size - written));
    }
  } finally {
    await handle.close();
  }
}

export function median(values: number[]): number {
  return [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? NaN;
}

/** Builds the benchmark page into `dir`/dist; answers that folder. */
export async function buildBenchPage(dir: string): Promise<string> {
  const distDir = join(dir, 'dist');
  await build({
    root: resolve(import.meta.dirname, 'browser'),
    configFile: false,
    resolve: { alias: aliases },
    logLevel: 'silent',
    build: { outDir: distDir, emptyOutDir: true },
    worker: { format: 'es' },
  });
  return distDir;
}

/** The bench server's configuration: on `port`, its data in `dir`. */
function benchServerEnv(dir: string, port: number): Record<string, string> {
  return {
    DATA_DIR: join(dir, 'data'),
    PORT: String(port),
    HOST: '127.0.0.1',
    LOG_LEVEL: 'silent',
    ADMIN_PASSWORD: BENCH_ADMIN_PASSWORD,
    GLOBAL_WORKSPACE: 'admin',
    GLOBAL_STORAGE: String(64 * 1024 ** 3),
  };
}

/** The real server on `port`, data in `dir`, serving the page; its requests go to `log`. */
export function startBenchServer(
  dir: string,
  port: number,
  distDir: string,
  log: RequestLog,
): Promise<RunningServer> {
  return startServer(benchServerEnv(dir, port), {
    handleSignals: false,
    exitOnError: false,
    print: () => {},
    distDir,
    logger: { level: 'info', stream: log.stream },
  });
}

/** The bench's server in a process of its own (bench-server-process.ts). */
export interface ServerProcess {
  pid: number;
  close(): Promise<void>;
}

/**
 * The real server as startBenchServer starts it, in a child process (its CPU seconds are
 * then its own, withCpu's `serverPid`); its request log lines go to `log`.
 */
export async function startBenchServerProcess(
  dir: string,
  port: number,
  distDir: string,
  log: RequestLog,
): Promise<ServerProcess> {
  const env = benchServerEnv(dir, port);
  const child = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      resolve(import.meta.dirname, 'bench-server-process.ts'),
      JSON.stringify({ env, distDir }),
    ],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  const exited = new Promise<void>((done) => child.once('exit', () => done()));
  const lines = createInterface({ input: child.stdout });
  await new Promise<void>((ready, fail) => {
    child.once('exit', (code) => fail(new Error(`the bench server exited (${code})`)));
    lines.on('line', (line) => {
      if (line === 'READY') ready();
      else log.stream.write(line);
    });
  });
  return {
    pid: child.pid!,
    async close() {
      child.kill('SIGTERM');
      await exited;
    },
  };
}

/** The admin's upload of the file (whose SHA-1 is `sha1`) to a new project `project`. */
export function adminTarget(project: string, sha1: string): UploadTarget {
  return { username: 'admin', password: BENCH_ADMIN_PASSWORD, namespace: 'admin', project, sha1 };
}

export /** Stamps the file's first bytes with `round`, so each upload is new content for the server. */
async function stamp(file: string, round: number): Promise<string> {
  const handle = await open(file, 'r+');
  try {
    const mark = Buffer.alloc(8);
    mark.writeDoubleLE(round);
    await handle.write(mark, 0, 8, 0);
  } finally {
    await handle.close();
  }
  const hash = createHash('sha1');
  for await (const piece of createReadStream(file)) hash.update(piece as Buffer);
  return hash.digest('hex');
}

export type Api = BenchWindow['waymarkBench'];

/** Calls the page's `waymarkBench[name](...args)` (arguments and answer cross as JSON). */
export function benchCall<K extends keyof Api>(
  page: Page,
  name: K,
  ...args: Parameters<Api[K]>
): ReturnType<Api[K]> {
  return page.evaluate(
    ([name, args]) => {
      const api = (globalThis as unknown as BenchWindow).waymarkBench;
      return (api[name] as (...values: unknown[]) => unknown)(...args);
    },
    [name, args] as const,
  ) as ReturnType<Api[K]>;
}

/** Reloads the page, signs in, creates the target's project and chooses the file. */
export async function prepare(page: Page, file: string, target: UploadTarget): Promise<NewProject> {
  await page.reload();
  await page.getByLabel('Benchmark file').setInputFiles(file);
  return benchCall(page, 'newProject', target);
}
