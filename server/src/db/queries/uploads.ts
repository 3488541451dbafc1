/**
 * SQL for running pushes (tables uploads and upload_chunks). One upload row per project is
 * the push lock: it is taken by inserting the row, and a row without requests for longer
 * than the staleness limit may be replaced by another push.
 */
import { and, asc, eq, inArray, lt, notInArray, or, sql } from 'drizzle-orm';
import type { Executor } from '../database';
import { projects, uploadChunks, uploads } from '../schema';
import { receivedFrom, receivedList, type ReceivedChunk } from './upload-chunks';

export type UploadRow = typeof uploads.$inferSelect;

/** The rows of a result of db.execute (node-postgres and PGlite both answer `{rows}`). */
function rowsOf<R>(result: unknown): R[] {
  return (result as { rows: R[] }).rows;
}

/** An upload row without its plan (read once per upload: loadUploadPlan). */
export type UploadHead = Omit<UploadRow, 'changes'>;

export interface UploadWithProject {
  upload: UploadHead;
  /** Null when the project is scheduled for deletion. */
  projectRemovedAt: Date | null;
  projectLockedUntil: Date | null;
}

export interface NewUpload {
  /** The transaction id (default: a new random one). */
  id?: string;
  projectId: string;
  baseVersion: number;
  userId: number;
  changes: unknown;
  at: Date;
  /** open (v1: chunks follow) | committing (v2: the version is made in this request). */
  status?: 'open' | 'committing';
}

/**
 * Takes the push lock of the project: removes an upload with no request since `staleBefore`,
 * or a one-call (v2) push whose request died (status 'committing', no ping since
 * `leaseStaleBefore`, not in `running`), then inserts the new row unless a live one exists.
 * Returns the new row (null: another push holds the lock) and the transaction ids that were
 * taken over.
 */
export async function acquireUpload(
  db: Executor,
  values: NewUpload,
  stale: { before: Date; leaseBefore: Date; running: string[] },
): Promise<{ upload: UploadRow | null; replaced: string[] }> {
  return db.transaction(async (tx) => {
    const deadCall = and(
      eq(uploads.status, 'committing'),
      lt(uploads.lastPingAt, stale.leaseBefore),
      stale.running.length > 0 ? notInArray(uploads.id, stale.running) : undefined,
    );
    const replaced = await tx
      .delete(uploads)
      .where(
        and(
          eq(uploads.projectId, values.projectId),
          or(lt(uploads.lastPingAt, stale.before), deadCall),
        ),
      )
      .returning({ id: uploads.id });
    const rows = await tx
      .insert(uploads)
      .values({
        ...(values.id ? { id: values.id } : {}),
        projectId: values.projectId,
        baseVersion: values.baseVersion,
        userId: values.userId,
        changes: values.changes,
        createdAt: values.at,
        lastPingAt: values.at,
        status: values.status ?? 'open',
      })
      .onConflictDoNothing({ target: uploads.projectId })
      .returning();
    return { upload: rows[0] ?? null, replaced: replaced.map((row) => row.id) };
  });
}

export async function findUpload(db: Executor, id: string): Promise<UploadWithProject | null> {
  const rows = await db
    .select({
      upload: {
        id: uploads.id,
        projectId: uploads.projectId,
        baseVersion: uploads.baseVersion,
        userId: uploads.userId,
        createdAt: uploads.createdAt,
        lastPingAt: uploads.lastPingAt,
        status: uploads.status,
      },
      projectRemovedAt: projects.removedAt,
      projectLockedUntil: projects.lockedUntil,
    })
    .from(uploads)
    .innerJoin(projects, eq(projects.id, uploads.projectId))
    .where(eq(uploads.id, id))
    .limit(1);
  return rows[0] ?? null;
}

/** The plan stored with an upload (null when the upload is gone). */
export async function loadUploadPlan(db: Executor, id: string): Promise<unknown> {
  const rows = await db
    .select({ changes: uploads.changes })
    .from(uploads)
    .where(eq(uploads.id, id))
    .limit(1);
  return rows[0]?.changes ?? null;
}

/** Refreshes last_ping_at; false when the upload no longer exists. */
export async function touchUpload(db: Executor, id: string, at: Date): Promise<boolean> {
  const rows = await db
    .update(uploads)
    .set({ lastPingAt: at })
    .where(eq(uploads.id, id))
    .returning({ id: uploads.id });
  return rows.length > 0;
}

/**
 * open → finishing (one finish at a time). A finishing upload whose finish died (no ping
 * since `leaseStaleBefore`) may be claimed again. False when another finish runs or the
 * upload is gone.
 */
export async function claimUploadForFinish(
  db: Executor,
  id: string,
  at: Date,
  leaseStaleBefore: Date,
): Promise<boolean> {
  const rows = await db
    .update(uploads)
    .set({ status: 'finishing', lastPingAt: at })
    .where(
      and(
        eq(uploads.id, id),
        or(
          eq(uploads.status, 'open'),
          and(eq(uploads.status, 'finishing'), lt(uploads.lastPingAt, leaseStaleBefore)),
        ),
      ),
    )
    .returning({ id: uploads.id });
  return rows.length > 0;
}

export async function reopenUpload(db: Executor, id: string, at: Date): Promise<void> {
  await db.update(uploads).set({ status: 'open', lastPingAt: at }).where(eq(uploads.id, id));
}

