// `npm run bench`: every benchmark, each printing a ratio against a baseline from the same run.
// `npm run bench -- projects http`: only the named ones. The figures are also written to
// bench/RESULTS.md (the sections of the benches that ran; the others are kept).
import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { availableParallelism, loadavg, totalmem } from 'node:os';
import { join } from 'node:path';
import { benchApiRps } from './api-rps.bench';
import { benchBlobStore } from './blob-store.bench';
import { benchBrowser } from './browser.bench';
import { benchBundleSize } from './bundle-size.bench';
import { benchCapture } from './capture.bench';
import { benchChangeset } from './changeset.bench';
import { benchDataOut } from './data-out.bench';
import { benchHostile } from './hostile.bench';
import { benchHttp } from './http.bench';
import { benchLink } from './link.bench';
import { benchMap } from './map.bench';
import { benchMapBrowser } from './map-browser.bench';
import { benchProjects } from './projects.bench';
import { benchPullV2 } from './pull-v2.bench';
import { benchDiffStorage } from './diff-storage.bench';
import { benchUploadFinish } from './upload-finish.bench';
import { report, type BenchResult } from './harness';
import { renderResults, type BenchRun } from './results';

const BENCHES: Record<string, () => Promise<BenchResult[]>> = {
  'blob-store': benchBlobStore,
  http: benchHttp,
  'api-rps': benchApiRps,
  projects: benchProjects,
  'upload-finish': benchUploadFinish,
  browser: benchBrowser,
  link: benchLink,
  changeset: benchChangeset,
  'pull-v2': benchPullV2,
  'diff-storage': benchDiffStorage,
  'bundle-size': benchBundleSize,
  map: benchMap,
  'map-browser': benchMapBrowser,
  hostile: benchHostile,
  capture: benchCapture,
  'data-out': benchDataOut,
};

const RESULTS_FILE = join(import.meta.dirname, 'RESULTS.md');

const wanted = process.argv.slice(2);
const unknown = wanted.filter((name) => !(name in BENCHES));
if (unknown.length > 0) {
  console.error(`Unknown bench: ${unknown.join(', ')}. Known: ${Object.keys(BENCHES).join(', ')}`);
  process.exit(2);
}

const load = loadavg()[0];
const runs: BenchRun[] = [];
for (const [name, bench] of Object.entries(BENCHES)) {
  if (wanted.length === 0 || wanted.includes(name))
    runs.push({ bench: name, results: await bench() });
}
report(runs.flatMap((run) => run.results));

const existing = existsSync(RESULTS_FILE) ? await readFile(RESULTS_FILE, 'utf8') : null;
const machine = {
  cores: availableParallelism(),
  memoryBytes: totalmem(),
  node: process.version,
  load,
};
await writeFile(
  RESULTS_FILE,
  renderResults(existing, runs, Object.keys(BENCHES), new Date(), machine),
);
console.log(`Figures written to ${RESULTS_FILE}`);
