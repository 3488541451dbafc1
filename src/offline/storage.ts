/**
 * The browser's storage for this site (navigator.storage.estimate()): queued uploads keep their
 * file bytes in IndexedDB until sent, so the upload toast shows the estimate when space runs
 * short (90 % of the quota or more used).
 */
export const STORAGE_SHORT_RATIO = 0.9;

export interface StorageEstimateLike {
  usage?: number;
  quota?: number;
}

/** Whether the site's storage is running short; false when the browser does not say. */
export function isStorageShort(estimate: StorageEstimateLike | null): boolean {
  if (!estimate || !estimate.quota || estimate.usage === undefined) return false;
  return estimate.usage / estimate.quota >= STORAGE_SHORT_RATIO;
}

/** The estimate, or null where the browser has none (or refuses). */
export async function readStorageEstimate(
  storage: Pick<StorageManager, 'estimate'> | undefined = globalThis.navigator?.storage,
): Promise<StorageEstimateLike | null> {
  if (!storage?.estimate) return null;
  try {
    return await storage.estimate();
  } catch {
    return null;
  }
}