export async function deleteUpload(db: Executor, id: string): Promise<boolean> {
  const rows = await db.delete(uploads).where(eq(uploads.id, id)).returning({ id: uploads.id });
  return rows.length > 0;
}

export interface ChunkRecord {
  uploadId: string;
  chunkId: string;
  filePath: string;
  /** Position of the file among the plan's added and updated files (its digest row). */
  fileIndex: number;
  chunkIndex: number;
  size: number;
  sha1: string;
  sha256: string;
  at: Date;
}

export interface ChunkRecorded {
  recorded: boolean;
  /** The chunk's earlier record, when it was sent before. */
  previous: { sha1: string | null } | null;
  /** The file's received chunks from chunk `from` on (this one included), in file order. */
  received: ReceivedChunk[];
}

/**
 * Records an acknowledged chunk and refreshes the upload's last_ping_at, in one statement; a
 * repeated chunk replaces the record and counts a write. `recorded` is false when the upload
 * no longer exists (nothing is recorded then). The same statement reads the file's received
 * chunks from chunk `from` on (where its running SHA-1 stands, services/push/digest.ts), so
 * following the running SHA-1 costs no statement of its own.
 */
export async function recordChunk(
  db: Executor,
  chunk: ChunkRecord,
  from: number,
): Promise<ChunkRecorded> {
  const at = chunk.at.toISOString();
  const received = receivedFrom(chunk.uploadId, chunk.filePath, from);
  const result = await db.execute(sql`
    WITH touched AS (
      UPDATE ${uploads} SET last_ping_at = ${at}::timestamptz
      WHERE id = ${chunk.uploadId}
      RETURNING id
    ), previous AS (
      SELECT sha1 FROM ${uploadChunks}
      WHERE upload_id = ${chunk.uploadId} AND chunk_id = ${chunk.chunkId}
    ), recorded AS (
      INSERT INTO ${uploadChunks}
        (upload_id, chunk_id, file_path, chunk_index, size, sha1, sha256, received_at, writes)
      SELECT id, ${chunk.chunkId}, ${chunk.filePath}, ${chunk.chunkIndex}, ${chunk.size},
        ${chunk.sha1}, ${chunk.sha256}, ${at}::timestamptz, 1
      FROM touched
      ON CONFLICT (upload_id, chunk_id) DO UPDATE SET
        size = excluded.size, sha1 = excluded.sha1, sha256 = excluded.sha256,
        received_at = excluded.received_at, writes = ${uploadChunks}.writes + 1
      RETURNING 1
    )
    SELECT
      (SELECT count(*) FROM recorded)::int AS recorded,
      (SELECT count(*) FROM previous)::int AS existed,
      (SELECT sha1 FROM previous) AS previous_sha1,
      ${received.indexes} AS indexes,
      ${received.sha1s} AS sha1s`);
  const row = rowsOf<{
    recorded: number;
    existed: number;
    previous_sha1: string | null;
    indexes: unknown[] | null;
    sha1s: (string | null)[] | null;
  }>(result)[0];
  const recorded = Number(row?.recorded ?? 0) > 0;
  // The statement saw the table before its own insert: this chunk's record is added here.
  const others = recorded
    ? receivedList(row?.indexes ?? null, row?.sha1s ?? null).filter(
        (c) => c.index !== chunk.chunkIndex,
      )
    : [];
  const mine =
    recorded && chunk.chunkIndex >= from ? [{ index: chunk.chunkIndex, sha1: chunk.sha1 }] : [];
  return {
    recorded,
    previous: Number(row?.existed ?? 0) > 0 ? { sha1: row?.previous_sha1 ?? null } : null,
    received: [...others, ...mine].sort((a, b) => a.index - b.index),
  };
}

/** Forgets a chunk; true when it was recorded. */
export async function deleteChunk(
  db: Executor,
  uploadId: string,
  chunkId: string,
): Promise<boolean> {
  const rows = await db
    .delete(uploadChunks)
    .where(and(eq(uploadChunks.uploadId, uploadId), eq(uploadChunks.chunkId, chunkId)))
    .returning({ chunkId: uploadChunks.chunkId });
  return rows.length > 0;
}

export interface ChunkRow {
  chunkId: string;
  filePath: string;
  chunkIndex: number;
  size: number;
  sha1: string | null;
  writes: number;
}

export async function listChunks(db: Executor, uploadId: string): Promise<ChunkRow[]> {
  return db
    .select({
      chunkId: uploadChunks.chunkId,
      filePath: uploadChunks.filePath,
      chunkIndex: uploadChunks.chunkIndex,
      size: uploadChunks.size,
      sha1: uploadChunks.sha1,
      writes: uploadChunks.writes,
    })
    .from(uploadChunks)
    .where(eq(uploadChunks.uploadId, uploadId))
    .orderBy(asc(uploadChunks.filePath), asc(uploadChunks.chunkIndex));
}

/** Deletes uploads without a request since `before`; returns their ids. */
export async function deleteUploadsIdleSince(db: Executor, before: Date): Promise<string[]> {
  const rows = await db
    .delete(uploads)
    .where(lt(uploads.lastPingAt, before))
    .returning({ id: uploads.id });
  return rows.map((row) => row.id);
}

/** Which of the ids are running uploads. */
export async function existingUploadIds(db: Executor, ids: string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await db.select({ id: uploads.id }).from(uploads).where(inArray(uploads.id, ids));
  return new Set(rows.map((row) => row.id));
}
