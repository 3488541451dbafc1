/** The app's offline copies: Dexie's offlineEntries, owned as owner.ts says. */
import { afterFirstScreen } from '@/db/afterFirstScreen';
import { barePut } from '@/db/bare';
import type { OfflineEntry } from '@/db/db';
import { loadDb } from '@/db/lazy';
import { createOfflineCache, type OfflineCopyOptions } from './offlineCache';
import { offlineStatus } from './offlineStatus';
import { offlineOwner } from './owner';

const STORE = 'offlineEntries';

/**
 * Saves a copy with the bare IndexedDB API, so the first screen neither loads Dexie nor waits
 * for it (issue 8's bundle budget). When the database does not exist yet (a first visit), Dexie
 * creates it and saves the copy once the first screen has rendered, or at once when the user
 * navigates on before that (afterFirstScreen), if the owner is still the same then: what is
 * shown is saved, and the first screen never waits for Dexie. The answer is not held back.
 */
async function saveCopy(entry: OfflineEntry): Promise<void> {
  const answer = await barePut(STORE, entry);
  if (answer.state === 'done') return;
  const put = async () => {
    if (offlineOwner() !== entry.owner) return;
    await (await loadDb()).offlineEntries.put(entry);
  };
  if (answer.state === 'failed') {
    await put();
    return;
  }
  void afterFirstScreen(put).catch(() => {
    // Storage full or unavailable: the page still works online.
  });
}

export const offlineCache = createOfflineCache({
  table: async () => (await loadDb()).offlineEntries,
  owner: offlineOwner,
  status: offlineStatus,
  save: saveCopy,
});

export function withOfflineCopy<T>(
  key: string,
  load: () => Promise<T>,
  options?: OfflineCopyOptions<T>,
): Promise<T> {
  return offlineCache.withOfflineCopy(key, load, options);
}
