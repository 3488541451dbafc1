import type { Config } from './config';
import type { Database } from './db/database';
import type { BlobStore } from './storage/blob-store';

/** Everything a route or service needs from the running server. */
export interface AppContext {
  readonly config: Config;
  readonly database: Database;
  readonly blobStore: BlobStore;
  /** The clock (injectable for tests). */
  readonly now: () => Date;
}

declare module 'fastify' {
  interface FastifyInstance {
    ctx: AppContext;
  }
}
