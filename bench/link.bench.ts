// An upload over a slow link that breaks once (issue 18): Chromium reaches the server through
// a TCP proxy started here (link-proxy.ts) that carries 20 Mbit/s with 40 ms more each way,
// and that cuts every open connection once, halfway through the upload, refusing new ones
// for an outage. The upload engine must lose no more than the link forces it to:
// time ≤ 1.1 × (bytes / link rate + outage), and no chunk the server acknowledged is sent
// again. The reference web app's way (every chunk posted at once, the whole upload given up
// at the first failure, then started again by hand once the server answers) is printed
// for comparison.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from '@playwright/test';
import { countResult, informationResult, ratioResult, report, type BenchResult } from './harness';
import { LinkProxy } from './link-proxy';
import {
  adminTarget,
  buildBenchPage,
  chromiumPath,
  prepare,
  stamp,
  startBenchServer,
  benchCall,
  writeRandomFile,
} from './browser-page';
import { chunksAcknowledgedAgain, RequestLog } from './upload-profile';

const PORT = Number(process.env.BENCH_PORT ?? 18474);
const FILE_SIZE = Number(process.env.BENCH_LINK_BYTES ?? 100_000_000);
const RATE = Number(process.env.BENCH_LINK_RATE ?? 20_000_000);
const DELAY_MS = 40;
const OUTAGE_MS = Number(process.env.BENCH_LINK_OUTAGE_MS ?? 3000);

/** The time the link needs for the file's bytes, plus the outage. */
const IDEAL_MS = (FILE_SIZE * 8 * 1000) / RATE + OUTAGE_MS;

/** Runs `upload` and cuts the link once the server received half of the file. */
async function withCutHalfway<T>(proxy: LinkProxy, upload: () => Promise<T>): Promise<T> {
  const running = upload();
  await Promise.race([proxy.whenUp(proxy.bytesUp + FILE_SIZE / 2), running]);
  proxy.cut(OUTAGE_MS);
  return running;
}

export async function benchLink(): Promise<BenchResult[]> {
  const dir = await mkdtemp(join(tmpdir(), 'waymark-bench-link-'));
  const distDir = await buildBenchPage(dir);
  const file = join(dir, 'data.bin');
  await writeRandomFile(file, FILE_SIZE);
  const log = new RequestLog();
  const server = await startBenchServer(dir, PORT, distDir, log);
  const proxy = new LinkProxy(PORT, { rateBitsPerSecond: RATE, delayMs: DELAY_MS });
  const proxyPort = await proxy.listen();
  const browser = await chromium.launch({ executablePath: chromiumPath() });
  const trace = process.env.BENCH_LINK_TRACE
    ? setInterval(() => {
        const last = log.requests.at(-1);
        console.error(
          `${(proxy.bytesUp / 1e6).toFixed(1)} MB up; last ${last?.status} ${last?.url}`,
        );
      }, 2000)
    : null;
  try {
    const page = await browser.newPage();
    await page.goto(`http://127.0.0.1:${proxyPort}/`);

    // The upload engine.
    const engineTarget = adminTarget('link-engine', await stamp(file, 1));
    const engineProject = await prepare(page, file, engineTarget);
    const engineFrom = Date.now();
    const bytesBefore = proxy.bytesUp;
    const engine = await withCutHalfway(proxy, () =>
      benchCall(page, 'uploadChosenFile', engineTarget, engineProject),
    );
    const engineAgain = chunksAcknowledgedAgain(log.since(engineFrom));
    const engineExtra = proxy.bytesUp - bytesBefore - FILE_SIZE;
    if (trace) {
      for (const r of log.since(engineFrom)) {
        const path = r.url.replace(/[0-9a-f-]{36}/g, (id) => id.slice(0, 4));
        console.error(
          `${((r.start - engineFrom) / 1000).toFixed(2)}s–${((r.end - engineFrom) / 1000).toFixed(2)}s ${r.status} ${r.method} ${path}`,
        );
      }
    }

    // The reference web app's way: given up at the cut, started again by hand.
    const referenceTarget = adminTarget('link-reference', await stamp(file, 2));
    const referenceProject = await prepare(page, file, referenceTarget);
    const started = performance.now();
    const first = await withCutHalfway(proxy, () =>
      benchCall(page, 'postEveryChunkAtOnce', referenceTarget, referenceProject),
    );
    let again = 0;
    if (!first.finished) {
      await benchCall(page, 'cancelWhenReachable', first.transaction);
      const second = await benchCall(
        page,
        'postEveryChunkAtOnce',
        referenceTarget,
        referenceProject,
      );
      if (!second.finished) throw new Error('The reference way failed without a cut');
      again = first.acknowledged;
    }
    const referenceMs = performance.now() - started;

    const link = `${FILE_SIZE / 1e6} MB over ${RATE / 1e6} Mbit/s, +${DELAY_MS} ms each way, every connection cut once halfway (${OUTAGE_MS / 1000} s outage)`;
    return [
      ratioResult(
        `upload engine: ${link}, time vs bytes / rate + outage`,
        IDEAL_MS,
        engine.ms,
        1.1,
      ),
      countResult(`upload engine: acknowledged chunks sent again`, engineAgain, 0),
      informationResult(
        `upload engine: bytes over the link beyond the file's (what the cut lost, the requests' own bytes)`,
        engineExtra,
        `${(engineExtra / 1e6).toFixed(2)} MB`,
      ),
      informationResult(
        `reference web app's way (every chunk at once, given up at the failure, started again): ${link}`,
        referenceMs / IDEAL_MS,
        `${referenceMs.toFixed(0)} ms vs ${IDEAL_MS.toFixed(0)} ms = ${(referenceMs / IDEAL_MS).toFixed(2)}×, ` +
          `${again} acknowledged chunks sent again, ${proxy.cutConnections} connections cut in all`,
      ),
    ];
  } finally {
    if (trace) clearInterval(trace);
    await browser.close();
    await proxy.close();
    await server.close();
    await rm(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) report(await benchLink());
