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
 * Copies of a first visit waiting for the first screen (below), by owner and key. Should the
 * page be left before (a reload, an address typed, the tab closed: issue 31), `pagehide` keeps
 * them in localStorage (HELD_COPIES_KEY) and the next start stores them; a page merely hidden
 * (another tab, the app switched away from) stores them at once.
 */
const held = new Map<string, OfflineEntry>();
export const HELD_COPIES_KEY = 'waymark.heldCopies';

function heldOnDevice(): OfflineEntry[] {
  try {
    const list: unknown = JSON.parse(localStorage.getItem(HELD_COPIES_KEY) ?? '[]');
    return Array.isArray(list) ? (list as OfflineEntry[]) : [];
  } catch {
    return [];
  }
}

let stored: Promise<void> | null = null;
/** Stores the copies a page left kept in localStorage (once per start; reads wait for it). */
function storeHeldCopies(): Promise<void> {
  stored ??= (async () => {
    const entries = heldOnDevice();
    if (entries.length === 0) return;
    await (await loadDb()).offlineEntries.bulkPut(entries);
    localStorage.removeItem(HELD_COPIES_KEY);
  })().catch(() => undefined);
  return stored;
}

async function put(entry: OfflineEntry): Promise<void> {
  if (offlineOwner() !== entry.owner) return;
  await (await loadDb()).offlineEntries.put(entry);
}

/** Stores a held copy; it stays held (for `pagehide`) until it is stored. */
async function putHeld(id: string, entry: OfflineEntry): Promise<void> {
  if (held.get(id) !== entry) return;
  await put(entry);
  if (held.get(id) === entry) held.delete(id);
}

if (typeof window !== 'undefined') {
  window.addEventListener('pagehide', () => {
    if (held.size === 0) return;
    try {
      const kept = new Map(heldOnDevice().map((e) => [`${e.owner} ${e.key}`, e]));
      for (const [id, entry] of held) kept.set(id, entry);
      localStorage.setItem(HELD_COPIES_KEY, JSON.stringify([...kept.values()]));
    } catch {
      // Storage full: those copies are lost, as before.
    }
  });
  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState !== 'hidden') return;
    for (const [id, entry] of held) void putHeld(id, entry).catch(() => undefined);
  });
  if (localStorage.getItem(HELD_COPIES_KEY)) void afterFirstScreen(storeHeldCopies);
}

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
  if (answer.state === 'failed') {
    await put(entry);
    return;
  }
  const id = `${entry.owner} ${entry.key}`;
  held.set(id, entry);
  void afterFirstScreen(() => putHeld(id, entry)).catch(() => {
    // Storage full or unavailable: the page still works online.
  });
}

export const offlineCache = createOfflineCache({
  table: async () => {
    await storeHeldCopies();
    return (await loadDb()).offlineEntries;
  },
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
