/**
 * SQL for the received chunks of staged files, as the running SHA-1 (services/push/digest.ts)
 * and finish read them, and for forgetting a file's chunks. The running SHA-1 itself lives in
 * the process that follows the upload (docs/decisions/0099-server-running-sha1-openssl.md);
 * the table that once saved it (upload_digests) is dropped by migration 0015.
 */
import { and, asc, eq, gte, inArray, sql } from 'drizzle-orm';
import type { Executor } from '../database';
import { uploadChunks } from '../schema';

/** A received chunk of a file: its index and the SHA-1 recorded for it. */
export interface ReceivedChunk {
  index: number;
  sha1: string | null;
}

/** The received chunks of `filePath` from chunk `from` on, as two arrays in file order (SQL). */
export function receivedFrom(uploadId: string, filePath: string, from: number) {
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

/** The received chunks of `filePath` from chunk `from` on, in file order. */
export async function receivedChunks(
  db: Executor,
  uploadId: string,
  filePath: string,
  from: number,
): Promise<ReceivedChunk[]> {
  const rows = await db
    .select({ index: uploadChunks.chunkIndex, sha1: uploadChunks.sha1 })
    .from(uploadChunks)
    .where(
      and(
        eq(uploadChunks.uploadId, uploadId),
        eq(uploadChunks.filePath, filePath),
        gte(uploadChunks.chunkIndex, from),
      ),
    )
    .orderBy(asc(uploadChunks.chunkIndex));
  return rows;
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

/** Forgets a staged file's chunks (its bytes must be sent again). */
export async function forgetChunks(
  db: Executor,
  uploadId: string,
  chunkIds: string[],
): Promise<void> {
  if (chunkIds.length === 0) return;
  await db
    .delete(uploadChunks)
    .where(and(eq(uploadChunks.uploadId, uploadId), inArray(uploadChunks.chunkId, chunkIds)));
}
