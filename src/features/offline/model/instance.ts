/** The app's offline copies: Dexie's offlineEntries, owned as owner.ts says. */
import { db } from '../../../db';
import { createOfflineCache } from './offlineCache';
import { offlineStatus } from './offlineStatus';
import { offlineOwner } from './owner';

export const offlineCache = createOfflineCache({
  table: () => db.offlineEntries,
  owner: offlineOwner,
  status: offlineStatus,
});

export function withOfflineCopy<T>(key: string, load: () => Promise<T>): Promise<T> {
  return offlineCache.withOfflineCopy(key, load);
}
