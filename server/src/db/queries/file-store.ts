/**
 * SQL of the file store (services/file-store/): blobs with a recipe (a diff applied to another
 * blob) and whether their bytes are stored, the chain a rebuild walks, the storage tasks,
 * the bytes a project keeps stored, deletions of copies no longer kept, and the progress of
 * the conversion of old data.
 */
import { and, asc, eq, inArray, isNull, sql, type SQL } from 'drizzle-orm';
import type { Executor } from '../database';
import {
  blobDeletions,
  blobs,
  fileHistory,
  fileStoreConversion,
  fileStoreTasks,
  projectFiles,
  projects,
} from '../schema';
import { VERSIONED_FILE_PATTERN } from '../../schemas/protocol';

/** The rows of a result of db.execute (node-postgres and PGlite both answer `{rows}`). */
function rowsOf<R>(result: unknown): R[] {
  return (result as { rows: R[] }).rows;
}

export interface BlobRow {
  key: string;
  size: number;
  sha1: string;
  stored: boolean;
  baseKey: string | null;
  diffKey: string | null;
}

const blobColumns = {
  key: blobs.key,
  size: blobs.size,
  sha1: blobs.sha1,
  stored: blobs.stored,
  baseKey: blobs.baseKey,
  diffKey: blobs.diffKey,
};

export async function findBlob(db: Executor, key: string): Promise<BlobRow | null> {
  const rows = await db.select(blobColumns).from(blobs).where(eq(blobs.key, key)).limit(1);
  return rows[0] ?? null;
}

/** A link of a rebuild: a blob, the size of its recipe's diff and its page patch. */
export interface ChainLink extends BlobRow {
  diffSize: number | null;
  /** Its page patch (services/file-store/page-patch.ts), when it has one. */
  patchKey: string | null;
  patchSize: number | null;
  /** No patch can be made for it (blobs.patch_refused). */
  patchRefused: boolean;
}

/**
 * The blob `key` and the bases its recipe leads to, nearest first, up to and including the
 * first stored one (at most `limit` links: a longer chain is cut and has no stored end).
 */
export async function recipeChain(db: Executor, key: string, limit: number): Promise<ChainLink[]> {
  const result = await db.execute(sql`
    WITH RECURSIVE chain(key, size, sha1, stored, base_key, diff_key, patch_key, patch_refused,
      depth) AS (
      SELECT key, size, sha1, stored, base_key, diff_key, patch_key, patch_refused, 0 FROM ${blobs}
      WHERE key = ${key}
      UNION ALL
      SELECT b.key, b.size, b.sha1, b.stored, b.base_key, b.diff_key, b.patch_key,
        b.patch_refused, c.depth + 1
      FROM chain c JOIN ${blobs} b ON b.key = c.base_key
      WHERE NOT c.stored AND c.depth < ${limit - 1}
    )
    SELECT c.key, c.size, c.sha1, c.stored, c.base_key, c.diff_key, d.size AS diff_size,
      c.patch_key, p.size AS patch_size, c.patch_refused
    FROM chain c LEFT JOIN ${blobs} d ON d.key = c.diff_key
      LEFT JOIN ${blobs} p ON p.key = c.patch_key
    ORDER BY c.depth`);
  return rowsOf<{
    key: string;
    size: string | number;
    sha1: string;
    stored: boolean;
    base_key: string | null;
    diff_key: string | null;
    diff_size: string | number | null;
    patch_key: string | null;
    patch_size: string | number | null;
    patch_refused: boolean;
  }>(result).map((row) => ({
    key: row.key,
    size: Number(row.size),
    sha1: row.sha1,
    stored: row.stored,
    baseKey: row.base_key,
    diffKey: row.diff_key,
    diffSize: row.diff_size === null ? null : Number(row.diff_size),
    patchKey: row.patch_key,
    patchSize: row.patch_size === null ? null : Number(row.patch_size),
    patchRefused: row.patch_refused,
  }));
}

// ---------------------------------------------------------------------------------------
// The history of one file, for the checkpoint rule

