/**
 * SQL for running pushes (tables uploads and upload_chunks). One upload row per project is
 * the push lock: it is taken by inserting the row, and a row without requests for longer
 * than the staleness limit may be replaced by another push.
 */
import { and, asc, eq, inArray, lt, or, sql } from 'drizzle-orm';
import type { Executor } from '../database';
import { projects, uploadChunks, uploads } from '../schema';

export type UploadRow = typeof uploads.$inferSelect;

export interface UploadWithProject {
  upload: UploadRow;
  /** Null when the project is scheduled for deletion. */
  projectRemovedAt: Date | null;
  projectLockedUntil: Date | null;
}

export interface NewUpload {
  projectId: string;
  baseVersion: number;
  userId: number;
  changes: unknown;
  at: Date;
}

/**
 * Takes the push lock of the project: removes an upload with no request since `staleBefore`,
 * then inserts the new row unless a live one exists. Returns the new row (null: another
 * push holds the lock) and the transaction ids that were taken over.
 */
export async function acquireUpload(
  db: Executor,
  values: NewUpload,
  staleBefore: Date,
): Promise<{ upload: UploadRow | null; replaced: string[] }> {
  return db.transaction(async (tx) => {
    const replaced = await tx
      .delete(uploads)
      .where(and(eq(uploads.projectId, values.projectId), lt(uploads.lastPingAt, staleBefore)))
      .returning({ id: uploads.id });
    const rows = await tx
      .insert(uploads)
      .values({
        projectId: values.projectId,
        baseVersion: values.baseVersion,
        userId: values.userId,
        changes: values.changes,
        createdAt: values.at,
        lastPingAt: values.at,
        status: 'open',
      })
      .onConflictDoNothing({ target: uploads.projectId })
      .returning();
    return { upload: rows[0] ?? null, replaced: replaced.map((row) => row.id) };
  });
}

export async function findUpload(db: Executor, id: string): Promise<UploadWithProject | null> {
  const rows = await db
    .select({
      upload: uploads,
      projectRemovedAt: projects.removedAt,
      projectLockedUntil: projects.lockedUntil,
    })
    .from(uploads)
    .innerJoin(projects, eq(projects.id, uploads.projectId))
    .where(eq(uploads.id, id))
    .limit(1);
  return rows[0] ?? null;
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
 * open → finishing (one finish at a time; a finish without a ping since `staleBefore` died
 * and may be retried); false when another finish runs or the upload is gone.
 */
export async function claimUploadForFinish(
  db: Executor,
  id: string,
  at: Date,
  staleBefore: Date,
): Promise<boolean> {
  const rows = await db
    .update(uploads)
    .set({ status: 'finishing', lastPingAt: at })
    .where(
      and(eq(uploads.id, id), or(eq(uploads.status, 'open'), lt(uploads.lastPingAt, staleBefore))),
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
  chunkIndex: number;
  size: number;
  sha1: string;
  sha256: string;
  at: Date;
}

/** Records an acknowledged chunk; a repeated chunk replaces the record and counts a write. */
export async function recordChunk(db: Executor, chunk: ChunkRecord): Promise<void> {
  await db
    .insert(uploadChunks)
    .values({
      uploadId: chunk.uploadId,
      chunkId: chunk.chunkId,
      filePath: chunk.filePath,
      chunkIndex: chunk.chunkIndex,
      size: chunk.size,
      sha1: chunk.sha1,
      sha256: chunk.sha256,
      receivedAt: chunk.at,
      writes: 1,
    })
    .onConflictDoUpdate({
      target: [uploadChunks.uploadId, uploadChunks.chunkId],
      set: {
        size: chunk.size,
        sha1: chunk.sha1,
        sha256: chunk.sha256,
        receivedAt: chunk.at,
        writes: sql`${uploadChunks.writes} + 1`,
      },
    });
}

export async function deleteChunk(db: Executor, uploadId: string, chunkId: string): Promise<void> {
  await db
    .delete(uploadChunks)
    .where(and(eq(uploadChunks.uploadId, uploadId), eq(uploadChunks.chunkId, chunkId)));
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
