/** The last workspace each user worked in on this device (spec 000 §4 "Current workspace"). */
import type { LastWorkspace, WaymarkDatabase } from './db';
import { loadDb } from './lazy';

export async function getLastWorkspace(
  userId: number,
  db?: WaymarkDatabase,
): Promise<LastWorkspace | undefined> {
  return (db ?? (await loadDb())).lastWorkspace.get(userId);
}

export async function rememberWorkspace(
  userId: number,
  workspaceId: number,
  db?: WaymarkDatabase,
  now: number = Date.now(),
): Promise<LastWorkspace> {
  const entry: LastWorkspace = { userId, id: workspaceId, lastSeen: now };
  await (db ?? (await loadDb())).lastWorkspace.put(entry);
  return entry;
}

export async function forgetWorkspace(userId: number, db?: WaymarkDatabase): Promise<void> {
  await (db ?? (await loadDb())).lastWorkspace.delete(userId);
}
