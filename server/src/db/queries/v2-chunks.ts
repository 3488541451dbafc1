/** SQL for the v2 push's chunks (table v2_chunks; bytes in storage/chunk-store.ts). */
import { and, eq, inArray, lte } from 'drizzle-orm';
import type { Executor } from '../database';
import { v2Chunks } from '../schema';

export type V2ChunkRow = typeof v2Chunks.$inferSelect;

export async function insertV2Chunk(db: Executor, row: V2ChunkRow): Promise<void> {
  await db.insert(v2Chunks).values(row);
}

/** The project's chunks among `ids` (valid UUIDs only). */
export async function v2ChunksOf(
  db: Executor,
  projectId: string,
  ids: string[],
): Promise<V2ChunkRow[]> {
  if (ids.length === 0) return [];
  return db
    .select()
    .from(v2Chunks)
    .where(and(eq(v2Chunks.projectId, projectId), inArray(v2Chunks.id, ids)));
}

/** Ids of chunks that arrived at or before `before`, oldest first, at most `limit`. */
export async function expiredV2Chunks(
  db: Executor,
  before: Date,
  limit: number,
): Promise<string[]> {
  const rows = await db
    .select({ id: v2Chunks.id })
    .from(v2Chunks)
    .where(lte(v2Chunks.uploadedAt, before))
    .orderBy(v2Chunks.uploadedAt)
    .limit(limit);
  return rows.map((r) => r.id);
}

export async function deleteV2Chunks(db: Executor, ids: string[]): Promise<void> {
  if (ids.length === 0) return;
  await db.delete(v2Chunks).where(inArray(v2Chunks.id, ids));
}

/** Records the size and SHA-1 of a chunk once its bytes are durable. */
export async function completeV2Chunk(
  db: Executor,
  id: string,
  done: { size: number; sha1: string },
): Promise<void> {
  await db.update(v2Chunks).set(done).where(eq(v2Chunks.id, id));
}

/** Which of `ids` have a row. */
export async function existingV2ChunkIds(db: Executor, ids: string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await db.select({ id: v2Chunks.id }).from(v2Chunks).where(inArray(v2Chunks.id, ids));
  return new Set(rows.map((r) => r.id));
}