export interface HistoryStepRow {
  versionName: number;
  change: string;
  blob: BlobRow | null;
  diffSize: number | null;
  /** The size of the blob's page patch, when it has one. */
  patchSize: number | null;
  /** The blob is referenced by another file's history or is another file's latest. */
  shared: boolean;
}

/** Every change of `path` in the project, oldest first, with its blob. */
export async function fileStorageHistory(
  db: Executor,
  projectId: string,
  path: string,
): Promise<HistoryStepRow[]> {
  const result = await db.execute(sql`
    SELECT h.version_name, h.change, b.key, b.size, b.sha1, b.stored, b.base_key, b.diff_key,
      d.size AS diff_size, p.size AS patch_size,
      (b.key IS NOT NULL AND (
        EXISTS (SELECT 1 FROM ${fileHistory} o WHERE o.blob_key = b.key
          AND (o.project_id <> h.project_id OR o.path <> h.path))
        OR EXISTS (SELECT 1 FROM ${projectFiles} f WHERE f.blob_key = b.key
          AND (f.project_id <> h.project_id OR f.path <> h.path)))) AS shared
    FROM ${fileHistory} h
    LEFT JOIN ${blobs} b ON b.key = h.blob_key
    LEFT JOIN ${blobs} d ON d.key = b.diff_key
    LEFT JOIN ${blobs} p ON p.key = b.patch_key
    WHERE h.project_id = ${projectId} AND h.path = ${path}
    ORDER BY h.version_name`);
  return rowsOf<{
    version_name: number;
    change: string;
    key: string | null;
    size: string | number | null;
    sha1: string | null;
    stored: boolean | null;
    base_key: string | null;
    diff_key: string | null;
    diff_size: string | number | null;
    patch_size: string | number | null;
    shared: boolean;
  }>(result).map((row) => ({
    versionName: Number(row.version_name),
    change: row.change,
    blob:
      row.key === null
        ? null
        : {
            key: row.key,
            size: Number(row.size),
            sha1: row.sha1!,
            stored: row.stored!,
            baseKey: row.base_key,
            diffKey: row.diff_key,
          },
    diffSize: row.diff_size === null ? null : Number(row.diff_size),
    patchSize: row.patch_size === null ? null : Number(row.patch_size),
    shared: row.shared,
  }));
}

/** The diffs stored with the changes of `path` (update_diff rows), by version. */
export async function fileHistoryDiffs(
  db: Executor,
  projectId: string,
  path: string,
): Promise<Map<number, { blobKey: string; size: number }>> {
  const rows = await db
    .select({ versionName: fileHistory.versionName, diff: fileHistory.diff })
    .from(fileHistory)
    .where(
      and(
        eq(fileHistory.projectId, projectId),
        eq(fileHistory.path, path),
        eq(fileHistory.change, 'update_diff'),
      ),
    )
    .orderBy(asc(fileHistory.versionName));
  const found = new Map<number, { blobKey: string; size: number }>();
  for (const row of rows) {
    const diff = row.diff as { blob_key?: string; size?: number } | null;
    if (diff?.blob_key)
      found.set(row.versionName, { blobKey: diff.blob_key, size: diff.size ?? 0 });
  }
  return found;
}

// ---------------------------------------------------------------------------------------
// Stored or not, and what projects are charged for

/** Locks the rows of the projects whose history references `key` (in id order). */
async function lockReferencingProjects(db: Executor, key: string): Promise<string[]> {
  const result = await db.execute(sql`
    SELECT id FROM ${projects}
    WHERE id IN (SELECT DISTINCT project_id FROM ${fileHistory} WHERE blob_key = ${key})
    ORDER BY id FOR UPDATE`);
  return rowsOf<{ id: string }>(result).map((row) => row.id);
}

/** Locks the blob row for the rest of the transaction; null when it is gone. */
export async function lockBlob(db: Executor, key: string): Promise<BlobRow | null> {
  const rows = await db.select(blobColumns).from(blobs).where(eq(blobs.key, key)).for('update');
  return rows[0] ?? null;
}

