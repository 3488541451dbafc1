/**
 * A fresh, migrated database for one test server: a copy of the PGlite template folder, or
 * a PostgreSQL database cloned from the template (see ../global-setup.ts).
 */
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import pg from 'pg';
import { inject } from 'vitest';

export type TestDatabaseInfo =
  | { kind: 'pglite'; templateDir: string; tmpRoot: string }
  | { kind: 'postgres'; serverUrl: string; template: string; prefix: string; tmpRoot: string };

export interface TestDataDir {
  /** DATA_DIR (and DATABASE_URL for PostgreSQL) to pass as environment. */
  env: Record<string, string>;
  dataDir: string;
  kind: 'pglite' | 'postgres';
  cleanup(): Promise<void>;
}

export function testDatabaseKind(): 'pglite' | 'postgres' {
  return inject('testDatabase').kind;
}

/** `cp -r` is about 4x faster than fs.cp for PGlite's ~1000 small files. */
function copyDir(from: string, to: string): Promise<void> {
  return new Promise((resolve) => {
    execFile('cp', ['-r', from, to], (error) => {
      if (!error) resolve();
      else resolve(fsp.cp(from, to, { recursive: true }));
    });
  });
}

/** A temp DATA_DIR holding a migrated empty database (or pointing at a fresh PG database). */
export async function createTestDataDir(): Promise<TestDataDir> {
  const info = inject('testDatabase');
  const dataDir = fs.mkdtempSync(path.join(info.tmpRoot, 'waymark-test-'));
  if (info.kind === 'pglite') {
    await copyDir(info.templateDir, path.join(dataDir, 'pglite'));
    return {
      env: { DATA_DIR: dataDir },
      dataDir,
      kind: 'pglite',
      cleanup: () => fsp.rm(dataDir, { recursive: true, force: true }),
    };
  }
  const name = `${info.prefix}${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: info.serverUrl });
  await admin.connect();
  try {
    // Concurrent clones of one template can collide ("source database is being accessed").
    for (let attempt = 0; ; attempt++) {
      try {
        await admin.query(`CREATE DATABASE "${name}" TEMPLATE "${info.template}"`);
        break;
      } catch (error) {
        if (attempt >= 20 || !/being accessed/.test((error as Error).message)) throw error;
        await new Promise((resolve) => setTimeout(resolve, 50 + Math.random() * 100));
      }
    }
  } finally {
    await admin.end();
  }
  const url = new URL(info.serverUrl);
  url.pathname = `/${name}`;
  return {
    env: { DATA_DIR: dataDir, DATABASE_URL: url.toString() },
    dataDir,
    kind: 'postgres',
    async cleanup() {
      const client = new pg.Client({ connectionString: info.serverUrl });
      await client.connect();
      try {
        await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      } finally {
        await client.end();
      }
      await fsp.rm(dataDir, { recursive: true, force: true });
    },
  };
}
