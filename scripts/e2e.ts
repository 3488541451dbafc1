// `npm run test:e2e`: the end-to-end tier in two parts on one fresh server (playwright.config.ts):
// the 'serial' project (tests marked @serial: maintenance, templates, the dashboard's shared
// list) on one worker, then the 'parallel' project on 2. Both parts run to their end; arguments
// (files, --grep, ...) go to both. Exit code 1 when either failed.
import { spawn, spawnSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { resolve } from 'node:path';
import { buildIfStale } from './build-state';
import { e2eBaseURL, e2eDataDir, e2eServerEnv } from '../e2e/support/env';

const playwright = resolve('node_modules', '@playwright', 'test', 'cli.js');
const args = process.argv.slice(2);
const parts: [project: string, workers: number][] = [
  ['serial', 1],
  ['parallel', Number(process.env.E2E_WORKERS ?? 2)],
];

const answersPing = () =>
  fetch(`${e2eBaseURL}/ping`).then(
    (response) => response.status === 200,
    () => false,
  );

// The build first, outside Playwright's time limit for the server to answer.
if (!buildIfStale(process.cwd())) process.exit(1);

// One server for both parts: a start is 15 s on a quiet machine, about a minute on a busy one.
// The parts' Playwright runs find it answering (E2E_SERVER_STARTED) and start none of their own.
if (await answersPing()) {
  console.error(`Something already answers on ${e2eBaseURL}: choose another E2E_PORT.`);
  process.exit(1);
}
rmSync(e2eDataDir, { recursive: true, force: true });
const server = spawn(process.execPath, ['--import', 'tsx', 'scripts/e2e-server.ts'], {
  env: { ...process.env, ...e2eServerEnv },
  stdio: ['ignore', 'inherit', 'inherit'],
});
const exited = new Promise((done) => server.once('exit', done));
const deadline = Date.now() + 600_000;
while (!(await answersPing())) {
  if (server.exitCode !== null || Date.now() > deadline) {
    console.error(`The e2e server did not answer on ${e2eBaseURL}/ping.`);
    server.kill('SIGKILL');
    process.exit(1);
  }
  await new Promise((done) => setTimeout(done, 250));
}

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
    { stdio: 'inherit', env: { ...process.env, E2E_SERVER_STARTED: '1' } },
  );
  if (run.status !== 0) ok = false;
}

server.kill('SIGTERM');
const killer = setTimeout(() => server.kill('SIGKILL'), 15_000);
await exited;
clearTimeout(killer);
process.exit(ok ? 0 : 1);
