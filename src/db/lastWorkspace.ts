/** The last workspace each user worked in on this device (spec 000 §4 "Current workspace"). */
import { db as defaultDb, type LastWorkspace, type WaymarkDatabase } from './db';

export async function getLastWorkspace(
  userId: number,
  db: WaymarkDatabase = defaultDb,
): Promise<LastWorkspace | undefined> {
  return db.lastWorkspace.get(userId);
}

export async function rememberWorkspace(
  userId: number,
  workspaceId: number,
  db: WaymarkDatabase = defaultDb,
  now: number = Date.now(),
): Promise<LastWorkspace> {
  const entry: LastWorkspace = { userId, id: workspaceId, lastSeen: now };
  await db.lastWorkspace.put(entry);
  return entry;
}

export async function forgetWorkspace(
  userId: number,
  db: WaymarkDatabase = defaultDb,
): Promise<void> {
  await db.lastWorkspace.delete(userId);
}
