/**
 * Signing out removes what this browser kept of the signed-in user (issue 8): the user's
 * offline copies in Dexie (every 'user:' entry), the upload queue with its file bytes and the
 * field edits not sent yet (queued work of a signed-out user must never be sent under the next
 * user's session), the notices of landed uploads kept for the Outbox, and the service worker's
 * caches of the user's image previews. Public copies stay.
 */
import type { Table } from 'dexie';
import { loadDb } from '@/db/lazy';
import { ownerOfCache } from '@/sw/offline';
import { HELD_COPIES_KEY, offlineCache } from './instance';
import { OUTBOX_NOTICES_KEY, setOutboxNoticeCount } from './outboxCount';
import { USER_OWNER_PREFIX } from './owner';

export interface PrivateDataDeps {
  deleteOfflineCopies(): Promise<unknown>;
  uploadTables(): Table[] | Promise<Table[]>;
  caches: CacheStorage | undefined;
}

const defaultDeps = (): PrivateDataDeps => ({
  deleteOfflineCopies: () => offlineCache.deletePrivate(),
  uploadTables: async () => {
    const db = await loadDb();
    // The field edits not sent yet (issue 34) go with the uploads.
    return [
      db.uploads,
      db.uploadBlobs,
      db.uploadChunks,
      db.featureEdits,
      db.editPhotos,
      db.editBatches,
    ];
  },
  caches: globalThis.caches,
});

/** Deletes every signed-in user's data kept in this browser; each part is tried on its own. */
export async function deletePrivateData(deps: PrivateDataDeps = defaultDeps()): Promise<void> {
  // Notices of landed uploads (outboxNotices.ts) name the user's files; copies a first visit
  // left to store (instance.ts) may be the user's.
  try {
    localStorage.removeItem(OUTBOX_NOTICES_KEY);
    localStorage.removeItem(HELD_COPIES_KEY);
  } catch {
    // No storage: nothing was kept.
  }
  setOutboxNoticeCount(0);
  const parts: Promise<unknown>[] = [
    deps.deleteOfflineCopies(),
    Promise.resolve(deps.uploadTables()).then((tables) =>
      Promise.allSettled(tables.map((table) => table.clear())),
    ),
  ];
  if (deps.caches) {
    const storage = deps.caches;
    parts.push(
      storage
        .keys()
        .then((names) =>
          Promise.all(
            names
              .filter((name) => ownerOfCache(name)?.startsWith(USER_OWNER_PREFIX) === true)
              .map((name) => storage.delete(name)),
          ),
        ),
    );
  }
  await Promise.allSettled(parts);
}
