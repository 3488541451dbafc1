/** Dismissed banners and tips (spec 000 §2: remembered under a 'closed elements' key). */
import type { WaymarkDatabase } from './db';
import { loadDb } from './lazy';

export async function isElementClosed(id: string, db?: WaymarkDatabase): Promise<boolean> {
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
