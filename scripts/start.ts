// `npm start`: builds the PWA when dist/ is missing or older than the sources, then runs the
// server (API + built PWA on one origin) with the configuration from the environment.
import { spawnSync } from 'node:child_process';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { isBuildFresh, markBuilt } from './build-state';
import { startServer } from '../server/src/main';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');

if (!isBuildFresh(root)) {
  console.log('Building the web app (dist/ is missing or out of date)…');
  const vite = resolve(root, 'node_modules', 'vite', 'bin', 'vite.js');
  const build = spawnSync(process.execPath, [vite, 'build', '--logLevel', 'warn'], {
    cwd: root,
    stdio: 'inherit',
  });
  if (build.status !== 0) {
    console.error('The web app build failed; see the messages above.');
    process.exit(build.status ?? 1);
  }
  markBuilt(root);
}

await startServer(process.env);