/**
 * Marks the blob stored (its bytes were just written and found in the store) or not (its
 * bytes are to be deleted), and moves its size into or out of the stored bytes of every
 * project whose history references it. Locks those projects, then the blob (the order of a
 * version commit). False when the blob is gone or already so.
 */
export async function setStored(
  db: Executor,
  key: string,
  stored: boolean,
  check?: (blob: BlobRow) => Promise<boolean>,
): Promise<boolean> {
  const projectIds = await lockReferencingProjects(db, key);
  const blob = await lockBlob(db, key);
  if (!blob || blob.stored === stored) return false;
  if (!stored && (!blob.baseKey || !blob.diffKey)) return false;
  if (check && !(await check(blob))) return false;
  await db.update(blobs).set({ stored }).where(eq(blobs.key, key));
  if (projectIds.length > 0) {
    const delta = stored ? blob.size : -blob.size;
    await db
      .update(projects)
      .set({ storedBytes: sql`greatest(${projects.storedBytes} + ${delta}, 0)` })
      .where(inArray(projects.id, projectIds));
  }
  return true;
}

/**
 * Gives a stored blob its recipe (conversion), with its page patch when one was made (the
 * patch's bytes are in the blob store; its size is charged to the projects whose history
 * references the blob). False unless it had none. Run in a transaction.
 */
export async function setRecipe(
  db: Executor,
  key: string,
  recipe: { baseKey: string; diffKey: string },
  patch: { key: string; size: number; sha1: string } | null = null,
  at: Date = new Date(),
): Promise<boolean> {
  const projectIds = patch ? await lockReferencingProjects(db, key) : [];
  if (patch) await insertPatchRow(db, patch, at);
  const rows = await db
    .update(blobs)
    .set({ ...recipe, patchKey: patch?.key ?? null })
    .where(and(eq(blobs.key, key), sql`${blobs.baseKey} IS NULL`, eq(blobs.stored, true)))
    .returning({ key: blobs.key });
  if (rows.length === 0) return false;
  if (patch) await chargePatch(db, projectIds, patch.size);
  return true;
}

/** The row of a page patch's blob (content-addressed: one already there is the same patch). */
async function insertPatchRow(
  db: Executor,
  patch: { key: string; size: number; sha1: string },
  at: Date,
): Promise<void> {
  await db
    .insert(blobs)
    .values({ ...patch, createdAt: at })
    .onConflictDoNothing({ target: blobs.key });
}

/** Adds a page patch's size to the stored bytes of the projects referencing its version. */
async function chargePatch(db: Executor, projectIds: string[], size: number): Promise<void> {
  if (projectIds.length === 0) return;
  await db
    .update(projects)
    .set({ storedBytes: sql`${projects.storedBytes} + ${size}` })
    .where(inArray(projects.id, projectIds));
}

/**
 * Gives blob `key` (a version with a recipe) its page patch, made in the background after
 * the version's commit (services/file-store/page-patch-store.ts): the patch's row, the
 * blob's `patch_key`, and the patch's size added to the stored bytes of every project whose
 * history references the blob (locked first, as a version commit does). False when the blob
 * is gone, has no recipe or already has a patch. Run in a transaction.
 */
export async function setPatch(
  db: Executor,
  key: string,
  patch: { key: string; size: number; sha1: string },
  at: Date,
): Promise<boolean> {
  const projectIds = await lockReferencingProjects(db, key);
  const blob = await lockBlob(db, key);
  if (!blob || !blob.baseKey || !blob.diffKey) return false;
  const [held] = await db
    .select({ patchKey: blobs.patchKey })
    .from(blobs)
    .where(eq(blobs.key, key));
  if (held?.patchKey) return false;
  await insertPatchRow(db, patch, at);
  const rows = await db
    .update(blobs)
    .set({ patchKey: patch.key })
    .where(and(eq(blobs.key, key), isNull(blobs.patchKey)))
    .returning({ key: blobs.key });
  if (rows.length === 0) return false;
  await chargePatch(db, projectIds, patch.size);
  return true;
}

