// Browser-side costs in headless Chromium, with the product's own code built by Vite
// (bench/browser/main.ts) and served by the real server:
// - SHA-1 of a 1 GiB file in the hashing worker, against `sha1sum` on the same file
//   (throughput at least 0.7× sha1sum's);
// - main-thread tasks over 50 ms while the worker hashes 1 GiB (none);
// - uploading the 1 GiB file with the upload engine (IndexedDB copy, chunks, finish) to the
//   local server, against Chromium alone posting the same 10 MiB slices, 4 at a time, to a
//   server that drops them: the most any browser upload reaches here (throughput at least
//   0.8× that, issue 21). The server fsyncs every chunk before acknowledging it.
// Printed for information: the upload against `cp` + fsync and plain `cp`; the server's CPU
// seconds per GiB uploaded; the CPU budget (Chromium's and the server's CPU seconds over the
// machine's cores: the least time the upload can take, and the best ratio that allows); where the upload's time goes (the server's request log,
// upload-profile.ts); and the v1 push posted straight from the page with 4, 6 and 8 chunk
// requests in flight (the server's chunk path without the engine).
import { execFile } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import { mkdtemp, open, rm } from 'node:fs/promises';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { chromium, type Page } from '@playwright/test';
import { CHUNK_SIZE } from '../server/src/storage/upload-staging';
import {
  adminTarget,
  buildBenchPage,
  chromiumPath,
  median,
  prepare,
  stamp,
  startBenchServer,
  startBenchServerProcess,
  benchCall,
  writeRandomFile,
} from './browser-page';
import {
  countResult,
  informationResult,
  report,
  throughputResult,
  type BenchResult,
} from './harness';
import {
  budgetBestRatio,
  budgetText,
  RequestLog,
  stagesText,
  uploadStages,
  cpuText,
  withCpu,
  withCpuProfile,
  type CpuBudget,
  type CpuUse,
  type UploadStages,
} from './upload-profile';
import { PRODUCT_READ, READ_STRATEGIES, type HashRun, type ReadAnswer } from './browser/api';

const run = promisify(execFile);
const PORT = Number(process.env.BENCH_PORT ?? 18471);
const DROP_PORT = PORT + 1;
const FILE_SIZE = Number(process.env.BENCH_HASH_BYTES ?? 1024 ** 3);
const ROUNDS = Number(process.env.BENCH_BROWSER_ROUNDS ?? 3);
/** BENCH_BROWSER_PARTS: which parts run (hash, reads, upload; default all); only theirs are printed. */
const PARTS = (process.env.BENCH_BROWSER_PARTS ?? 'hash,reads,upload').split(',');
const roundsOf = (part: string) => (PARTS.includes(part) ? ROUNDS : 0);
/** BENCH_CPU_PROFILE: a file for the server's CPU profile of the first 4-in-flight v1 push. */
const PROFILE = process.env.BENCH_CPU_PROFILE;
/** BENCH_CPU_PROFILE_ENGINE: a file for the server's CPU profile of the last round's engine upload. */
const ENGINE_PROFILE = process.env.BENCH_CPU_PROFILE_ENGINE;
/**
 * Chunk requests in flight for the pushes posted straight from the page
 * (BENCH_BROWSER_IN_FLIGHT: a comma-separated list, empty for none; default 4,6,8).
 */
const IN_FLIGHT = (process.env.BENCH_BROWSER_IN_FLIGHT ?? '4,6,8')
  .split(',')
  .filter((n) => n.trim() !== '')
  .map(Number);

/**
 * The ceiling for any browser upload on this machine: a server that reads request bodies and
 * drops them, with a page that posts a chosen file's 10 MiB slices to it, 4 at a time (as the
 * upload engine sends chunks), and answers how long that took.
 */
async function startDropServer(): Promise<Server> {
  const page = `<!doctype html><label>Benchmark file <input type="file"></label><script>
    window.postSlices = async () => {
      const file = document.querySelector('input').files[0];
      const size = ${CHUNK_SIZE};
      const count = Math.ceil(file.size / size);
      let next = 0;
      const started = performance.now();
      const send = async () => {
        for (let i = next++; i < count; i = next++) {
          const body = file.slice(i * size, Math.min(file.size, (i + 1) * size));
          await (await fetch('/drop', { method: 'POST', body })).text();
        }
      };
      await Promise.all([send(), send(), send(), send()]);
      return performance.now() - started;
    };
  </script>`;
  const server = createServer((request, response) => {
    if (request.method !== 'POST') {
      response.setHeader('content-type', 'text/html');
      response.end(page);
      return;
    }
    request.on('data', () => undefined);
    request.on('end', () => response.end('{}'));
  });
  await new Promise<void>((resolve) => server.listen(DROP_PORT, '127.0.0.1', resolve));
  return server;
}

async function postSlicesInPage(page: Page, file: string): Promise<number> {
  await page.getByLabel('Benchmark file').setInputFiles(file);
  return page.evaluate(() =>
    (globalThis as unknown as { postSlices(): Promise<number> }).postSlices(),
  );
}

