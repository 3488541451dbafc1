/**
 * SQL for what the push keeps after a request: pushes that made a version (push_commits) and
 * the outcomes of requests sent with an Mm-push-id (push_requests).
 */
import { and, eq, isNull, lt, sql } from 'drizzle-orm';
import type { Executor } from '../database';
import { pushCommits, pushRequests, uploads, workspaces, projects } from '../schema';

export type PushRequestRow = typeof pushRequests.$inferSelect;

/** The row of `pushId` sent by `userId`. */
const requestOf = (userId: number, pushId: string) =>
  and(eq(pushRequests.userId, userId), eq(pushRequests.pushId, pushId));

export async function recordPushCommit(
  db: Executor,
  row: { uploadId: string; projectId: string; userId: number | null; version: number; at: Date },
): Promise<void> {
  await db
    .insert(pushCommits)
    .values({ ...row, createdAt: row.at })
    .onConflictDoNothing();
}

export async function findPushCommit(db: Executor, uploadId: string) {
  const rows = await db.select().from(pushCommits).where(eq(pushCommits.uploadId, uploadId));
  return rows[0] ?? null;
}

/**
 * A push commit's first statement: deletes its upload row (the push lock; `claimed` false
 * when it was gone: the push was cancelled or taken over), and locks the project's workspace
 * row (commits in one workspace queue) and reads its allowance (null without a workspace).
 */
export async function claimCommit(
  db: Executor,
  uploadId: string,
  projectId: string,
): Promise<{ claimed: boolean; workspace: { id: number; storage: number } | null }> {
  const result = await db.execute(sql`
    WITH gone AS (DELETE FROM ${uploads} WHERE id = ${uploadId} RETURNING id),
    ws AS (
      SELECT w.id, w.storage FROM ${workspaces} w
      JOIN ${projects} p ON p.workspace_id = w.id
      WHERE p.id = ${projectId}
      FOR UPDATE OF w
    )
    SELECT (SELECT count(*) FROM gone) AS gone, (SELECT id FROM ws) AS id,
      (SELECT storage FROM ws) AS storage`);
  const row = (
    result as unknown as {
      rows: { gone: string | number; id: number | null; storage: string | number | null }[];
    }
  ).rows[0]!;
  return {
    claimed: Number(row.gone) > 0,
    workspace: row.id === null ? null : { id: Number(row.id), storage: Number(row.storage) },
  };
}

/**
 * Starts a request with `pushId`: inserts the running row, or takes over a running one
 * whose request stopped pinging before `staleBefore` (it died). Null when it exists
 * otherwise (answered, or still running): read it with findPushRequest.
 */
export async function claimPushRequest(
  db: Executor,
  row: { userId: number; pushId: string; target: string; at: Date },
  staleBefore: Date,
): Promise<boolean> {
  const inserted = await db
    .insert(pushRequests)
    .values({ ...row, createdAt: row.at, pingedAt: row.at })
    .onConflictDoNothing()
    .returning({ pushId: pushRequests.pushId });
  if (inserted.length > 0) return true;
  const taken = await db
    .update(pushRequests)
    .set({ pingedAt: row.at })
    .where(
      and(
        requestOf(row.userId, row.pushId),
        eq(pushRequests.target, row.target),
        isNull(pushRequests.status),
        lt(pushRequests.pingedAt, staleBefore),
      ),
    )
    .returning({ pushId: pushRequests.pushId });
  return taken.length > 0;
}

export async function findPushRequest(
  db: Executor,
  userId: number,
  pushId: string,
): Promise<PushRequestRow | null> {
  const rows = await db.select().from(pushRequests).where(requestOf(userId, pushId));
  return rows[0] ?? null;
}

export async function pingPushRequest(
  db: Executor,
  userId: number,
  pushId: string,
  at: Date,
): Promise<void> {
  await db
    .update(pushRequests)
    .set({ pingedAt: at })
    .where(and(requestOf(userId, pushId), isNull(pushRequests.status)));
}

export async function answerPushRequest(
  db: Executor,
  userId: number,
  pushId: string,
  answer: { status: number; contentType: string | null; body: string },
): Promise<void> {
  await db.update(pushRequests).set(answer).where(requestOf(userId, pushId));
}

/** Forgets a running request (it failed without an answer worth repeating). */
export async function dropPushRequest(db: Executor, userId: number, pushId: string) {
  await db.delete(pushRequests).where(and(requestOf(userId, pushId), isNull(pushRequests.status)));
}

/** Removes push records made before `before`; resolves how many. */
export async function deletePushRecordsBefore(db: Executor, before: Date): Promise<number> {
  const requests = await db
    .delete(pushRequests)
    .where(lt(pushRequests.createdAt, before))
    .returning({ id: pushRequests.pushId });
  const commits = await db
    .delete(pushCommits)
    .where(lt(pushCommits.createdAt, before))
    .returning({ id: pushCommits.uploadId });
  return requests.length + commits.length;
}
