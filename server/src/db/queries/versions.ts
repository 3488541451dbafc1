/**
 * SQL for creating versions (see services/versions.ts, which runs these in one transaction).
 * Row batches are split so no statement exceeds PostgreSQL's 65535 parameters.
 */
import { and, eq, inArray, sql, type SQL } from 'drizzle-orm';
import { newBlobBytes } from './file-store';
import { eventWebhooksOf, projectWebhooksJson, type EventWebhook } from './webhooks';
import type { Executor } from '../database';
import {
  blobs,
  fileChangesets,
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

/** The project a commit locked (lockProjectForCommit). */
export interface CommitProject {
  latestVersion: number;
  removedAt: Date | null;
  name: string;
  workspaceId: number;
  workspaceName: string;
  /** Which of the paths asked for are files of the latest version: path → its blob key. */
  keys: Map<string, string>;
  /** The active webhooks of the project and its workspace subscribed to any of the events asked for. */
  hooks: EventWebhook[];
}

/**
 * A commit's first statement: the blob lock shared (lockBlobsShared; taken first, a one-time
 * filter), then the project row locked for the rest of the transaction (not its
 * workspace's), with its name and workspace (for the version's audit entry and webhooks)
 * and which of `paths` are files of the latest version, and the webhooks its `events` go to
 * (read in this transaction, as queueProjectEvent would). Null when the project does not
 * exist.
 *
 * The files are read in the statement's snapshot; when the row lock waited for another
 * commit of the project (PostgreSQL, read committed: the row is then its newest version,
 * the files are not), they are read again (currentPathKeys), as are more than JSON_BATCH
 * paths.
 */
export async function lockProjectForCommit(
  db: Executor,
  projectId: string,
  paths: string[],
  events: string[] = [],
): Promise<CommitProject | null> {
  const asked = paths.length <= JSON_BATCH ? paths : [];
  const result = await db.execute(sql`
    SELECT p.latest_version, p.removed_at, p.name, p.workspace_id, w.name AS workspace_name,
      (SELECT coalesce(jsonb_object_agg(f.path, f.blob_key), '{}'::jsonb) FROM ${projectFiles} f
        WHERE f.project_id = p.id
          AND f.path IN (SELECT jsonb_array_elements_text(${JSON.stringify(asked)}::jsonb))) AS keys,
      (SELECT s.latest_version FROM ${projects} s WHERE s.id = ${projectId}) AS seen_version,
      ${projectWebhooksJson(sql`p.id`, sql`p.workspace_id`, events)} AS hooks
    FROM ${projects} p JOIN ${workspaces} w ON w.id = p.workspace_id
    WHERE p.id = ${projectId}
      AND (SELECT pg_advisory_xact_lock_shared(${BLOB_GC_LOCK_ID})::text) IS NOT NULL
    FOR UPDATE OF p`);
  const row = rowsOf<{
    latest_version: number;
    removed_at: Date | string | null;
    name: string;
    workspace_id: number;
    workspace_name: string;
    keys: Record<string, string> | string;
    seen_version: number | null;
    hooks: unknown;
  }>(result)[0];
  if (!row) return null;
  const fresh = asked.length === paths.length && row.seen_version === row.latest_version;
  const keys = fresh
    ? new Map(Object.entries(typeof row.keys === 'string' ? JSON.parse(row.keys) : row.keys))
    : await currentPathKeys(db, projectId, paths);
  return {
    latestVersion: Number(row.latest_version),
    removedAt: row.removed_at === null ? null : new Date(row.removed_at),
    name: row.name,
    workspaceId: Number(row.workspace_id),
    workspaceName: row.workspace_name,
    keys: keys as Map<string, string>,
    hooks: eventWebhooksOf(row.hooks),
  };
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
    const result = await db.execute(historyInsert(batch));
    for (const row of rowsOf<{ id: string | number; path: string }>(result)) {
      ids.set(row.path, Number(row.id));
    }
  }
  return ids;
}

