/**
 * SQL for creating versions (see services/versions.ts, which runs these in one transaction).
 * Row batches are split so no statement exceeds PostgreSQL's 65535 parameters.
 */
import { and, eq, inArray, sql } from 'drizzle-orm';
import { newBlobBytes } from './file-store';
import type { Executor } from '../database';
import {
  blobs,
  fileHistory,
  projectFiles,
  projects,
  projectVersions,
  workspaces,
  type FileChange,
} from '../schema';

/** Rows per INSERT (at most ~11 parameters each). */
const BATCH = 1000;
/** Rows per statement when they travel as one JSON parameter. */
const JSON_BATCH = 5000;

function batches<T>(items: T[], size = BATCH): T[][] {
  const result: T[][] = [];
  for (let i = 0; i < items.length; i += size) result.push(items.slice(i, i + size));
  return result;
}

/**
 * Key of the advisory lock between version commits (shared) and blob garbage collection
 * (exclusive): while a commit holds it, no blob it references can be deleted.
 */
export const BLOB_GC_LOCK_ID = 7_201_935_003;

export async function lockBlobsShared(db: Executor): Promise<void> {
  await db.execute(sql`SELECT pg_advisory_xact_lock_shared(${BLOB_GC_LOCK_ID})`);
}

export async function lockBlobsExclusive(db: Executor): Promise<void> {
  await db.execute(sql`SELECT pg_advisory_xact_lock(${BLOB_GC_LOCK_ID})`);
}

/**
 * Locks the project row for the rest of the transaction (not its workspace's); null when it
 * does not exist. With its name and workspace (for the version's audit entry and webhooks).
 */
export async function lockProjectForCommit(
  db: Executor,
  projectId: string,
): Promise<{
  latestVersion: number;
  removedAt: Date | null;
  name: string;
  workspaceId: number;
  workspaceName: string;
} | null> {
  const rows = await db
    .select({
      latestVersion: projects.latestVersion,
      removedAt: projects.removedAt,
      name: projects.name,
      workspaceId: projects.workspaceId,
      workspaceName: workspaces.name,
    })
    .from(projects)
    .innerJoin(workspaces, eq(workspaces.id, projects.workspaceId))
    .where(eq(projects.id, projectId))
    .for('update', { of: projects });
  return rows[0] ?? null;
}

/** Which of `paths` are files of the latest version: path → its blob key. */
export async function currentPathKeys(
  db: Executor,
  projectId: string,
  paths: string[],
): Promise<Map<string, string>> {
  const found = new Map<string, string>();
  for (const batch of batches(paths, JSON_BATCH)) {
    const rows = await db
      .select({ path: projectFiles.path, blobKey: projectFiles.blobKey })
      .from(projectFiles)
      .where(
        and(
          eq(projectFiles.projectId, projectId),
          sql`${projectFiles.path} in (select jsonb_array_elements_text(${JSON.stringify(batch)}::jsonb))`,
        ),
      );
    for (const row of rows) found.set(row.path, row.blobKey);
  }
  return found;
}

/** A blob row to insert: stored bytes, or (stored false) a recipe (services/file-store/). */
export interface BlobInsert {
  key: string;
  size: number;
  sha1: string;
  stored?: boolean;
  baseKey?: string | null;
  diffKey?: string | null;
}

/** Inserts blob rows that do not exist yet; returns the keys that were new. */
export async function insertBlobRows(
  db: Executor,
  rows: BlobInsert[],
  at: Date,
): Promise<string[]> {
  const inserted: string[] = [];
  for (const batch of batches(rows)) {
    const result = await db
      .insert(blobs)
      .values(batch.map((row) => ({ ...row, createdAt: at })))
      .onConflictDoNothing({ target: blobs.key })
      .returning({ key: blobs.key });
    for (const row of result) inserted.push(row.key);
  }
  return inserted;
}

export async function insertVersionRow(
  db: Executor,
  values: typeof projectVersions.$inferInsert,
): Promise<number> {
  const rows = await db
    .insert(projectVersions)
    .values(values)
    .returning({ id: projectVersions.id });
  return rows[0]!.id;
}

export interface HistoryInsert {
  projectId: string;
  versionId: number;
  versionName: number;
  path: string;
  change: FileChange;
  size: number;
  checksum: string | null;
  blobKey: string | null;
  mtime: Date | null;
  diff: unknown;
}

/** The rows of a result of db.execute (node-postgres and PGlite both answer `{rows}`). */
function rowsOf<R>(result: unknown): R[] {
  return (result as { rows: R[] }).rows;
}

/**
 * Inserts history rows; returns the new row id of each path. The rows travel as one JSON
 * parameter per batch (expanded by jsonb_to_recordset): for thousands of files this is
 * several times faster than a multi-row VALUES list.
 */
