/**
 * Work on users' files and the versions rebuilt from diffs: FILE_WORK_* (lib/sandbox/budget.ts),
 * VERSION_CACHE_BYTES and VERSION_COPY_DELAY (services/file-store/).
 */
import { readInteger, type Env } from './read';
import type { Config, FileWorkConfig } from './types';

/** FILE_WORK_SECONDS, FILE_WORK_BACKGROUND_SECONDS, FILE_WORK_MEMORY_MB, FILE_WORK_NICE. */
export function readFileWork(env: Env): FileWorkConfig {
  return Object.freeze({
    seconds: readInteger(env, 'FILE_WORK_SECONDS', 20, 1, 3600),
    backgroundSeconds: readInteger(env, 'FILE_WORK_BACKGROUND_SECONDS', 900, 1, 86_400),
    memoryBytes: readInteger(env, 'FILE_WORK_MEMORY_MB', 1024, 64, 65_536) * 1024 * 1024,
    nice: readInteger(env, 'FILE_WORK_NICE', 10, 0, 19),
  });
}

export function readVersionStore(
  env: Env,
): Pick<Config, 'versionCacheBytes' | 'versionCopyDelayMs'> {
  return {
    versionCacheBytes: readInteger(
      env,
      'VERSION_CACHE_BYTES',
      2 * 1024 ** 3,
      0,
      Number.MAX_SAFE_INTEGER,
      'must be a whole number of bytes (e.g. 2147483648)',
    ),
    versionCopyDelayMs:
      readInteger(
        env,
        'VERSION_COPY_DELAY',
        60,
        0,
        86_400,
        'must be a whole number of seconds between 0 and 86400',
      ) * 1000,
  };
}
