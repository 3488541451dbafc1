/** SQL for browser sessions (see auth/sessions.ts). */
import { and, eq, gt, lt, ne } from 'drizzle-orm';
import type { Executor } from '../database';
import { SNAPSHOT_SQL } from '../read-cache';
import { sessions, users, type Session, type User } from '../schema';

export async function insertSession(
  db: Executor,
  values: typeof sessions.$inferInsert,
): Promise<void> {
  await db.insert(sessions).values(values);
}

/**
 * The unexpired session with this hash, and its user; with the snapshot this statement read
 * them under (db/read-cache.ts), so reads made after it can be cached for the request.
 */
export async function findLiveSession(
  db: Executor,
  idHash: string,
  now: Date,
): Promise<{ session: Session; user: User; snapshot: string } | null> {
  const rows = await db
    .select({ session: sessions, user: users, snapshot: SNAPSHOT_SQL })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(and(eq(sessions.idHash, idHash), gt(sessions.expiresAt, now)))
    .limit(1);
  return rows[0] ?? null;
}

export async function touchSession(
  db: Executor,
  idHash: string,
  lastSeenAt: Date,
  expiresAt: Date,
): Promise<void> {
  await db.update(sessions).set({ lastSeenAt, expiresAt }).where(eq(sessions.idHash, idHash));
}

export async function deleteSession(db: Executor, idHash: string): Promise<void> {
  await db.delete(sessions).where(eq(sessions.idHash, idHash));
}

export async function deleteUserSessions(db: Executor, userId: number): Promise<void> {
  await db.delete(sessions).where(eq(sessions.userId, userId));
}

export async function deleteExpiredSessions(db: Executor, now: Date): Promise<void> {
  await db.delete(sessions).where(lt(sessions.expiresAt, now));
}

/** Ends every session of the user except `keepIdHash` (the one making the request). */
export async function deleteOtherUserSessions(
  db: Executor,
  userId: number,
  keepIdHash: string | null,
): Promise<void> {
  await db
    .delete(sessions)
    .where(
      and(
        eq(sessions.userId, userId),
        keepIdHash === null ? undefined : ne(sessions.idHash, keepIdHash),
      ),
    );
}
