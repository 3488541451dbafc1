/** SQL for the rolling-window request limits (see auth/rate-limits.ts). */
import { and, asc, eq, gte, lt } from 'drizzle-orm';
import type { Executor } from '../database';
import { rateLimitHits } from '../schema';

export async function insertRateLimitHit(
  db: Executor,
  values: { kind: string; subject: string | null; source: string; at: Date },
): Promise<number> {
  const rows = await db.insert(rateLimitHits).values(values).returning({ id: rateLimitHits.id });
  return rows[0]!.id;
}

export async function deleteRateLimitHit(db: Executor, id: number): Promise<void> {
  await db.delete(rateLimitHits).where(eq(rateLimitHits.id, id));
}

/** Forgets the rows of one limit older than `before`. */
export async function deleteRateLimitHitsBefore(
  db: Executor,
  kind: string,
  before: Date,
): Promise<void> {
  await db
    .delete(rateLimitHits)
    .where(and(eq(rateLimitHits.kind, kind), lt(rateLimitHits.at, before)));
}

/**
 * Times of one limit's rows since `since`, oldest first: of one subject, of one source, or
 * all of them.
 */
export async function rateLimitHitTimes(
  db: Executor,
  kind: string,
  by: { subject: string } | { source: string } | 'all',
  since: Date,
): Promise<Date[]> {
  const match =
    by === 'all'
      ? undefined
      : 'subject' in by
        ? eq(rateLimitHits.subject, by.subject)
        : eq(rateLimitHits.source, by.source);
  const rows = await db
    .select({ at: rateLimitHits.at })
    .from(rateLimitHits)
    .where(and(eq(rateLimitHits.kind, kind), match, gte(rateLimitHits.at, since)))
    .orderBy(asc(rateLimitHits.at));
  return rows.map((row) => row.at);
}
