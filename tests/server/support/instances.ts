/**
 * More server instances beside a test app, as behind a load balancer: the same configuration
 * (so the same secret key, DATA_DIR and blob store) and the same database. On PostgreSQL
 * each instance has its own connection pool, as separate processes would; on PGlite (one
 * connection per process) they share the test app's.
 */
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../../server/src/app';
import { openDatabase, type Database } from '../../../server/src/db/database';
import type { BlobStore } from '../../../server/src/storage/blob-store';
import { openBlobStore } from '../../../server/src/storage/open-blob-store';
import { TestClient, type TestApp } from './test-app';

export interface Instance {
  app: FastifyInstance;
  database: Database;
  /** A client of this instance holding the session and CSRF token of `from`. */
  client(from: TestClient): TestClient;
  close(): Promise<void>;
}

export async function startInstance(
  t: TestApp,
  options: { blobStore?: BlobStore; dataDir?: string } = {},
): Promise<Instance> {
  const own = t.database.kind === 'postgres';
  const database = own ? await openDatabase(t.config) : t.database;
  // Another DATA_DIR: an instance on another machine (with an S3 store, no shared disk).
  const config = options.dataDir ? { ...t.config, dataDir: options.dataDir } : t.config;
  const app = buildApp({
    config,
    database,
    blobStore: options.blobStore ?? openBlobStore(config),
    now: t.clock.now,
    distDir: null,
    logger: false,
  });
  await app.ready();
  return {
    app,
    database,
    client(from) {
      const client = new TestClient(app);
      for (const [name, value] of from.cookies) client.cookies.set(name, value);
      client.csrfToken = from.csrfToken;
      return client;
    },
    async close() {
      await app.close();
      if (own) await database.close();
    },
  };
}
