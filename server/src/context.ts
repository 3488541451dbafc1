import type { FastifyBaseLogger } from 'fastify';
import type { Config } from './config';
import type { Database } from './db/database';
import type { ReadCache } from './db/read-cache';
import type { Mailer } from './email';
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

/** How one run of a periodic job went (skipped: not due, or claimed by another instance). */
export type JobOutcome = 'ran' | 'skipped' | 'failed';

/**
 * The periodic jobs of the server (jobs/scheduler.ts implements it; the app is composed
 * with its jobs in app.ts). Declared here so the context needs no import of the jobs, whose
 * services import this file.
 */
export interface JobScheduler {
  /** Runs every job that is due and not claimed elsewhere; one pass at a time. */
  runDue(): Promise<Record<string, JobOutcome>>;
  /** Polls for due jobs every `pollMs`. */
  start(pollMs?: number): void;
  /** Stops polling and waits for a running pass. */
  stop(): Promise<void>;
}

declare module 'fastify' {
  interface FastifyInstance {
    ctx: AppContext;
    /** Periodic jobs (started by main.ts). */
    scheduler: JobScheduler;
    /** Sends queued webhook messages (started by main.ts; tests call runOnce). */
    webhooks: { start(pollMs?: number): void; runOnce(): Promise<number>; stop(): Promise<void> };
    /** The route table (every registered method and path). */
    routeIndex: RouteIndex;
  }
}
