/**
 * Chunks of the v2 push (client-compat §5.2, api-reference §1.9): each chunk the client sends
 * is kept under a server-issued id until a version uses it or it expires (CHUNK_TTL_MS after
 * it arrived). Nothing lives on one instance's disk or in its memory, so a chunk sent to one
 * instance can be used by a push sent to another:
 *
 * - metadata (id, project, size, SHA-1, arrival) in the table v2_chunks (db/queries/v2-chunks.ts);
 * - bytes in an upload staging beside the configured blob store (open-blob-store.ts), in a
 *   namespace of its own so the v1 upload cleanup never sees them: DATA_DIR/v2-chunks/uploads/
 *   <chunk id>/0.part on the local store, `<prefix>v2-chunks/staging/<chunk id>/0/0` in the
 *   S3 bucket.
 *
 * The row is written before the bytes (size -1 while they stream in), so stored bytes without
 * a row are always leftovers; sweepExpired (the scheduler's v2 chunk job) removes expired
 * chunks and such leftovers.
 */
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import type { AppContext } from '../context';
import {
  completeV2Chunk,
  deleteV2Chunks,
  existingV2ChunkIds,
  expiredV2Chunks,
  insertV2Chunk,
  v2ChunksOf,
} from '../db/queries/v2-chunks';
import { S3BlobStore } from './s3-blob-store';
import { S3UploadStaging } from './s3-upload-staging';
import { CHUNK_SIZE, LocalUploadStaging, UUID_RE, type UploadStaging } from './upload-staging';

export const CHUNKS_DIR = 'v2-chunks';
/** How long an unused chunk is kept (UPLOAD_CHUNKS_EXPIRATION): one day. */
export const CHUNK_TTL_MS = 24 * 3600 * 1000;
/** Expired chunks removed per batch by the sweep. */
const SWEEP_BATCH = 500;

export interface StoredChunk {
  id: string;
  size: number;
  sha1: string;
  uploadedAt: Date;
}

/** The staging that holds v2 chunk bytes for the context's blob store. */
export function v2ChunkStaging(ctx: Pick<AppContext, 'blobStore' | 'config'>): UploadStaging {
  const store = ctx.blobStore;
  if (store instanceof S3BlobStore) {
    return new S3UploadStaging(
      new S3BlobStore(store.client, store.bucket, `${store.prefix}${CHUNKS_DIR}/`),
    );
  }
  return new LocalUploadStaging(path.join(ctx.config.dataDir, CHUNKS_DIR), store);
}

export class ChunkStore {
  private readonly staging: UploadStaging;

  constructor(private readonly ctx: AppContext) {
    this.staging = v2ChunkStaging(ctx);
  }

  static isChunkId(id: string): boolean {
    return UUID_RE.test(id);
  }

  /** Streams `body` into a new chunk (at most CHUNK_SIZE bytes, else ChunkTooBigError). */
  async write(
    projectId: string,
    body: AsyncIterable<Uint8Array | string>,
    now: Date,
  ): Promise<StoredChunk> {
    const db = this.ctx.database.db;
    const id = randomUUID();
    await insertV2Chunk(db, { id, projectId, size: -1, sha1: '', uploadedAt: now });
    try {
      const written = await this.staging.writeChunk(id, 0, 0, body, {
        limit: CHUNK_SIZE,
        truncate: true,
      });
      await completeV2Chunk(db, id, { size: written.size, sha1: written.sha1 });
      return { id, size: written.size, sha1: written.sha1, uploadedAt: now };
    } catch (error) {
      await this.staging.remove(id).catch(() => {});
      await deleteV2Chunks(db, [id]).catch(() => {});
      throw error;
    }
  }

  /** The project's complete, unexpired chunks among `ids`, by id. */
  async find(projectId: string, ids: string[], now: Date): Promise<Map<string, StoredChunk>> {
    const valid = [...new Set(ids.filter((id) => UUID_RE.test(id)))];
    const rows = await v2ChunksOf(this.ctx.database.db, projectId, valid);
    const found = new Map<string, StoredChunk>();
    for (const row of rows) {
      if (row.size < 0) continue;
      if (row.uploadedAt.getTime() + CHUNK_TTL_MS <= now.getTime()) continue;
      found.set(row.id, row);
    }
    return found;
  }

  /** The chunk's bytes. */
  read(chunk: StoredChunk): AsyncIterable<Uint8Array> {
    return this.staging.readRange(chunk.id, 0, 0, chunk.size);
  }

  /** Removes chunks: bytes first, then rows (a failure leaves rows for the sweep). */
  async remove(ids: Iterable<string>): Promise<void> {
    const list = [...new Set(ids)].filter((id) => UUID_RE.test(id));
    for (const id of list) await this.staging.remove(id);
    await deleteV2Chunks(this.ctx.database.db, list);
  }

  /**
   * Removes chunks that arrived CHUNK_TTL_MS or longer before `now`, and stored bytes that
   * have no row (a crash, a deleted project); resolves how many chunks of each.
   */
  async sweepExpired(now: Date): Promise<{ expired: number; orphans: number }> {
    const db = this.ctx.database.db;
    const before = new Date(now.getTime() - CHUNK_TTL_MS);
    let expired = 0;
    for (;;) {
      const ids = await expiredV2Chunks(db, before, SWEEP_BATCH);
      if (ids.length === 0) break;
      await this.remove(ids);
      expired += ids.length;
      if (ids.length < SWEEP_BATCH) break;
    }
    const stored = await this.staging.list();
    const known = new Set<string>();
    for (let i = 0; i < stored.length; i += SWEEP_BATCH) {
      const batch = stored.slice(i, i + SWEEP_BATCH);
      for (const id of await existingV2ChunkIds(db, batch)) known.add(id);
    }
    const orphans = stored.filter((id) => !known.has(id));
    for (const id of orphans) await this.staging.remove(id);
    return { expired, orphans: orphans.length };
  }
}

/** The scheduler's job: sweeps expired v2 chunks across all instances. */
export async function sweepV2Chunks(ctx: AppContext): Promise<void> {
  const result = await new ChunkStore(ctx).sweepExpired(ctx.now());
  if (result.expired + result.orphans > 0) {
    ctx.log.info(result, `Removed ${result.expired + result.orphans} expired v2 push chunk(s)`);
  }
}
