/** SQL for the sign-in rate limits (see auth/sign-in-limits.ts). */
import { and, asc, count, desc, eq, gte, lt, ne } from 'drizzle-orm';
import type { Executor } from '../database';
import { loginHistory, signInFailures } from '../schema';

export async function insertSignInAttempt(
  db: Executor,
  values: { account: string; address: string; failedAt: Date },
): Promise<number> {
  const rows = await db.insert(signInFailures).values(values).returning({ id: signInFailures.id });
  return rows[0]!.id;
}

export async function deleteSignInAttempt(db: Executor, id: number): Promise<void> {
  await db.delete(signInFailures).where(eq(signInFailures.id, id));
}

/** Forgets the failures of one account from one address (after a successful sign-in). */
export async function deletePairFailures(
  db: Executor,
  account: string,
  address: string,
): Promise<void> {
  await db
    .delete(signInFailures)
    .where(and(eq(signInFailures.account, account), eq(signInFailures.address, address)));
}

export async function deleteFailuresBefore(db: Executor, before: Date): Promise<void> {
  await db.delete(signInFailures).where(lt(signInFailures.failedAt, before));
}

/**
 * Times of the rows of an account (whatever the address) or of an address (whatever the
 * account) since `since`, the caller's own row included, oldest first.
 */
export async function failureTimes(
  db: Executor,
  by: { account: string } | { address: string },
  since: Date,
): Promise<Date[]> {
  const match =
    'account' in by
      ? eq(signInFailures.account, by.account)
      : eq(signInFailures.address, by.address);
  const rows = await db
    .select({ at: signInFailures.failedAt })
    .from(signInFailures)
    .where(and(match, gte(signInFailures.failedAt, since)))
    .orderBy(asc(signInFailures.failedAt));
  return rows.map((row) => row.at);
}

/** Failures of the account from the address since `since`, except row `exceptId`; and the latest. */
export async function pairFailures(
  db: Executor,
  account: string,
  address: string,
  since: Date,
  exceptId: number,
): Promise<{ count: number; latest: Date | null }> {
  const where = and(
    eq(signInFailures.account, account),
    eq(signInFailures.address, address),
    gte(signInFailures.failedAt, since),
    ne(signInFailures.id, exceptId),
  );
  const [total] = await db.select({ n: count() }).from(signInFailures).where(where);
  const latest = await db
    .select({ at: signInFailures.failedAt })
    .from(signInFailures)
    .where(where)
    .orderBy(desc(signInFailures.failedAt))
    .limit(1);
  return { count: total?.n ?? 0, latest: latest[0]?.at ?? null };
}

/** Whether the user signed in successfully from this address since `since`. */
export async function signedInFrom(
  db: Executor,
  userId: number,
  address: string,
  since: Date,
): Promise<boolean> {
  const rows = await db
    .select({ id: loginHistory.id })
    .from(loginHistory)
    .where(
      and(
        eq(loginHistory.userId, userId),
        eq(loginHistory.ip, address),
        gte(loginHistory.at, since),
      ),
    )
    .limit(1);
  return rows.length > 0;
}
