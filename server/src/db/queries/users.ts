/** SQL for users and their login history. */
import { and, count, eq, inArray, isNotNull, ne, or, sql } from 'drizzle-orm';
import type { Executor } from '../database';
import { loginHistory, projectMembers, users, type NewUser, type User } from '../schema';

export async function findUserById(db: Executor, id: number): Promise<User | null> {
  const rows = await db.select().from(users).where(eq(users.id, id)).limit(1);
  return rows[0] ?? null;
}

export async function findUserByUsername(db: Executor, username: string): Promise<User | null> {
  const rows = await db
    .select()
    .from(users)
    .where(sql`lower(${users.username}) = lower(${username})`)
    .limit(1);
  return rows[0] ?? null;
}

export async function findUserByEmail(db: Executor, email: string): Promise<User | null> {
  const rows = await db
    .select()
    .from(users)
    .where(sql`lower(${users.email}) = lower(${email})`)
    .limit(1);
  return rows[0] ?? null;
}

export async function countUsers(db: Executor): Promise<number> {
  const rows = await db.select({ n: count() }).from(users);
  return Number(rows[0]?.n ?? 0);
}

export async function insertUser(db: Executor, values: NewUser): Promise<User> {
  const rows = await db.insert(users).values(values).returning();
  return rows[0]!;
}

export async function updateUser(
  db: Executor,
  id: number,
  values: Partial<Omit<NewUser, 'id'>>,
): Promise<void> {
  await db.update(users).set(values).where(eq(users.id, id));
}

export async function recordLogin(
  db: Executor,
  entry: {
    userId: number;
    at: Date;
    userAgent: string | null;
    ip: string | null;
    deviceId: string | null;
  },
): Promise<void> {
  await db.insert(loginHistory).values(entry);
  await db.update(users).set({ lastSignedIn: entry.at }).where(eq(users.id, entry.userId));
}

/** Another user (not `exceptUserId`) already uses this email, compared case-insensitively. */
export async function emailTakenByOther(
  db: Executor,
  email: string,
  exceptUserId: number,
): Promise<boolean> {
  const rows = await db
    .select({ id: users.id })
    .from(users)
    .where(and(sql`lower(${users.email}) = lower(${email})`, ne(users.id, exceptUserId)))
    .limit(1);
  return rows.length > 0;
}

/**
 * Replaces the password hash; with `expectedHash`, only if the stored hash is still that one
 * (a reset link is single-use even when two requests race). Returns whether it changed.
 */
export async function setPasswordHash(
  db: Executor,
  id: number,
  passwordHash: string,
  changedAt: Date,
  expectedHash?: string,
): Promise<boolean> {
  const rows = await db
    .update(users)
    .set({ passwordHash, passwordChangedAt: changedAt })
    .where(
      and(
        eq(users.id, id),
        expectedHash === undefined ? undefined : eq(users.passwordHash, expectedHash),
      ),
    )
    .returning({ id: users.id });
  return rows.length > 0;
}

/** Active users whose usernames (case-insensitively) are among `usernames`. */
export async function findActiveUsersByUsernames(
  db: Executor,
  usernames: string[],
): Promise<{ id: number; username: string }[]> {
  if (usernames.length === 0) return [];
  const lowered = [...new Set(usernames.map((name) => name.toLowerCase()))];
  return db
    .select({ id: users.id, username: users.username })
    .from(users)
    .where(and(eq(users.active, true), inArray(sql`lower(${users.username})`, lowered)));
}

/** Active users with these ids. */
export async function findActiveUsersByIds(
  db: Executor,
  ids: number[],
): Promise<{ id: number; username: string }[]> {
  if (ids.length === 0) return [];
  return db
    .select({ id: users.id, username: users.username })
    .from(users)
    .where(and(eq(users.active, true), inArray(users.id, [...new Set(ids)])));
}

export interface NotifiableUser {
  id: number;
  username: string;
  email: string;
}

/**
 * Active users with a verified email who receive notifications, among the project's
 * direct owners and the superusers.
 */
export async function findProjectOwnersToNotify(
  db: Executor,
  projectId: string,
): Promise<NotifiableUser[]> {
  const rows = await db
    .select({ id: users.id, username: users.username, email: users.email })
    .from(users)
    .where(
      and(
        eq(users.active, true),
        eq(users.verifiedEmail, true),
        eq(users.receiveNotifications, true),
        isNotNull(users.email),
        or(
          eq(users.isAdmin, true),
          sql`exists (select 1 from ${projectMembers} where ${projectMembers.projectId} = ${projectId} and ${projectMembers.userId} = ${users.id} and ${projectMembers.role} = 'owner')`,
        ),
      ),
    )
    .orderBy(users.id);
  return rows.filter((row): row is NotifiableUser => row.email !== null);
}