/**
 * Takes page patch `patchKey` away from blob `key` (the patch is missing or makes other
 * bytes: the version is read through its diff until the patch is made again), and its size
 * out of the stored bytes of every project whose history references the blob. The patch's
 * own row is left to deleteUnreferencedBlobs. False when the blob no longer names that patch.
 * Run in a transaction.
 */
export async function dropPatch(db: Executor, key: string, patchKey: string): Promise<boolean> {
  const projectIds = await lockReferencingProjects(db, key);
  const blob = await lockBlob(db, key);
  if (!blob) return false;
  const rows = await db
    .update(blobs)
    .set({ patchKey: null })
    .where(and(eq(blobs.key, key), eq(blobs.patchKey, patchKey)))
    .returning({ key: blobs.key });
  if (rows.length === 0) return false;
  const [patch] = await db.select({ size: blobs.size }).from(blobs).where(eq(blobs.key, patchKey));
  if (patch) await chargePatch(db, projectIds, -patch.size);
  return true;
}

/** Marks blob `key` as one no page patch can be made for (its change is too large). */
export async function refusePatch(db: Executor, key: string): Promise<void> {
  await db.update(blobs).set({ patchRefused: true }).where(eq(blobs.key, key));
}

/** Whether `key` is the latest version of a file anywhere. */
export async function isCurrentAnywhere(db: Executor, key: string): Promise<boolean> {
  const rows = await db
    .select({ one: sql<number>`1` })
    .from(projectFiles)
    .where(eq(projectFiles.blobKey, key))
    .limit(1);
  return rows.length > 0;
}

/**
 * Adds to the project's stored bytes the blobs among `keys` its history did not reference
 * before version row `versionId` (a version commit: run after its history rows are in).
 */
export async function chargeNewBlobs(
  db: Executor,
  projectId: string,
  versionId: number,
  keys: string[],
): Promise<void> {
  if (keys.length === 0) return;
  await db.execute(sql`
    UPDATE ${projects} SET stored_bytes = stored_bytes + (${newBlobBytes(projectId, versionId, keys)})
    WHERE id = ${projectId}`);
}

/**
 * SQL of the bytes the project keeps stored for the first time with version `versionId`:
 * the stored blobs among `keys` no other version of its history references (as a file or
 * as a diff), and the page patches of such blobs (stored or not).
 */
export function newBlobBytes(projectId: string, versionId: number, keys: string[]): SQL {
  return sql`
      SELECT coalesce(sum(CASE WHEN b.stored THEN b.size ELSE 0 END
        + coalesce((SELECT p.size FROM ${blobs} p WHERE p.key = b.patch_key), 0)), 0)
      FROM ${blobs} b
      WHERE b.key IN (SELECT jsonb_array_elements_text(${JSON.stringify([...new Set(keys)])}::jsonb))
        AND NOT EXISTS (SELECT 1 FROM ${fileHistory} h WHERE h.project_id = ${projectId}
          AND h.version_id <> ${versionId} AND h.blob_key = b.key)
        AND NOT EXISTS (SELECT 1 FROM ${fileHistory} h WHERE h.project_id = ${projectId}
          AND h.version_id <> ${versionId} AND h.diff IS NOT NULL AND h.diff ->> 'blob_key' = b.key)`;
}

// ---------------------------------------------------------------------------------------
// Copies to delete

export async function queueBlobDeletion(db: Executor, key: string, at: Date): Promise<void> {
  await db.insert(blobDeletions).values({ key, createdAt: at }).onConflictDoNothing();
}

export async function listBlobDeletions(db: Executor, limit: number): Promise<string[]> {
  const rows = await db
    .select({ key: blobDeletions.key })
    .from(blobDeletions)
    .orderBy(asc(blobDeletions.createdAt))
    .limit(limit);
  return rows.map((row) => row.key);
}

