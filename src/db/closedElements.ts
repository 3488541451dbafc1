/** Dismissed banners and tips (spec 000 §2: remembered under a 'closed elements' key). */
import { bareGet } from './bare';
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

export async function closeElement(
  id: string,
  db?: WaymarkDatabase,
  now: number = Date.now(),
): Promise<void> {
  await (db ?? (await loadDb())).closedElements.put({ id, closedAt: now });
}

export async function reopenElement(id: string, db?: WaymarkDatabase): Promise<void> {
  await (db ?? (await loadDb())).closedElements.delete(id);
}