export async function insertHistoryRows(
  db: Executor,
  rows: HistoryInsert[],
): Promise<Map<string, number>> {
  const ids = new Map<string, number>();
  for (const batch of batches(rows, JSON_BATCH)) {
    const json = JSON.stringify(
      batch.map((r) => ({
        project_id: r.projectId,
        version_id: r.versionId,
        version_name: r.versionName,
        path: r.path,
        change: r.change,
        size: r.size,
        checksum: r.checksum,
        blob_key: r.blobKey,
        mtime: r.mtime?.toISOString() ?? null,
        diff: r.diff ?? null,
      })),
    );
    const result = await db.execute(sql`
      insert into ${fileHistory}
        (project_id, version_id, version_name, path, change, size, checksum, blob_key, mtime, diff)
      select t.project_id, t.version_id, t.version_name, t.path, t.change, t.size, t.checksum,
        t.blob_key, t.mtime, t.diff
      from jsonb_to_recordset(${json}::jsonb) as t(project_id uuid, version_id integer,
        version_name integer, path text, change file_change, size bigint, checksum text,
        blob_key text, mtime timestamptz, diff jsonb)
      returning id, path`);
    for (const row of rowsOf<{ id: string | number; path: string }>(result)) {
      ids.set(row.path, Number(row.id));
    }
  }
  return ids;
}

export async function deleteCurrentFiles(
  db: Executor,
  projectId: string,
  paths: string[],
): Promise<void> {
  for (const batch of batches(paths)) {
    await db
      .delete(projectFiles)
      .where(and(eq(projectFiles.projectId, projectId), inArray(projectFiles.path, batch)));
  }
}

export interface CurrentFileInsert {
  projectId: string;
  path: string;
  size: number;
  checksum: string;
  mtime: Date | null;
  blobKey: string;
  historyId: number;
}

/**
 * Writes latest-file rows (as one JSON parameter per batch, see insertHistoryRows): a path
 * the project has gets the row's values (an updated file), others are inserted.
 */
export async function writeCurrentFiles(db: Executor, rows: CurrentFileInsert[]): Promise<void> {
  for (const batch of batches(rows, JSON_BATCH)) {
    const json = JSON.stringify(
      batch.map((r) => ({
        project_id: r.projectId,
        path: r.path,
        size: r.size,
        checksum: r.checksum,
        mtime: r.mtime?.toISOString() ?? null,
        blob_key: r.blobKey,
        history_id: r.historyId,
      })),
    );
    await db.execute(sql`
      insert into ${projectFiles} (project_id, path, size, checksum, mtime, blob_key, history_id)
      select t.project_id, t.path, t.size, t.checksum, t.mtime, t.blob_key, t.history_id
      from jsonb_to_recordset(${json}::jsonb) as t(project_id uuid, path text, size bigint,
        checksum text, mtime timestamptz, blob_key text, history_id bigint)
      on conflict (project_id, path) do update set size = excluded.size,
        checksum = excluded.checksum, mtime = excluded.mtime, blob_key = excluded.blob_key,
        history_id = excluded.history_id`);
  }
}

/**
 * A version's last statement on its project, one statement: the size of the project's current
 * files (also written as version `versionId`'s size) and how many are QGIS projects; the
 * blobs the version stores for the first time (`newKeys`, file-store.ts `newBlobBytes`)
 * charged to the project's stored bytes; the project's latest version, time and disk usage,
 * and its tags: `qgisTags` when exactly one QGIS project file is current, else none.
 */
export async function settleVersion(
  db: Executor,
  values: {
    projectId: string;
    versionId: number;
    newKeys: string[];
    latestVersion: number;
    updatedAt: Date;
    qgisTags: readonly string[];
  },
): Promise<{ size: number; qgisProjects: number }> {
  const { projectId, versionId } = values;
  const result = await db.execute(sql`
    WITH totals AS (
      SELECT coalesce(sum(${projectFiles.size}), 0) AS size,
             count(*) FILTER (WHERE lower(${projectFiles.path}) ~ '\\.(qgs|qgz)$') AS qgis_projects
      FROM ${projectFiles} WHERE ${projectFiles.projectId} = ${projectId}
    ), settled AS (
      UPDATE ${projectVersions} SET project_size = (SELECT size FROM totals)
      WHERE ${projectVersions.id} = ${versionId}
    ), charged AS (${newBlobBytes(projectId, versionId, values.newKeys)}
    ), project AS (
      UPDATE ${projects} SET
        stored_bytes = stored_bytes + (SELECT * FROM charged),
        latest_version = ${values.latestVersion},
        updated_at = ${values.updatedAt.toISOString()}::timestamptz,
        disk_usage = (SELECT size FROM totals),
        tags = CASE WHEN (SELECT qgis_projects FROM totals) = 1
          THEN ARRAY(SELECT jsonb_array_elements_text(${JSON.stringify(values.qgisTags)}::jsonb))
          ELSE '{}'::text[] END
      WHERE ${projects.id} = ${projectId}
    )
    SELECT size, qgis_projects FROM totals`);
  const row = rowsOf<{ size: string | number; qgis_projects: string | number }>(result)[0];
  return { size: Number(row?.size ?? 0), qgisProjects: Number(row?.qgis_projects ?? 0) };
}
