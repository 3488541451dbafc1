/**
 * Offline copies of project data (issue 8): the project lists, a project with its files, its
 * versions, a version's detail and text previews. Each successful answer is saved in Dexie
 * (table offlineEntries) under its owner ('public' or 'user:<id>', see owner.ts); when a call
 * fails because the server cannot be reached, the saved copy is returned instead (the owner's,
 * else a public one) and the offline indicator learns its age. Without a copy the call fails
 * with NOT_SAVED_OFFLINE. Only reads are wrapped: never mutations, sign-in calls or downloads.
 */
import type { Table } from 'dexie';
import { ApiError, isApiError } from '@/api';
import type { OfflineEntry } from '@/db';
import { PUBLIC_OWNER, USER_OWNER_PREFIX } from './owner';
import type { OfflineStatus } from './offlineStatus';
import { NOT_SAVED_OFFLINE } from './texts';

export interface OfflineCacheDeps {
  /** The table; may load the database first (it is loaded on first use). */
  table: () =>
    Table<OfflineEntry, [string, string]> | Promise<Table<OfflineEntry, [string, string]>>;
  /** The current owner, null when copies must not be saved (owner unknown). */
  owner: () => string | null;
  status: OfflineStatus;
  now?: () => number;
  /** Saves an entry; by default a put into `table`. */
  save?: (entry: OfflineEntry) => Promise<unknown>;
}

export interface OfflineCopyOptions<T> {
  /**
   * Whose copy the answer is, when the answer itself says so (the profile: it makes its user
   * the owner while it loads, so the owner known before the call would be none).
   */
  ownerOf?: (data: T) => string | null;
}

export interface OfflineCache {
  /** Runs `load`; saves its answer, or answers with the saved copy when the server is unreachable. */
  withOfflineCopy<T>(
    key: string,
    load: () => Promise<T>,
    options?: OfflineCopyOptions<T>,
  ): Promise<T>;
  /** Deletes every signed-in user's copies (sign-out); public copies stay. */
  deletePrivate(): Promise<number>;
}

/** Whether an error means the server could not be reached (offline, connection lost). */
export function isUnreachable(error: unknown): boolean {
  return isApiError(error) && error.isNetworkError;
}

/** Whether an error is "offline and never saved here". */
export function isNotSavedOffline(error: unknown): boolean {
  return isApiError(error) && error.isNetworkError && error.message === NOT_SAVED_OFFLINE;
}

/** A stable text for call parameters (key order does not matter; undefined is left out). */
export function stableKey(prefix: string, ...parts: unknown[]): string {
  const normalise = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(normalise);
    if (value !== null && typeof value === 'object') {
      return Object.fromEntries(
        Object.entries(value as Record<string, unknown>)
          .filter(([, item]) => item !== undefined)
          .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
          .map(([name, item]) => [name, normalise(item)]),
      );
    }
    return value;
  };
  return `${prefix}:${JSON.stringify(parts.map(normalise))}`;
}

export function createOfflineCache(deps: OfflineCacheDeps): OfflineCache {
  const now = deps.now ?? (() => Date.now());
  const save = deps.save ?? (async (entry: OfflineEntry) => (await deps.table()).put(entry));

  async function find(owner: string | null, key: string): Promise<OfflineEntry | undefined> {
    const owners =
      owner !== null && owner !== PUBLIC_OWNER ? [owner, PUBLIC_OWNER] : [PUBLIC_OWNER];
    for (const candidate of owners) {
      try {
        const entry = await (await deps.table()).get([candidate, key]);
        if (entry) return entry;
      } catch {
        return undefined;
      }
    }
    return undefined;
  }

  return {
    async withOfflineCopy<T>(
      key: string,
      load: () => Promise<T>,
      options?: OfflineCopyOptions<T>,
    ): Promise<T> {
      const asked = deps.owner();
      let data: T;
      try {
        data = await load();
      } catch (error) {
        if (!isUnreachable(error)) throw error;
        const entry = await find(asked, key);
        if (!entry) {
          throw new ApiError({
            status: 0,
            message: NOT_SAVED_OFFLINE,
            isNetworkError: true,
            cause: error,
          });
        }
        deps.status.served(key, entry.savedAt);
        return entry.data as T;
      }
      deps.status.fresh(key);
      // The owner may have changed while the call ran (sign-in, sign-out): then nothing is saved.
      const owner = options?.ownerOf ? options.ownerOf(data) : asked;
      if (owner !== null && deps.owner() === owner) {
        try {
          await save({ owner, key, data, savedAt: now() });
        } catch {
          // Storage full or unavailable: the page still works online.
        }
      }
      return data;
    },

    async deletePrivate() {
      return (await deps.table()).where('owner').startsWith(USER_OWNER_PREFIX).delete();
    },
  };
}