export async function dropBlobDeletion(db: Executor, key: string): Promise<void> {
  await db.delete(blobDeletions).where(eq(blobDeletions.key, key));
}

// ---------------------------------------------------------------------------------------
// Tasks

export interface FileStoreTask {
  projectId: string;
  path: string;
  dueAt: Date;
  queuedAt: Date;
  convert: boolean;
  attempts: number;
}

/**
 * Queues the file's storage to be arranged by `dueAt` (an earlier time already queued is
 * kept, so a stream of pushes cannot postpone it forever; while a run holds the task, the new
 * time, as that run may have read the file's history before this version); `convert` is kept
 * once set.
 */
export async function queueFileTask(
  db: Executor,
  task: { projectId: string; path: string; dueAt: Date; at: Date; convert?: boolean },
): Promise<void> {
  await db
    .insert(fileStoreTasks)
    .values({
      projectId: task.projectId,
      path: task.path,
      dueAt: task.dueAt,
      queuedAt: task.at,
      convert: task.convert ?? false,
    })
    .onConflictDoUpdate({
      target: [fileStoreTasks.projectId, fileStoreTasks.path],
      set: {
        dueAt: sql`CASE WHEN ${fileStoreTasks.lockedUntil} > excluded.queued_at THEN excluded.due_at
          ELSE least(${fileStoreTasks.dueAt}, excluded.due_at) END`,
        queuedAt: sql`excluded.queued_at`,
        convert: sql`${fileStoreTasks.convert} OR excluded.convert`,
        attempts: 0,
      },
    });
}

/**
 * queueFileTask of a file made from a diff, one statement: due at `at` when a rebuild of its
 * blob `key` (recipeChain's links: the diffs up to the first stored blob) applies more than
 * `maxBytes` of diffs or has no stored end within `limit` links, else at `dueAt`.
 */
export async function queueDiffFileTask(
  db: Executor,
  task: {
    projectId: string;
    path: string;
    key: string;
    limit: number;
    maxBytes: number;
    dueAt: Date;
    at: Date;
  },
): Promise<void> {
  const at = task.at.toISOString();
  await db.execute(sql`
    WITH RECURSIVE chain(stored, base_key, diff_key, depth) AS (
      SELECT stored, base_key, diff_key, 0 FROM ${blobs} WHERE key = ${task.key}
      UNION ALL
      SELECT b.stored, b.base_key, b.diff_key, c.depth + 1
      FROM chain c JOIN ${blobs} b ON b.key = c.base_key
      WHERE NOT c.stored AND c.depth < ${task.limit - 1}
    ), rebuild AS (
      SELECT coalesce(bool_or(c.stored), false) AS ends,
        coalesce(sum(CASE WHEN c.stored THEN 0 ELSE d.size END), 0) AS bytes
      FROM chain c LEFT JOIN ${blobs} d ON d.key = c.diff_key
    )
    INSERT INTO ${fileStoreTasks} (project_id, path, due_at, queued_at, "convert")
    SELECT ${task.projectId}, ${task.path},
      CASE WHEN ends AND bytes <= ${task.maxBytes}::float8
        THEN ${task.dueAt.toISOString()}::timestamptz ELSE ${at}::timestamptz END,
      ${at}::timestamptz, false
    FROM rebuild
    ON CONFLICT (project_id, path) DO UPDATE SET
      due_at = CASE WHEN ${fileStoreTasks}.locked_until > excluded.queued_at THEN excluded.due_at
        ELSE least(${fileStoreTasks}.due_at, excluded.due_at) END,
      queued_at = excluded.queued_at,
      "convert" = ${fileStoreTasks}."convert" OR excluded."convert",
      attempts = 0`);
}

