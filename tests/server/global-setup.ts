/**
 * Prepares one migrated database template for the whole server test run, so each test
 * copies it instead of paying for initdb and migrations:
 * - PGlite (default): a migrated data folder, cached in node_modules/.cache/waymark-tests
 *   (keyed by the migrations and the PGlite version), copied per test server;
 * - PostgreSQL (env TEST_DATABASE_URL): a template database; each test server gets
 *   `CREATE DATABASE ... TEMPLATE ...`, and everything is dropped at the end.
 */
import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { openPglite, openPostgres } from '../../server/src/db/database';
import { migrate, MIGRATIONS_DIR, readMigrations } from '../../server/src/db/migrate';
import type { TestDatabaseInfo } from './support/test-db';

declare module 'vitest' {
  export interface ProvidedContext {
    testDatabase: TestDatabaseInfo;
  }
}

const root = path.resolve(import.meta.dirname, '../..');

function templateKey(): string {
  const hash = createHash('sha256');
  const pglitePackage = path.join(root, 'node_modules/@electric-sql/pglite/package.json');
  hash.update(fs.readFileSync(pglitePackage));
  for (const file of fs
    .readdirSync(MIGRATIONS_DIR)
    .filter((f) => f.endsWith('.sql'))
    .sort()) {
    hash.update(file).update(fs.readFileSync(path.join(MIGRATIONS_DIR, file)));
  }
  return hash.digest('hex').slice(0, 16);
}

async function preparePglite(): Promise<string> {
  const cacheRoot = path.join(root, 'node_modules/.cache/waymark-tests');
  const ready = path.join(cacheRoot, `pglite-${templateKey()}`);
  if (fs.existsSync(path.join(ready, 'pglite', 'PG_VERSION'))) return path.join(ready, 'pglite');
  fs.mkdirSync(cacheRoot, { recursive: true });
  const building = fs.mkdtempSync(path.join(cacheRoot, 'building-'));
  const database = await openPglite(building);
  await migrate(database, readMigrations());
  await database.close();
  try {
    fs.renameSync(building, ready);
  } catch {
    // Another run finished first: use theirs.
    fs.rmSync(building, { recursive: true, force: true });
  }
  return path.join(ready, 'pglite');
}

function databaseUrl(base: string, name: string): string {
  const url = new URL(base);
  url.pathname = `/${name}`;
  return url.toString();
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const serverUrl = process.env.TEST_DATABASE_URL;
  if (!serverUrl) {
    const templateDir = await preparePglite();
    project.provide('testDatabase', { kind: 'pglite', templateDir, tmpRoot: os.tmpdir() });
    return async () => {};
  }

  const runId = `${Date.now().toString(36)}${randomBytes(3).toString('hex')}`;
  const prefix = `waymark_t_${runId}_`;
  const template = `waymark_tpl_${runId}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE "${template}"`);
  await admin.end();
  const database = openPostgres(databaseUrl(serverUrl, template));
  await migrate(database, readMigrations());
  await database.close();

  project.provide('testDatabase', {
    kind: 'postgres',
    serverUrl,
    template,
    prefix,
    tmpRoot: os.tmpdir(),
  });

  return async () => {
    const client = new pg.Client({ connectionString: serverUrl });
    await client.connect();
    const { rows } = await client.query<{ datname: string }>(
      'SELECT datname FROM pg_database WHERE datname LIKE $1 OR datname = $2',
      [`${prefix}%`, template],
    );
    for (const { datname } of rows) {
      await client.query(`DROP DATABASE IF EXISTS "${datname}" WITH (FORCE)`);
    }
    await client.end();
  };
}
