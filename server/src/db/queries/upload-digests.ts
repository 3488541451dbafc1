/**
 * SQL for the running SHA-1 of staged files (table upload_digests). Rows change only by
 * compare-and-set on `generation`, so concurrent chunk requests on any instance never
 * overwrite each other's progress.
 */
import { and, asc, eq, gt, inArray, sql } from 'drizzle-orm';
import type { Executor } from '../database';
import { uploadChunks, uploadDigests } from '../schema';

export interface DigestRow {
  nextChunk: number;
  sha1State: string | null;
  generation: number;
}

/** The file's digest row, created empty when missing. */
export async function loadDigest(
  db: Executor,
  uploadId: string,
  fileIndex: number,
): Promise<DigestRow> {
  await db.insert(uploadDigests).values({ uploadId, fileIndex }).onConflictDoNothing();
  const rows = await db
    .select({
      nextChunk: uploadDigests.nextChunk,
      sha1State: uploadDigests.sha1State,
      generation: uploadDigests.generation,
    })
    .from(uploadDigests)
    .where(and(eq(uploadDigests.uploadId, uploadId), eq(uploadDigests.fileIndex, fileIndex)));
  return rows[0] ?? { nextChunk: 0, sha1State: null, generation: 0 };
}

/** Stores new progress unless somebody changed the row since `generation`; true on success. */
export async function saveDigest(
  db: Executor,
  uploadId: string,
  fileIndex: number,
  generation: number,
  progress: { nextChunk: number; sha1State: string },
): Promise<boolean> {
  const rows = await db
    .update(uploadDigests)
    .set({ ...progress, generation: sql`${uploadDigests.generation} + 1` })
    .where(
      and(
        eq(uploadDigests.uploadId, uploadId),
        eq(uploadDigests.fileIndex, fileIndex),
        eq(uploadDigests.generation, generation),
      ),
    )
    .returning({ generation: uploadDigests.generation });
  return rows.length > 0;
}

/** Forgets the progress when it already covers chunk `chunkIndex` (its bytes changed). */
export async function resetDigestFrom(
  db: Executor,
  uploadId: string,
  fileIndex: number,
  chunkIndex: number,
): Promise<void> {
  await db
    .update(uploadDigests)
    .set({ nextChunk: 0, sha1State: null, generation: sql`${uploadDigests.generation} + 1` })
    .where(
      and(
        eq(uploadDigests.uploadId, uploadId),
        eq(uploadDigests.fileIndex, fileIndex),
        gt(uploadDigests.nextChunk, chunkIndex),
      ),
    );
}

export interface FileChunk {
  chunkIndex: number;
  size: number;
  sha1: string | null;
  sha256: string | null;
}

/** The received chunks of one staged file, in file order. */
export async function listFileChunks(
  db: Executor,
  uploadId: string,
  filePath: string,
): Promise<FileChunk[]> {
  return db
    .select({
      chunkIndex: uploadChunks.chunkIndex,
      size: uploadChunks.size,
      sha1: uploadChunks.sha1,
      sha256: uploadChunks.sha256,
    })
    .from(uploadChunks)
    .where(and(eq(uploadChunks.uploadId, uploadId), eq(uploadChunks.filePath, filePath)))
    .orderBy(asc(uploadChunks.chunkIndex));
}

/** The chunk's recorded SHA-1, or null when it was not received yet. */
export async function chunkSha1(
  db: Executor,
  uploadId: string,
  chunkId: string,
): Promise<string | null | undefined> {
  const rows = await db
    .select({ sha1: uploadChunks.sha1 })
    .from(uploadChunks)
    .where(and(eq(uploadChunks.uploadId, uploadId), eq(uploadChunks.chunkId, chunkId)));
  return rows[0]?.sha1;
}

/** Forgets a staged file's chunks and its running SHA-1 (its bytes must be sent again). */
export async function forgetChunks(
  db: Executor,
  uploadId: string,
  fileIndex: number,
  chunkIds: string[],
): Promise<void> {
  if (chunkIds.length > 0) {
    await db
      .delete(uploadChunks)
      .where(and(eq(uploadChunks.uploadId, uploadId), inArray(uploadChunks.chunkId, chunkIds)));
  }
  await db
    .delete(uploadDigests)
    .where(and(eq(uploadDigests.uploadId, uploadId), eq(uploadDigests.fileIndex, fileIndex)));
}
