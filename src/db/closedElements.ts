/** Dismissed banners and tips (spec 000 §2: remembered under a 'closed elements' key). */
import { bareDelete, bareGet, barePut } from './bare';
import type { ClosedElement, WaymarkDatabase } from './db';
import { loadDb } from './lazy';

/** Read with the bare IndexedDB API when no database is given (no Dexie before a screen shows). */
export async function isElementClosed(id: string, db?: WaymarkDatabase): Promise<boolean> {
  if (!db) {
    const answer = await bareGet<ClosedElement>('closedElements', id);
    if (answer.state === 'done') return answer.value !== undefined;
    if (answer.state === 'missing') return false;
  }
  return (await (db ?? (await loadDb())).closedElements.get(id)) !== undefined;
}

/**
 * Remembers the dismissal. Without a database given it is written with the bare IndexedDB API
 * (a few milliseconds, so a reload right after a click keeps it), and through Dexie only when
 * the database or its store does not exist yet or the bare write failed.
 */
export async function closeElement(
  id: string,
  db?: WaymarkDatabase,
  now: number = Date.now(),
): Promise<void> {
  const entry: ClosedElement = { id, closedAt: now };
  if (!db && (await barePut('closedElements', entry)).state === 'done') return;
  await (db ?? (await loadDb())).closedElements.put(entry);
}

export async function reopenElement(id: string, db?: WaymarkDatabase): Promise<void> {
  if (!db && (await bareDelete('closedElements', id)).state === 'done') return;
  await (db ?? (await loadDb())).closedElements.delete(id);
}