/** Claims the task due first (or whose holder's lease ran out) until `leaseUntil`. */
export async function claimFileTask(
  db: Executor,
  now: Date,
  leaseUntil: Date,
): Promise<FileStoreTask | null> {
  const result = await db.execute(sql`
    UPDATE ${fileStoreTasks}
    SET locked_until = ${leaseUntil.toISOString()}::timestamptz, attempts = attempts + 1
    WHERE (project_id, path) = (
      SELECT project_id, path FROM ${fileStoreTasks}
      WHERE due_at <= ${now.toISOString()}::timestamptz
        AND (locked_until IS NULL OR locked_until <= ${now.toISOString()}::timestamptz)
      ORDER BY due_at, project_id, path
      LIMIT 1
      FOR UPDATE SKIP LOCKED
    )
    RETURNING project_id, path, due_at, queued_at, convert, attempts`);
  const row = rowsOf<{
    project_id: string;
    path: string;
    due_at: string | Date;
    queued_at: string | Date;
    convert: boolean;
    attempts: number;
  }>(result)[0];
  if (!row) return null;
  return {
    projectId: row.project_id,
    path: row.path,
    dueAt: new Date(row.due_at),
    queuedAt: new Date(row.queued_at),
    convert: row.convert,
    attempts: Number(row.attempts),
  };
}

/** Removes a finished task, unless it was queued again while it ran (then it is released). */
export async function finishFileTask(db: Executor, task: FileStoreTask): Promise<boolean> {
  const removed = await db
    .delete(fileStoreTasks)
    .where(
      and(
        eq(fileStoreTasks.projectId, task.projectId),
        eq(fileStoreTasks.path, task.path),
        eq(fileStoreTasks.queuedAt, task.queuedAt),
      ),
    )
    .returning({ path: fileStoreTasks.path });
  if (removed.length > 0) return true;
  await releaseFileTask(db, task, null);
  return false;
}

/** Extends the claim of a task being worked on. */
export async function renewFileTask(
  db: Executor,
  task: Pick<FileStoreTask, 'projectId' | 'path'>,
  until: Date,
): Promise<void> {
  await db
    .update(fileStoreTasks)
    .set({ lockedUntil: until })
    .where(and(eq(fileStoreTasks.projectId, task.projectId), eq(fileStoreTasks.path, task.path)));
}

/** Gives a claimed task back (to be tried again from `retryAt`, or when due). */
export async function releaseFileTask(
  db: Executor,
  task: Pick<FileStoreTask, 'projectId' | 'path'>,
  retryAt: Date | null,
): Promise<void> {
  await db
    .update(fileStoreTasks)
    .set({ lockedUntil: retryAt, ...(retryAt ? {} : { attempts: 0 }) })
    .where(and(eq(fileStoreTasks.projectId, task.projectId), eq(fileStoreTasks.path, task.path)));
}

export async function countFileTasks(
  db: Executor,
): Promise<{ total: number; convert: number; due: number }> {
  const rows = await db
    .select({
      total: sql<number>`count(*)`.mapWith(Number),
      convert: sql<number>`count(*) filter (where ${fileStoreTasks.convert})`.mapWith(Number),
      due: sql<number>`count(*) filter (where ${fileStoreTasks.dueAt} <= now())`.mapWith(Number),
    })
    .from(fileStoreTasks);
  return rows[0] ?? { total: 0, convert: 0, due: 0 };
}

/** When the next task can be claimed: due, and its claim (if any) lapsed (null: none). */
export async function nextFileTaskDue(db: Executor): Promise<Date | null> {
  const rows = await db
    .select({
      dueAt: sql<
        string | null
      >`min(greatest(${fileStoreTasks.dueAt}, coalesce(${fileStoreTasks.lockedUntil}, ${fileStoreTasks.dueAt})))`,
    })
    .from(fileStoreTasks);
  const due = rows[0]?.dueAt;
  return due ? new Date(due) : null;
}

// ---------------------------------------------------------------------------------------
// Conversion of old data (admin command `storage convert`)

/** The versioned files (GeoPackage, SQLite) of live projects with diff updates in their history. */
export async function listConvertibleFiles(
  db: Executor,
): Promise<{ projectId: string; path: string }[]> {
  const rows = await db
    .selectDistinct({ projectId: fileHistory.projectId, path: fileHistory.path })
    .from(fileHistory)
    .innerJoin(projects, eq(projects.id, fileHistory.projectId))
    .where(
      and(
        eq(fileHistory.change, 'update_diff'),
        sql`${projects.removedAt} IS NULL`,
        sql`${fileHistory.path} ~* ${VERSIONED_FILE_PATTERN.source}`,
      ),
    );
  return rows;
}

