/**
 * SQL for file changesets (table file_changesets): recording them with a version, claiming
 * pending ones for computation (FOR UPDATE SKIP LOCKED plus a lease, so with several
 * instances each is computed once, and one whose worker died is taken over), storing results,
 * and reading them for the history calls.
 */
import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { Executor } from '../database';
import { fileChangesets, type ChangesetStatus } from '../schema';

/** The rows of a result of db.execute (node-postgres and PGlite both answer `{rows}`). */
function rowsOf<R>(result: unknown): R[] {
  return (result as { rows: R[] }).rows;
}

export interface ChangesetInsert {
  projectId: string;
  versionId: number;
  path: string;
  oldBlobKey: string;
  newBlobKey: string;
  createdAt: Date;
}

export async function insertPendingChangesets(
  db: Executor,
  rows: ChangesetInsert[],
): Promise<void> {
  for (let i = 0; i < rows.length; i += 1000) {
    await db.insert(fileChangesets).values(rows.slice(i, i + 1000));
  }
}

export interface ClaimedChangeset {
  id: number;
  projectId: string;
  versionId: number;
  path: string;
  oldBlobKey: string;
  newBlobKey: string;
  attempts: number;
}

/**
 * Claims the oldest pending changeset nobody holds (or whose holder's lease ran out by `now`)
 * until `leaseUntil`; null when there is none.
 */
export async function claimPendingChangeset(
  db: Executor,
  now: Date,
  leaseUntil: Date,
): Promise<ClaimedChangeset | null> {
  const result = await db.execute(sql`
    UPDATE ${fileChangesets}
    SET locked_until = ${leaseUntil.toISOString()}::timestamptz, attempts = attempts + 1
    WHERE id = (
      SELECT id FROM ${fileChangesets}
      WHERE status = 'pending'
        AND (locked_until IS NULL OR locked_until <= ${now.toISOString()}::timestamptz)
      ORDER BY id
      LIMIT 1
      FOR UPDATE SKIP LOCKED
    )
    RETURNING id, project_id, version_id, path, old_blob_key, new_blob_key, attempts`);
  const row = rowsOf<{
    id: string | number;
    project_id: string;
    version_id: number;
    path: string;
    old_blob_key: string;
    new_blob_key: string;
    attempts: number;
  }>(result)[0];
  if (!row) return null;
  return {
    id: Number(row.id),
    projectId: row.project_id,
    versionId: Number(row.version_id),
    path: row.path,
    oldBlobKey: row.old_blob_key,
    newBlobKey: row.new_blob_key,
    attempts: Number(row.attempts),
  };
}

export interface ChangesetResult {
  status: Exclude<ChangesetStatus, 'pending'>;
  summary: unknown;
  /** The change list as JSON text (stored as jsonb; `size` becomes the bytes served). */
  changesJson: string | null;
  error: string | null;
  at: Date;
}

/** Stores the result of a claimed changeset (unless it was finished elsewhere meanwhile). */
export async function finishChangeset(
  db: Executor,
  id: number,
  result: ChangesetResult,
): Promise<void> {
  await db.execute(sql`
    UPDATE ${fileChangesets}
    SET status = ${result.status}, summary = ${JSON.stringify(result.summary)}::jsonb,
      changes = ${result.changesJson}::jsonb,
      size = coalesce(octet_length((${result.changesJson}::jsonb)::text), 0), error = ${result.error},
      computed_at = ${result.at.toISOString()}::timestamptz, locked_until = NULL
    WHERE id = ${id} AND status = 'pending'`);
}

/** Gives a claimed changeset back, to be tried again from `retryAt`. */
export async function releaseChangeset(db: Executor, id: number, retryAt: Date): Promise<void> {
  await db
    .update(fileChangesets)
    .set({ lockedUntil: retryAt })
    .where(and(eq(fileChangesets.id, id), eq(fileChangesets.status, 'pending')));
}

export interface ChangesetSummaryRow {
  versionId: number;
  path: string;
  status: ChangesetStatus;
  summary: unknown;
  size: number;
  error: string | null;
}

/** The changeset summaries of the given versions (without the change lists), by path. */
export async function listChangesetSummaries(
  db: Executor,
  versionIds: number[],
): Promise<ChangesetSummaryRow[]> {
  if (versionIds.length === 0) return [];
  return db
    .select({
      versionId: fileChangesets.versionId,
      path: fileChangesets.path,
      status: fileChangesets.status,
      summary: fileChangesets.summary,
      size: fileChangesets.size,
      error: fileChangesets.error,
    })
    .from(fileChangesets)
    .where(inArray(fileChangesets.versionId, versionIds))
    .orderBy(asc(fileChangesets.versionId), sql`${fileChangesets.path} collate "C"`);
}

export interface ChangesetRow {
  status: ChangesetStatus;
  error: string | null;
  /** The change list as JSON text (null unless done). */
  changesJson: string | null;
}

/** One file's changeset in one version. */
export async function findChangeset(
  db: Executor,
  versionId: number,
  path: string,
): Promise<ChangesetRow | null> {
  const rows = await db
    .select({
      status: fileChangesets.status,
      error: fileChangesets.error,
      changesJson: sql<string | null>`${fileChangesets.changes}::text`,
    })
    .from(fileChangesets)
    .where(and(eq(fileChangesets.versionId, versionId), eq(fileChangesets.path, path)))
    .limit(1);
  return rows[0] ?? null;
}

/** How many changesets are waiting (tests and benchmarks wait for 0). */
export async function countPendingChangesets(db: Executor): Promise<number> {
  const rows = await db
    .select({ n: sql<number>`count(*)`.mapWith(Number) })
    .from(fileChangesets)
    .where(eq(fileChangesets.status, 'pending'));
  return rows[0]?.n ?? 0;
}
