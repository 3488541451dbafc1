/**
 * What the file store needs of the server (a subset of AppContext, so the admin CLI can
 * convert old data without a running server), and its per-process state: the cache of
 * rebuilt files and the background worker.
 */
import type { AppContext } from '../../context';
import { FileCache } from './cache';

export type FileStoreContext = Pick<
  AppContext,
  'config' | 'database' | 'blobStore' | 'log' | 'now'
>;

const caches = new WeakMap<object, FileCache>();

/** The cache of rebuilt files of this process (one per context). */
export function fileCacheOf(ctx: FileStoreContext): FileCache {
  let cache = caches.get(ctx);
  if (!cache) {
    cache = new FileCache(
      FileCache.rootFor(ctx.config.dataDir),
      ctx.config.versionCacheBytes,
      (err, what) => ctx.log.warn({ err }, what),
    );
    caches.set(ctx, cache);
  }
  return cache;
}

/** Gives the cache's folder up (shutdown). */
export async function closeFileCache(ctx: FileStoreContext): Promise<void> {
  await caches.get(ctx)?.close();
}
