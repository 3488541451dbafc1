import type { FastifyBaseLogger } from 'fastify';
import type { Config } from './config';
import type { Database } from './db/database';
import type { ReadCache } from './db/read-cache';
import type { Mailer } from './email';
import type { Scheduler } from './jobs/scheduler';
import type { RouteIndex } from './plugins/route-index';
import type { BlobStore } from './storage/blob-store';

/** Everything a route or service needs from the running server. */
export interface AppContext {
  readonly config: Config;
  readonly database: Database;
  readonly blobStore: BlobStore;
  /** The clock (injectable for tests). */
  readonly now: () => Date;
  /** Outgoing mail (SMTP, or the outbox folder). */
  readonly mailer: Mailer;
  /** The application logger (for events outside a request's own log). */
  readonly log: FastifyBaseLogger;
  /** Read results kept while the database snapshot is unchanged (db/read-cache.ts). */
  readonly readCache: ReadCache;
}

declare module 'fastify' {
  interface FastifyInstance {
    ctx: AppContext;
    /** Periodic jobs (started by main.ts). */
    scheduler: Scheduler;
    /** The route table (every registered method and path). */
    routeIndex: RouteIndex;
  }
}