export interface ConversionRow {
  startedAt: Date;
  finishedAt: Date | null;
  filesTotal: number;
  filesDone: number;
  versionsWithRecipe: number;
  copiesDropped: number;
  bytesFreed: number;
}

/** What the blob store holds, in figures (admin `storage status`; a scan of blobs). */
export interface StoreFigures {
  /** Blobs with a recipe (made from a diff, or given one by the conversion). */
  withRecipe: number;
  /** Blobs without their bytes in the store (stored as their diffs). */
  asDiffs: number;
  /** Bytes in the store (blobs whose bytes are stored). */
  storedBytes: number;
}

export async function storeFigures(db: Executor): Promise<StoreFigures> {
  const rows = await db
    .select({
      withRecipe: sql<number>`count(*) filter (where ${blobs.baseKey} is not null)`.mapWith(Number),
      asDiffs: sql<number>`count(*) filter (where not ${blobs.stored})`.mapWith(Number),
      storedBytes:
        sql<number>`coalesce(sum(${blobs.size}) filter (where ${blobs.stored}), 0)`.mapWith(Number),
    })
    .from(blobs);
  return rows[0] ?? { withRecipe: 0, asDiffs: 0, storedBytes: 0 };
}

/** The newest blobs stored as their diffs (no bytes in the store), at most `limit`. */
export async function listUnstoredBlobs(db: Executor, limit: number): Promise<string[]> {
  const rows = await db
    .select({ key: blobs.key })
    .from(blobs)
    .where(eq(blobs.stored, false))
    .orderBy(sql`${blobs.createdAt} desc`, blobs.key)
    .limit(limit);
  return rows.map((row) => row.key);
}

export async function findConversion(db: Executor): Promise<ConversionRow | null> {
  const rows = await db
    .select({
      startedAt: fileStoreConversion.startedAt,
      finishedAt: fileStoreConversion.finishedAt,
      filesTotal: fileStoreConversion.filesTotal,
      filesDone: fileStoreConversion.filesDone,
      versionsWithRecipe: fileStoreConversion.versionsWithRecipe,
      copiesDropped: fileStoreConversion.copiesDropped,
      bytesFreed: fileStoreConversion.bytesFreed,
    })
    .from(fileStoreConversion)
    .where(eq(fileStoreConversion.id, 1));
  return rows[0] ?? null;
}

export async function startConversion(db: Executor, at: Date, filesTotal: number): Promise<void> {
  const values = {
    startedAt: at,
    finishedAt: filesTotal === 0 ? at : null,
    filesTotal,
    filesDone: 0,
    versionsWithRecipe: 0,
    copiesDropped: 0,
    bytesFreed: 0,
  };
  await db
    .insert(fileStoreConversion)
    .values({ id: 1, ...values })
    .onConflictDoUpdate({ target: fileStoreConversion.id, set: values });
}

/** Counts progress of the running conversion (nothing when none runs). */
export async function addConversionProgress(
  db: Executor,
  progress: { files?: number; recipes?: number; dropped?: number; bytes?: number },
  at: Date,
): Promise<void> {
  await db.execute(sql`
    UPDATE ${fileStoreConversion} SET
      files_done = files_done + ${progress.files ?? 0},
      versions_with_recipe = versions_with_recipe + ${progress.recipes ?? 0},
      copies_dropped = copies_dropped + ${progress.dropped ?? 0},
      bytes_freed = bytes_freed + ${progress.bytes ?? 0},
      finished_at = CASE WHEN files_done + ${progress.files ?? 0} >= files_total
        THEN ${at.toISOString()}::timestamptz ELSE NULL END
    WHERE id = 1 AND finished_at IS NULL`);
}
