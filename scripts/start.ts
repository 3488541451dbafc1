// `npm start`: builds the PWA when dist/ is missing or older than the sources, then runs the
// server (API + built PWA on one origin) with the configuration from the environment.
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildIfStale } from './build-state';
import { startServer } from '../server/src/main';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');

if (!buildIfStale(root)) process.exit(1);

await startServer(process.env);
