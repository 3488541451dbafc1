/**
 * The last workspace each user worked in on this device (spec 000 §4 "Current workspace").
 * Without a database given, rows are read and written with the bare IndexedDB API (./bare), so
 * the first screen does not wait for Dexie; only when the database or its store does not exist
 * yet does Dexie create it, after the first screen has rendered.
 */
import { afterFirstScreen } from './afterFirstScreen';
import { bareDelete, bareGet, barePut } from './bare';
import type { LastWorkspace, WaymarkDatabase } from './db';
import { loadDb } from './lazy';

const STORE = 'lastWorkspace';

export async function getLastWorkspace(
  userId: number,
  db?: WaymarkDatabase,
): Promise<LastWorkspace | undefined> {
  if (db) return db.lastWorkspace.get(userId);
  const answer = await bareGet<LastWorkspace>(STORE, userId);
  if (answer.state === 'done') return answer.value;
  if (answer.state === 'missing') return undefined;
  return (await loadDb()).lastWorkspace.get(userId);
}

export async function rememberWorkspace(
  userId: number,
  workspaceId: number,
  db?: WaymarkDatabase,
  now: number = Date.now(),
): Promise<LastWorkspace> {
  const entry: LastWorkspace = { userId, id: workspaceId, lastSeen: now };
  if (db) {
    await db.lastWorkspace.put(entry);
    return entry;
  }
  const answer = await barePut(STORE, entry);
  if (answer.state === 'done') return entry;
  if (answer.state === 'missing') {
    await afterFirstScreen(async () => (await loadDb()).lastWorkspace.put(entry));
  } else {
    await (await loadDb()).lastWorkspace.put(entry);
  }
  return entry;
}

export async function forgetWorkspace(userId: number, db?: WaymarkDatabase): Promise<void> {
  if (db) {
    await db.lastWorkspace.delete(userId);
    return;
  }
  const answer = await bareDelete(STORE, userId);
  // Nothing to forget in a database that does not exist.
  if (answer.state === 'failed') await (await loadDb()).lastWorkspace.delete(userId);
}
