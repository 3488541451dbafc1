// The end-to-end tests' server (playwright.config.ts, e2e/support/own-server.ts): `npm start`
// (scripts/start.ts) on DATA_DIR, whose embedded database starts as a copy of a migrated one
// when DATA_DIR has none yet (scripts/e2e-database.ts).
import { prepareDataDir } from './e2e-database';

const dataDir = process.env.DATA_DIR;
if (!dataDir) throw new Error('scripts/e2e-server.ts needs DATA_DIR');
if (!process.env.DATABASE_URL) await prepareDataDir(dataDir);
await import('./start');
