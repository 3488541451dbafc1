/**
 * SQL for scheduled jobs that run once across all instances (table job_runs). A job is
 * claimed by one conditional UPDATE: it succeeds for exactly one instance, because a second
 * UPDATE of the same row waits for the first to commit and then re-checks the condition.
 */
import { and, eq, isNull, lte, or } from 'drizzle-orm';
import type { Executor } from '../database';
import { jobRuns } from '../schema';

/** Makes sure the job has its row (a new job is due at once). */
export async function ensureJobRow(db: Executor, name: string): Promise<void> {
  await db.insert(jobRuns).values({ name }).onConflictDoNothing({ target: jobRuns.name });
}

/**
 * Claims the job when it last ran at or before `dueIfLastRunBefore` and nobody holds it
 * (or the holder's lease ran out by `now`). True when this caller got it, until `leaseUntil`.
 */
export async function claimJob(
  db: Executor,
  name: string,
  now: Date,
  dueIfLastRunBefore: Date,
  leaseUntil: Date,
): Promise<boolean> {
  const rows = await db
    .update(jobRuns)
    .set({ lockedUntil: leaseUntil })
    .where(
      and(
        eq(jobRuns.name, name),
        or(isNull(jobRuns.lastRunAt), lte(jobRuns.lastRunAt, dueIfLastRunBefore)),
        or(isNull(jobRuns.lockedUntil), lte(jobRuns.lockedUntil, now)),
      ),
    )
    .returning({ name: jobRuns.name });
  return rows.length > 0;
}

/** Records a finished run (releasing the claim). */
export async function finishJob(db: Executor, name: string, at: Date): Promise<void> {
  await db.update(jobRuns).set({ lastRunAt: at, lockedUntil: null }).where(eq(jobRuns.name, name));
}

/** Releases a claim without recording a run (the job failed: it is tried again next time). */
export async function releaseJob(db: Executor, name: string): Promise<void> {
  await db.update(jobRuns).set({ lockedUntil: null }).where(eq(jobRuns.name, name));
}

export async function findJobRun(
  db: Executor,
  name: string,
): Promise<{ lastRunAt: Date | null; lockedUntil: Date | null } | null> {
  const rows = await db
    .select({ lastRunAt: jobRuns.lastRunAt, lockedUntil: jobRuns.lockedUntil })
    .from(jobRuns)
    .where(eq(jobRuns.name, name))
    .limit(1);
  return rows[0] ?? null;
}
