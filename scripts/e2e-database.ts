// The end-to-end tests' data directories (scripts/e2e-server.ts, e2e/update-prompt.spec.ts):
// a server's embedded database, when its DATA_DIR has none yet, starts as a copy of a migrated
// empty one instead of being created. Creating a PGlite cluster
// (initdb in WebAssembly) is most of a fresh server's start: 44 s of 53 with every core busy,
// against 5 s to open a copy. The copy is made once per set of migrations and PGlite version,
// in .data-e2e-template/ (beside the e2e data folders); everything else (the superuser, the
// default workspace, the secret key) the server's own first start makes, as for a new install.
import { createHash } from 'node:crypto';
import {
  cpSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
} from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const MIGRATIONS = join(root, 'server', 'src', 'db', 'migrations');
const TEMPLATES = join(root, '.data-e2e-template');

/** What the migrated database depends on: the migrations and the PGlite build. */
function templateKey(): string {
  const hash = createHash('sha256');
  for (const name of readdirSync(MIGRATIONS, { recursive: true }).map(String).sort()) {
    const path = join(MIGRATIONS, name);
    if (!name.endsWith('.sql')) continue;
    hash.update(name).update('\0').update(readFileSync(path)).update('\0');
  }
  const pglite = join(root, 'node_modules', '@electric-sql', 'pglite', 'package.json');
  hash.update(readFileSync(pglite));
  hash.update(readFileSync(join(root, 'server', 'src', 'db', 'database.ts')));
  return hash.digest('hex').slice(0, 16);
}

/** The migrated template's `pglite` folder, made now when missing. */
async function template(): Promise<string> {
  const key = templateKey();
  const dir = join(TEMPLATES, key);
  if (existsSync(join(dir, 'pglite'))) return join(dir, 'pglite');
  const { openPglite } = await import('../server/src/db/database');
  const { migrate } = await import('../server/src/db/migrate');
  const building = join(TEMPLATES, `${key}.${process.pid}.tmp`);
  rmSync(building, { recursive: true, force: true });
  mkdirSync(building, { recursive: true });
  const database = await openPglite(building);
  try {
    await migrate(database);
  } finally {
    await database.close();
  }
  rmSync(join(building, 'pglite.lock'), { force: true });
  // Templates of older migrations go; a template another process finished first stays.
  for (const name of existsSync(TEMPLATES) ? readdirSync(TEMPLATES) : []) {
    if (name !== key && !name.endsWith('.tmp')) {
      rmSync(join(TEMPLATES, name), { recursive: true, force: true });
    }
  }
  try {
    renameSync(building, dir);
  } catch (error) {
    if (!existsSync(join(dir, 'pglite'))) throw error;
    rmSync(building, { recursive: true, force: true });
  }
  return join(dir, 'pglite');
}

/**
 * Gives `dataDir` a copy of the migrated template database when it has no database yet (a
 * restarted server keeps its own).
 */
export async function prepareDataDir(dataDir: string): Promise<void> {
  if (existsSync(join(dataDir, 'pglite'))) return;
  const source = await template();
  mkdirSync(dataDir, { recursive: true });
  cpSync(source, join(dataDir, 'pglite'), { recursive: true });
}
