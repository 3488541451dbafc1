/** The app's offline copies: Dexie's offlineEntries, owned as owner.ts says. */
import { loadDb } from '../../../db/lazy';
import { createOfflineCache } from './offlineCache';
import { offlineStatus } from './offlineStatus';
import { offlineOwner } from './owner';

export const offlineCache = createOfflineCache({
  table: async () => (await loadDb()).offlineEntries,
  owner: offlineOwner,
  status: offlineStatus,
});

export function withOfflineCopy<T>(key: string, load: () => Promise<T>): Promise<T> {
  return offlineCache.withOfflineCopy(key, load);
}
