/**
 * Chunks of the v2 push (client-compat §5.2, api-reference §1.9): each chunk the client sends
 * is kept under a server-issued id until a version uses it or it expires (CHUNK_TTL_MS after
 * it arrived). Nothing lives on one instance's disk or in its memory, so a chunk sent to one
 * instance can be used by a push sent to another:
 *
 * - metadata (id, project, size, SHA-1, arrival) in the table v2_chunks (db/queries/v2-chunks.ts);
 * - bytes in the push staging (staging.ts), owned by the chunk id (file 0).
 *
 * The row is written before the bytes (size -1 while they stream in), so staged bytes whose
 * owner is neither a chunk row nor an upload are always leftovers; the push sweep job
 * (services/push/sweep.ts) removes expired chunks and such leftovers.
 */
import { randomUUID } from 'node:crypto';
import type { AppContext } from '../context';
import {
  completeV2Chunk,
  deleteV2Chunks,
  expiredV2Chunks,
  insertV2Chunk,
  v2ChunksOf,
} from '../db/queries/v2-chunks';
import { CHUNK_SIZE, stagingOf, UUID_RE, type UploadStaging } from './staging';

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

export class ChunkStore {
  private readonly staging: UploadStaging;

  constructor(private readonly ctx: AppContext) {
    this.staging = stagingOf(ctx.blobStore);
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
        // A v2 version concatenates its chunks into the blob store, which keys them then.
        leaf: false,
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

  /** Removes chunks that arrived CHUNK_TTL_MS or longer before `now`; resolves how many. */
  async sweepExpired(now: Date): Promise<number> {
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
    return expired;
  }
}
