/** Dismissed banners and tips (spec 000 §2: remembered under a 'closed elements' key). */
import { db as defaultDb, type WaymarkDatabase } from './db';

export async function isElementClosed(
  id: string,
  db: WaymarkDatabase = defaultDb,
): Promise<boolean> {
  return (await db.closedElements.get(id)) !== undefined;
}

export async function closeElement(
  id: string,
  db: WaymarkDatabase = defaultDb,
  now: number = Date.now(),
): Promise<void> {
  await db.closedElements.put({ id, closedAt: now });
}

export async function reopenElement(id: string, db: WaymarkDatabase = defaultDb): Promise<void> {
  await db.closedElements.delete(id);
}
