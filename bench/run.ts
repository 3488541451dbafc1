// `npm run bench`: every benchmark, each printing a ratio against a baseline from the same run.
// `npm run bench -- projects http`: only the named ones.
import { benchApiRps } from './api-rps.bench';
import { benchBlobStore } from './blob-store.bench';
import { benchBrowser } from './browser.bench';
import { benchBundleSize } from './bundle-size.bench';
import { benchChangeset } from './changeset.bench';
import { benchHttp } from './http.bench';
import { benchProjects } from './projects.bench';
import { benchPullV2 } from './pull-v2.bench';
import { benchUploadFinish } from './upload-finish.bench';
import { report, type BenchResult } from './harness';

const BENCHES: Record<string, () => Promise<BenchResult[]>> = {
  'blob-store': benchBlobStore,
  http: benchHttp,
  'api-rps': benchApiRps,
  projects: benchProjects,
  'upload-finish': benchUploadFinish,
  browser: benchBrowser,
  changeset: benchChangeset,
  'pull-v2': benchPullV2,
  'bundle-size': benchBundleSize,
};

const wanted = process.argv.slice(2);
const unknown = wanted.filter((name) => !(name in BENCHES));
if (unknown.length > 0) {
  console.error(`Unknown bench: ${unknown.join(', ')}. Known: ${Object.keys(BENCHES).join(', ')}`);
  process.exit(2);
}

const results: BenchResult[] = [];
for (const [name, bench] of Object.entries(BENCHES)) {
  if (wanted.length === 0 || wanted.includes(name)) results.push(...(await bench()));
}
report(results);
