// `npm run test:e2e`: the end-to-end tier in two parts, each on a fresh server
// (playwright.config.ts): the 'serial' project (tests marked @serial: maintenance, templates,
// servers of their own) on one worker, then the 'parallel' project on 2. Both parts run
// to their end; arguments (files, --grep, ...) go to both. Exit code 1 when either failed.
import { spawnSync } from 'node:child_process';
import { resolve } from 'node:path';
import { buildIfStale } from './build-state';

const playwright = resolve('node_modules', '@playwright', 'test', 'cli.js');
const args = process.argv.slice(2);
const parts: [project: string, workers: number][] = [
  ['serial', 1],
  ['parallel', Number(process.env.E2E_WORKERS ?? 2)],
];

// The build first, outside Playwright's time limit for the server to answer.
if (!buildIfStale(process.cwd())) process.exit(1);

let ok = true;
for (const [project, workers] of parts) {
  console.log(`\n-- end-to-end, ${project} part (${workers} worker${workers > 1 ? 's' : ''}) --`);
  const run = spawnSync(
    process.execPath,
    [
      playwright,
      'test',
      `--project=${project}`,
      `--workers=${workers}`,
      '--pass-with-no-tests',
      ...args,
    ],
    { stdio: 'inherit' },
  );
  if (run.status !== 0) ok = false;
}
process.exit(ok ? 0 : 1);