/**
 * A version's rows in one statement, when they fit one batch each (else null: the caller
 * writes them with insertBlobRows, insertVersionRow, insertPendingChangesets and
 * writeHistoryAndCurrentFiles): the blob rows not there yet (answered: the keys that were
 * new), the version row (its id answered), its pending changesets, its history rows and the
 * latest-file rows of its added and updated paths, and `also` (inserts of rows that go with
 * the version, such as its audit entry). The parts that need the version's id read it from
 * the version row's part; the foreign keys between them are checked at the statement's end.
 */
export async function insertVersionWithRows(
  db: Executor,
  input: {
    blobs: BlobInsert[];
    at: Date;
    version: typeof projectVersions.$inferInsert;
    changesets: Omit<typeof fileChangesets.$inferInsert, 'versionId'>[];
    history: Omit<HistoryInsert, 'versionId'>[];
    current: Omit<CurrentFileInsert, 'historyId'>[];
    also?: SQL[];
  },
): Promise<{ versionId: number; newKeys: string[] } | null> {
  const { blobs: blobRows, changesets, history, current } = input;
  if (
    blobRows.length > BATCH ||
    changesets.length > BATCH ||
    history.length > JSON_BATCH ||
    current.length > JSON_BATCH
  ) {
    return null;
  }
  const versionId = sql`(SELECT id FROM v)`;
  const parts: SQL[] = [
    sql`v AS (${db
      .insert(projectVersions)
      .values(input.version)
      .returning({ id: projectVersions.id })
      .getSQL()})`,
  ];
  if (blobRows.length > 0) {
    parts.push(
      sql`b AS (${db
        .insert(blobs)
        .values(blobRows.map((row) => ({ ...row, createdAt: input.at })))
        .onConflictDoNothing({ target: blobs.key })
        .returning({ key: blobs.key })
        .getSQL()})`,
    );
  }
  if (changesets.length > 0) {
    parts.push(
      sql`c AS (${db
        .insert(fileChangesets)
        .values(changesets.map((row) => ({ ...row, versionId })))
        .getSQL()})`,
    );
  }
  if (history.length > 0) {
    parts.push(sql`h AS (${historyInsert(history, versionId)})`);
    if (current.length > 0) {
      parts.push(
        sql`f AS (${currentFilesUpsert(current, sql`h.id`, sql`JOIN h ON h.path = t.path`)})`,
      );
    }
  }
  (input.also ?? []).forEach((part, i) => parts.push(sql`${sql.raw(`a${i}`)} AS (${part})`));
  const newKeys =
    blobRows.length > 0
      ? sql`(SELECT coalesce(jsonb_agg(key), '[]'::jsonb) FROM b)`
      : sql`'[]'::jsonb`;
  const result = await db.execute(sql`
    WITH ${sql.join(parts, sql`, `)}
    SELECT ${versionId} AS version_id, ${newKeys} AS new_keys`);
  const row = rowsOf<{ version_id: string | number; new_keys: string[] | string }>(result)[0]!;
  return {
    versionId: Number(row.version_id),
    newKeys: typeof row.new_keys === 'string' ? JSON.parse(row.new_keys) : row.new_keys,
  };
}

/**
 * The INSERT of history rows (one JSON parameter), returning each row's id and path; their
 * version id from the rows, or `versionId`.
 */
