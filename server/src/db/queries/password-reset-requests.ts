/** SQL for the password-reset limits (see auth/reset-limits.ts). */
import { and, asc, eq, gte, lt } from 'drizzle-orm';
import type { Executor } from '../database';
import { passwordResetRequests } from '../schema';

export async function insertResetRequest(
  db: Executor,
  values: { email: string; address: string; requestedAt: Date },
): Promise<number> {
  const rows = await db
    .insert(passwordResetRequests)
    .values(values)
    .returning({ id: passwordResetRequests.id });
  return rows[0]!.id;
}

export async function deleteResetRequest(db: Executor, id: number): Promise<void> {
  await db.delete(passwordResetRequests).where(eq(passwordResetRequests.id, id));
}

export async function deleteResetRequestsBefore(db: Executor, before: Date): Promise<void> {
  await db.delete(passwordResetRequests).where(lt(passwordResetRequests.requestedAt, before));
}

/** Times of the requests for `email` or from `address` since `since`, oldest first. */
export async function resetRequestTimes(
  db: Executor,
  by: { email: string } | { address: string },
  since: Date,
): Promise<Date[]> {
  const match =
    'email' in by
      ? eq(passwordResetRequests.email, by.email)
      : eq(passwordResetRequests.address, by.address);
  const rows = await db
    .select({ at: passwordResetRequests.requestedAt })
    .from(passwordResetRequests)
    .where(and(match, gte(passwordResetRequests.requestedAt, since)))
    .orderBy(asc(passwordResetRequests.requestedAt));
  return rows.map((row) => row.at);
}
