/**
 * Opens the database: embedded PGlite in DATA_DIR/pglite by default, PostgreSQL through a
 * node-postgres pool when DATABASE_URL is set. Both expose the same Drizzle pg-core API.
 *
 * PGlite can be opened by one process at a time: DATA_DIR/pglite.lock names the owner
 * (db/data-dir-lock.ts), so a second server or a direct CLI call fails with a clear message
 * instead of corrupting the files (the CLI talks to a running server through its admin
 * socket instead).
 */
import fs from 'node:fs';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import type { SQL } from 'drizzle-orm';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { drizzle as drizzlePostgres } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import type { Config } from '../config';
import { DatabaseLockedError, takeDataDirLock } from './data-dir-lock';
import { pgliteSnapshots, SNAPSHOT_QUERY } from './pglite-snapshot';
import * as schema from './schema';

export type Schema = typeof schema;
export type Db = PgDatabase<PgQueryResultHKT, Schema>;
/** The transaction handle given to `db.transaction(async (tx) => ...)`. */
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];
/** Either the database or a transaction: query functions accept both. */
export type Executor = Db | Tx;
/** A piece of a statement built by db/queries (a WITH part another query runs with its own). */
export type StatementPart = SQL;

/** Raw SQL access on one connection (migrations, advisory locks). */
export interface SqlClient {
  query<R = Record<string, unknown>>(text: string, params?: unknown[]): Promise<R[]>;
  /** Runs one or more statements without parameters. */
  exec(text: string): Promise<void>;
}

export interface Database {
  readonly db: Db;
  readonly kind: 'pglite' | 'postgres';
  /** Runs `fn` with one dedicated connection (PGlite has only one). */
  withClient<T>(fn: (client: SqlClient) => Promise<T>): Promise<T>;
  /**
   * The snapshot a new statement sees, as text (db/read-cache.ts). One trivial statement,
   * sent straight to the driver (Drizzle's per-query type parsers cost more than the query);
   * on PGlite none while no statement at all ran since the last one (db/pglite-snapshot.ts).
   */
  snapshot(): Promise<string>;
  close(): Promise<void>;
}

export { DatabaseLockedError } from './data-dir-lock';

const openPgliteDirs = new Set<string>();

/** Takes the data directory's lock (db/data-dir-lock.ts), once per directory and process. */
function lockPgliteDir(dataDir: string, dir: string): () => void {
  if (openPgliteDirs.has(dir)) throw new DatabaseLockedError(dir, process.pid);
  const release = takeDataDirLock(dataDir, dir);
  openPgliteDirs.add(dir);
  return () => {
    openPgliteDirs.delete(dir);
    release();
  };
}

export async function openPglite(dataDir: string): Promise<Database> {
  const dir = path.join(dataDir, 'pglite');
  fs.mkdirSync(dir, { recursive: true });
  const release = lockPgliteDir(dataDir, dir);
  let client: PGlite | undefined;
  let snapshot: () => Promise<string>;
  try {
    // pg_trgm backs the project name search index (PostgreSQL ships it in contrib).
    client = await PGlite.create({ dataDir: dir, extensions: { pg_trgm } });
    snapshot = await pgliteSnapshots(client);
  } catch (error) {
    await client?.close().catch(() => {});
    release();
    throw error;
  }
  const pglite: PGlite = client;
  const db = drizzlePglite({ client: pglite, schema }) as unknown as Db;
  const sqlClient: SqlClient = {
    async query<R>(text: string, params?: unknown[]) {
      const result = await pglite.query<R>(text, params);
      return result.rows;
    },
    async exec(text: string) {
      await pglite.exec(text);
    },
  };
  let closed = false;
  return {
    db,
    kind: 'pglite',
    withClient: (fn) => fn(sqlClient),
    snapshot,
    async close() {
      if (closed) return;
      closed = true;
      try {
        await pglite.close();
      } finally {
        release();
      }
    },
  };
}

/** Default most connections of an instance's pool (DATABASE_POOL_SIZE). */
export const DEFAULT_POOL_SIZE = 10;

export function openPostgres(url: string, poolSize = DEFAULT_POOL_SIZE): Database {
  const pool = new pg.Pool({ connectionString: url, max: poolSize });
  // An idle client losing its connection must not crash the process.
  pool.on('error', () => {});
  const db = drizzlePostgres({ client: pool, schema }) as unknown as Db;
  let closed = false;
  return {
    db,
    kind: 'postgres',
    async withClient(fn) {
      const conn = await pool.connect();
      try {
        return await fn({
          async query<R>(text: string, params?: unknown[]) {
            const result = await conn.query(text, params);
            return result.rows as R[];
          },
          async exec(text: string) {
            await conn.query(text);
          },
        });
      } finally {
        conn.release();
      }
    },
    async snapshot() {
      const result = await pool.query<{ snapshot: string }>(SNAPSHOT_QUERY);
      return result.rows[0]!.snapshot;
    },
    async close() {
      if (closed) return;
      closed = true;
      await pool.end();
    },
  };
}

export async function openDatabase(
  config: Pick<Config, 'dataDir' | 'databaseUrl'> & Partial<Pick<Config, 'databasePoolSize'>>,
): Promise<Database> {
  return config.databaseUrl
    ? openPostgres(config.databaseUrl, config.databasePoolSize)
    : openPglite(config.dataDir);
}