function historyInsert(
  rows: (Omit<HistoryInsert, 'versionId'> & { versionId?: number })[],
  versionId: SQL = sql`t.version_id`,
): SQL {
  const json = JSON.stringify(
    rows.map((r) => ({
      project_id: r.projectId,
      version_id: r.versionId ?? null,
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
  return sql`
    insert into ${fileHistory}
      (project_id, version_id, version_name, path, change, size, checksum, blob_key, mtime, diff)
    select t.project_id, ${versionId}, t.version_name, t.path, t.change, t.size, t.checksum,
      t.blob_key, t.mtime, t.diff
    from jsonb_to_recordset(${json}::jsonb) as t(project_id uuid, version_id integer,
      version_name integer, path text, change file_change, size bigint, checksum text,
      blob_key text, mtime timestamptz, diff jsonb)
    returning id, path`;
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
    await db.execute(currentFilesUpsert(batch, sql`t.history_id`, sql``));
  }
}

/**
 * A version's history rows and its latest-file rows (insertHistoryRows, then writeCurrentFiles
 * with the new rows' ids): one statement when both fit one batch (the ids go from the insert
 * to the upsert inside it), else those two in batches.
 */
export async function writeHistoryAndCurrentFiles(
  db: Executor,
  history: HistoryInsert[],
  current: Omit<CurrentFileInsert, 'historyId'>[],
): Promise<void> {
  if (history.length > JSON_BATCH || current.length > JSON_BATCH) {
    const ids = await insertHistoryRows(db, history);
    await writeCurrentFiles(
      db,
      current.map((r) => ({ ...r, historyId: ids.get(r.path)! })),
    );
    return;
  }
  if (history.length === 0) return;
  if (current.length === 0) {
    await db.execute(historyInsert(history));
    return;
  }
  await db.execute(sql`
    WITH h AS (${historyInsert(history)})
    ${currentFilesUpsert(current, sql`h.id`, sql`JOIN h ON h.path = t.path`)}`);
}

/** The upsert of latest-file rows (one JSON parameter); `historyId` names each row's id. */
function currentFilesUpsert(
  rows: (Omit<CurrentFileInsert, 'historyId'> & { historyId?: number })[],
  historyId: SQL,
  join: SQL,
): SQL {
  const json = JSON.stringify(
    rows.map((r) => ({
      project_id: r.projectId,
      path: r.path,
      size: r.size,
      checksum: r.checksum,
      mtime: r.mtime?.toISOString() ?? null,
      blob_key: r.blobKey,
      history_id: r.historyId ?? null,
    })),
  );
  return sql`
    insert into ${projectFiles} (project_id, path, size, checksum, mtime, blob_key, history_id)
    select t.project_id, t.path, t.size, t.checksum, t.mtime, t.blob_key, ${historyId}
    from jsonb_to_recordset(${json}::jsonb) as t(project_id uuid, path text, size bigint,
      checksum text, mtime timestamptz, blob_key text, history_id bigint)
    ${join}
    on conflict (project_id, path) do update set size = excluded.size,
      checksum = excluded.checksum, mtime = excluded.mtime, blob_key = excluded.blob_key,
      history_id = excluded.history_id`;
}

/**
 * A version's last statement on its project, one statement: the size of the project's current
 * files (also written as version `versionId`'s size) and how many are QGIS projects; the
 * blobs the version stores for the first time (`newKeys`, file-store.ts `newBlobBytes`)
 * charged to the project's stored bytes (answered: what the version grew the workspace's
 * usage by); the project's latest version, time and disk usage,
 * and its tags: `qgisTags` when exactly one QGIS project file is current, else none. Also
 * answered: the stored bytes of the project's workspace before the version (its live
 * projects, as workspaceDiskUsage), for the allowance (services/push/quota.ts): read in this
 * statement's snapshot, after the commit locked the workspace (push-records.ts claimCommit).
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
): Promise<{ size: number; qgisProjects: number; charged: number; workspaceUsage: number }> {
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
    SELECT size, qgis_projects, (SELECT * FROM charged) AS charged,
      (SELECT coalesce(sum(o.stored_bytes), 0) FROM ${projects} o
        WHERE o.workspace_id = (SELECT s.workspace_id FROM ${projects} s WHERE s.id = ${projectId})
          AND o.removed_at IS NULL) AS workspace_usage
    FROM totals`);
  const row = rowsOf<{
    size: string | number;
    qgis_projects: string | number;
    charged: string | number;
    workspace_usage: string | number;
  }>(result)[0];
  return {
    size: Number(row?.size ?? 0),
    qgisProjects: Number(row?.qgis_projects ?? 0),
    charged: Number(row?.charged ?? 0),
    workspaceUsage: Number(row?.workspace_usage ?? 0),
  };
}
