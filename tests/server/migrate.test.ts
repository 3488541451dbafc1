import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../server/src/config';
import { openDatabase, type Database } from '../../server/src/db/database';
import { migrate, readMigrations, type Migration } from '../../server/src/db/migrate';
import { createTestDataDir, type TestDataDir } from './support/test-db';

let data: TestDataDir;
let database: Database;

beforeAll(async () => {
  data = await createTestDataDir();
  database = await openDatabase(loadConfig({ ...data.env, LOG_LEVEL: 'silent' }));
});

afterAll(async () => {
  await database?.close();
  await data?.cleanup();
});

async function applied(db: Database): Promise<string[]> {
  return db.withClient(async (client) =>
    (await client.query<{ name: string }>('SELECT name FROM schema_migrations ORDER BY name')).map(
      (r) => r.name,
    ),
  );
}

async function tableExists(db: Database, name: string): Promise<boolean> {
  return db.withClient(async (client) => {
    const rows = await client.query<{ found: string | null }>(
      'SELECT to_regclass($1)::text AS found',
      [name],
    );
    return rows[0]?.found != null;
  });
}

describe('migrate', () => {
  it('has applied every migration file, and re-running is a no-op', async () => {
    const names = readMigrations().map((m) => m.name);
    expect(names[0]).toBe('0000_init');
    expect(await migrate(database)).toEqual([]);
    expect(await applied(database)).toEqual(names);
  });

  it('applies pending migrations once, even when started concurrently', async () => {
    const extra: Migration = {
      name: '9000_test_extra',
      statements: ['CREATE TABLE test_extra (id int)', 'INSERT INTO test_extra VALUES (1)'],
    };
    const list = [...readMigrations(), extra];
    // A second connection pool (PostgreSQL) or the same instance (PGlite, single process).
    const other =
      data.kind === 'postgres'
        ? await openDatabase(loadConfig({ ...data.env, LOG_LEVEL: 'silent' }))
        : database;
    try {
      const results = await Promise.all([migrate(database, list), migrate(other, list)]);
      expect(results.flat()).toEqual(['9000_test_extra']);
    } finally {
      if (other !== database) await other.close();
    }
    const rows = await database.withClient((c) => c.query('SELECT * FROM test_extra'));
    expect(rows).toHaveLength(1);
  });

  it('rolls a failing migration back completely and does not record it', async () => {
    const broken: Migration = {
      name: '9001_test_broken',
      statements: ['CREATE TABLE test_broken (id int)', 'SELECT * FROM no_such_table'],
    };
    await expect(migrate(database, [...readMigrations(), broken])).rejects.toThrow(
      /Migration 9001_test_broken failed/,
    );
    expect(await tableExists(database, 'test_broken')).toBe(false);
    expect(await applied(database)).not.toContain('9001_test_broken');
    // The lock was released: migrating again works.
    expect(await migrate(database)).toEqual([]);
  });
});
