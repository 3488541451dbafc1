/** Queries of personal access tokens (schema.ts personalTokens). */
import { and, count, desc, eq, gt, isNull, lt, or } from 'drizzle-orm';
import type { Executor } from '../database';
import { personalTokens, users, type PersonalToken, type User } from '../schema';

export async function insertPersonalToken(
  db: Executor,
  values: typeof personalTokens.$inferInsert,
): Promise<PersonalToken> {
  const [row] = await db.insert(personalTokens).values(values).returning();
  return row!;
}

/** A user's tokens, newest first. */
export async function listPersonalTokens(db: Executor, userId: number): Promise<PersonalToken[]> {
  return db
    .select()
    .from(personalTokens)
    .where(eq(personalTokens.userId, userId))
    .orderBy(desc(personalTokens.createdAt), desc(personalTokens.id));
}

/** How many of the user's tokens are neither revoked nor expired. */
export async function countLiveTokens(db: Executor, userId: number, now: Date): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(personalTokens)
    .where(
      and(
        eq(personalTokens.userId, userId),
        isNull(personalTokens.revokedAt),
        gt(personalTokens.expiresAt, now),
      ),
    );
  return row?.n ?? 0;
}

export async function findUserToken(
  db: Executor,
  userId: number,
  id: number,
): Promise<PersonalToken | null> {
  const [row] = await db
    .select()
    .from(personalTokens)
    .where(and(eq(personalTokens.id, id), eq(personalTokens.userId, userId)));
  return row ?? null;
}

/** Marks a token revoked (once); whether this call revoked it. */
export async function revokePersonalToken(db: Executor, id: number, now: Date): Promise<boolean> {
  const rows = await db
    .update(personalTokens)
    .set({ revokedAt: now })
    .where(and(eq(personalTokens.id, id), isNull(personalTokens.revokedAt)))
    .returning({ id: personalTokens.id });
  return rows.length > 0;
}

/** The live token with this secret hash, and its user (active or not: the caller checks). */
export async function findLiveToken(
  db: Executor,
  secretHash: string,
  now: Date,
): Promise<{ token: PersonalToken; user: User } | null> {
  const [row] = await db
    .select({ token: personalTokens, user: users })
    .from(personalTokens)
    .innerJoin(users, eq(users.id, personalTokens.userId))
    .where(
      and(
        eq(personalTokens.secretHash, secretHash),
        isNull(personalTokens.revokedAt),
        gt(personalTokens.expiresAt, now),
      ),
    )
    .limit(1);
  return row ?? null;
}

/**
 * Records a use, at most once per `every` ms per token (a script's burst of calls writes
 * one row update, not one per call).
 */
export async function touchPersonalToken(
  db: Executor,
  id: number,
  now: Date,
  ip: string | null,
  every: number,
): Promise<void> {
  await db
    .update(personalTokens)
    .set({ lastUsedAt: now, lastUsedIp: ip })
    .where(
      and(
        eq(personalTokens.id, id),
        or(
          isNull(personalTokens.lastUsedAt),
          lt(personalTokens.lastUsedAt, new Date(now.getTime() - every)),
        ),
      ),
    );
}