/** A figure printed for information: never fails the run. */
function informationOnly(result: BenchResult, why: string): BenchResult {
  const throughput = `throughput ${result.ratio.toFixed(2)}× the baseline's`;
  return {
    ...result,
    ok: true,
    detail: `${result.candidateMs.toFixed(0)} ms vs baseline ${result.baselineMs.toFixed(0)} ms: ${throughput} (${why})`,
  };
}

/** `cp` of `file` to `copy`, then (when `durable`) an fsync of the copy; returns the ms taken. */
async function timedCopy(file: string, copy: string, durable: boolean): Promise<number> {
  const started = performance.now();
  await run('cp', [file, copy]);
  if (durable) {
    const handle = await open(copy, 'r');
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
  }
  const ms = performance.now() - started;
  await rm(copy);
  return ms;
}

async function readInPage(page: Page, file: string, strategy: string): Promise<ReadAnswer> {
  await page.getByLabel('Benchmark file').setInputFiles(file);
  return benchCall(page, 'readChosenFile', strategy);
}

async function hashInPage(page: Page, file: string): Promise<HashRun> {
  await page.getByLabel('Benchmark file').setInputFiles(file);
  return benchCall(page, 'hashChosenFile');
}

export async function benchBrowser(): Promise<BenchResult[]> {
  const dir = await mkdtemp(join(tmpdir(), 'waymark-bench-browser-'));
  const distDir = await buildBenchPage(dir);
  const file = join(dir, 'data.bin');
  await writeRandomFile(file, FILE_SIZE);
  const requestLog = new RequestLog();
  // The server in a process of its own, so its CPU seconds are not the Playwright driver's
  // (which handles Chromium's events of every request in this process); in this process when
  // a CPU profile of it is asked for (withCpuProfile profiles this process).
  const server =
    PROFILE || ENGINE_PROFILE
      ? await startBenchServer(dir, PORT, distDir, requestLog)
      : await startBenchServerProcess(dir, PORT, distDir, requestLog);
  const serverPid = 'pid' in server ? server.pid : undefined;
  const dropServer = await startDropServer();
  const browser = await chromium.launch({ executablePath: chromiumPath() });
  try {
    const page = await browser.newPage();
    await page.goto(`http://127.0.0.1:${PORT}/`);
    const dropPage = await browser.newPage();
    await dropPage.goto(`http://127.0.0.1:${DROP_PORT}/`);
    const expected = (await run('sha1sum', [file])).stdout.split(' ')[0];
    const worker: number[] = [];
    const native: number[] = [];
    let longTasks = 0;
    for (let round = 0; round < roundsOf('hash'); round++) {
      const started = performance.now();
      await run('sha1sum', [file]);
      native.push(performance.now() - started);
      const result = await hashInPage(page, file);
      if (result.sha1 !== expected) throw new Error(`worker SHA-1 ${result.sha1} ≠ ${expected}`);
      worker.push(result.ms);
      longTasks += result.longTasks;
    }
    // The ways a worker can read the file, each against sha1sum in the same round.
    const reads = new Map<string, number[]>(READ_STRATEGIES.map((name) => [name, []]));
    const readNative: number[] = [];
    for (let round = 0; round < roundsOf('reads'); round++) {
      const started = performance.now();
      await run('sha1sum', [file]);
      readNative.push(performance.now() - started);
      for (const strategy of READ_STRATEGIES) {
        const answer = await readInPage(page, file, strategy);
        if (answer.sha1 !== expected && !strategy.includes('alone (bytes in memory)')) {
          throw new Error(`${strategy}: SHA-1 ${answer.sha1} ≠ ${expected}`);
        }
        reads.get(strategy)!.push(answer.ms);
      }
    }
    const copy: number[] = [];
    const durableCopy: number[] = [];
    const upload: number[] = [];
    const uploadCpu: CpuUse[] = [];
    const stages: UploadStages[] = [];
    const browserAlone: number[] = [];
    const budgets: CpuBudget[] = [];
    const direct = new Map(IN_FLIGHT.map((n) => [n, [] as number[]]));
    const directCpu = new Map(IN_FLIGHT.map((n) => [n, [] as CpuUse[]]));
    for (let round = 0; round < roundsOf('upload'); round++) {
      const sha1 = await stamp(file, round + 1);
      copy.push(await timedCopy(file, join(dir, 'copy.bin'), false));
      durableCopy.push(await timedCopy(file, join(dir, 'copy.bin'), true));
      const target = (project: string) => adminTarget(project, sha1);
      const project = await prepare(page, file, target(`upload-${round}`));
      const profileEngine = round === roundsOf('upload') - 1 ? ENGINE_PROFILE : undefined;
      const engine = await withCpu(
        () =>
          withCpuProfile(profileEngine, () =>
            benchCall(page, 'uploadChosenFile', target(`upload-${round}`), project),
          ),
        serverPid,
      );
      upload.push(engine.result.ms);
      uploadCpu.push(engine);
      stages.push(uploadStages(requestLog, engine.result.startedAt));
      const alone = await withCpu(() => postSlicesInPage(dropPage, file));
      browserAlone.push(alone.result);
      budgets.push({
        cores: availableParallelism(),
        aloneMs: alone.result,
        aloneBrowserS: alone.browserS,
        aloneServerS: alone.cpuS,
        uploadMs: engine.result.ms,
        uploadBrowserS: engine.browserS,
        uploadServerS: engine.cpuS,
      });
      for (const n of IN_FLIGHT) {
        const name = `direct-${n}-${round}`;
        const created = await prepare(page, file, target(name));
        const posted = await withCpu(
          () =>
            withCpuProfile(round === 0 && n === 4 ? PROFILE : undefined, () =>
              benchCall(page, 'postChunksOfChosenFile', target(name), created, n),
            ),
          serverPid,
        );
        direct.get(n)!.push(posted.result.ms);
        directCpu.get(n)!.push(posted);
      }
    }
    const gib = (FILE_SIZE / 1024 ** 3).toFixed(FILE_SIZE >= 1024 ** 3 ? 0 : 2);
    const perGib = (uses: CpuUse[]) => median(uses.map((u) => u.cpuS)) / (FILE_SIZE / 1024 ** 3);
    /** The round of median CPU, in words. */
    const cpuOf = (uses: CpuUse[]) => {
      const sorted = [...uses].sort((a, b) => a.cpuS - b.cpuS);
      const middleUse = sorted[Math.floor(sorted.length / 2)];
      return middleUse ? cpuText(middleUse, FILE_SIZE) : 'not measured';
    };
    const middle = [...stages].sort((a, b) => a.chunksMs - b.chunksMs)[
      Math.floor(stages.length / 2)
    ] ?? { beforeChunksMs: NaN, chunksMs: NaN, finishMs: NaN, chunkRequestMs: NaN, chunks: 0 };
    const hashResults = [
      throughputResult(
        `worker SHA-1 of ${gib} GiB vs sha1sum`,
        median(native),
        median(worker),
        0.7,
      ),
      countResult(`main-thread tasks over 50 ms while hashing ${gib} GiB ×${ROUNDS}`, longTasks, 0),
    ];
    const readResults = READ_STRATEGIES.map((strategy) =>
      informationOnly(
        throughputResult(
          `worker SHA-1 of ${gib} GiB read by ${strategy} vs sha1sum`,
          median(readNative),
          median(reads.get(strategy)!),
          0,
        ),
        strategy === PRODUCT_READ ? 'what the hashing worker does' : 'a way to read, measured',
      ),
    );
    const budget = [...budgets].sort((a, b) => budgetBestRatio(a) - budgetBestRatio(b))[
      Math.floor(budgets.length / 2)
    ];
    const uploadResults = [
      throughputResult(
        `upload of ${gib} GiB to the local server vs Chromium alone posting the same slices`,
        median(browserAlone),
        median(upload),
        0.8,
      ),
      informationOnly(
        throughputResult(
          `upload of ${gib} GiB to the local server vs cp + fsync`,
          median(durableCopy),
          median(upload),
          0,
        ),
        'no target: the old yardstick (docs/decisions/0047)',
      ),
      informationOnly(
        throughputResult(
          `upload of ${gib} GiB to the local server vs plain cp`,
          median(copy),
          median(upload),
          0,
        ),
        'no target: the copy need not be on disk yet',
      ),
      informationOnly(
        throughputResult(
          `Chromium alone posting the ${gib} GiB in 10 MiB slices to a server that drops them, vs cp + fsync`,
          median(durableCopy),
          median(browserAlone),
          0,
        ),
        'no target: the most any browser upload reaches here',
      ),
      informationResult(
        `server CPU seconds per GiB uploaded (upload engine)`,
        perGib(uploadCpu),
        cpuOf(uploadCpu),
      ),
      informationResult(
        `CPU budget of the ${gib} GiB upload: the best ratio to Chromium alone its CPU seconds allow (median round)`,
        budget ? budgetBestRatio(budget) : NaN,
        budget ? budgetText(budget) : 'not measured',
      ),
      informationResult(
        `where the ${gib} GiB upload's time goes (median round)`,
        middle.chunksMs,
        stagesText(middle),
      ),
      ...IN_FLIGHT.map((n) =>
        informationOnly(
          throughputResult(
            `v1 push of ${gib} GiB posted from the page, ${n} chunk requests in flight, vs Chromium alone`,
            median(browserAlone),
            median(direct.get(n)!),
            0,
          ),
          `no target; server CPU ${cpuOf(directCpu.get(n)!)}`,
        ),
      ),
    ];
    return [
      ...(roundsOf('hash') > 0 ? hashResults : []),
      ...(roundsOf('reads') > 0 ? readResults : []),
      ...(roundsOf('upload') > 0 ? uploadResults : []),
    ];
  } finally {
    await browser.close();
    await server.close();
    await new Promise((resolve) => dropServer.close(resolve));
    await rm(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) report(await benchBrowser());
