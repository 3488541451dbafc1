/**
 * SQL for the running SHA-1 of staged files (table upload_digests). Rows change only by
 * compare-and-set on `generation`, so concurrent chunk requests on any instance never
 * overwrite each other's progress.
 */
import { and, asc, eq, gt, inArray, sql, type SQL } from 'drizzle-orm';
import type { Executor } from '../database';
import { uploadChunks, uploadDigests } from '../schema';

export interface DigestRow {
  nextChunk: number;
  sha1State: string | null;
  generation: number;
}

/** A received chunk of a file: its index and the SHA-1 recorded for it. */
export interface ReceivedChunk {
  index: number;
  sha1: string | null;
}

export type LoadedDigest = DigestRow & { received: ReceivedChunk[] };

/** The received chunks of `filePath` from `from` on, as two arrays in file order (SQL). */
export function receivedFrom(uploadId: SQL | string, filePath: string, from: SQL) {
  const where = sql`where ${uploadChunks.uploadId} = ${uploadId}
    and ${uploadChunks.filePath} = ${filePath} and ${uploadChunks.chunkIndex} >= ${from}
    order by ${uploadChunks.chunkIndex}`;
  return {
    indexes: sql<
      number[] | null
    >`array(select ${uploadChunks.chunkIndex} from ${uploadChunks} ${where})`,
    sha1s: sql<
      (string | null)[] | null
    >`array(select ${uploadChunks.sha1} from ${uploadChunks} ${where})`,
  };
}

/** The two arrays of receivedFrom as a list. */
export function receivedList(
  indexes: unknown[] | null,
  sha1s: (string | null)[] | null,
): ReceivedChunk[] {
  return (indexes ?? []).map((index, i) => ({ index: Number(index), sha1: sha1s?.[i] ?? null }));
}

/**
 * The file's digest row (created empty when missing) with, in one statement, the file's
 * received chunks from its next_chunk on, in file order.
 */
export async function loadDigest(
  db: Executor,
  uploadId: string,
  fileIndex: number,
  filePath: string,
): Promise<LoadedDigest> {
  const received = receivedFrom(
    sql`${uploadDigests.uploadId}`,
    filePath,
    sql`${uploadDigests.nextChunk}`,
  );
  const select = () =>
    db
      .select({
        nextChunk: uploadDigests.nextChunk,
        sha1State: uploadDigests.sha1State,
        generation: uploadDigests.generation,
        indexes: received.indexes,
        sha1s: received.sha1s,
      })
      .from(uploadDigests)
      .where(and(eq(uploadDigests.uploadId, uploadId), eq(uploadDigests.fileIndex, fileIndex)));
  let row = (await select())[0];
  if (!row) {
    await db.insert(uploadDigests).values({ uploadId, fileIndex }).onConflictDoNothing();
    row = (await select())[0];
  }
  if (!row) return { nextChunk: 0, sha1State: null, generation: 0, received: [] };
  const { indexes, sha1s, ...digest } = row;
  return { ...digest, received: receivedList(indexes, sha1s) };
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
