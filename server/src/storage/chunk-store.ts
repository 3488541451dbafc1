/**
 * Chunks of the v2 push (client-compat §5.2, api-reference §1.9): each chunk the client
 * sends is kept under a server-issued id, DATA_DIR/v2-chunks/<project id>/<chunk id>, until
 * a version uses it or it expires (CHUNK_TTL_MS after it was written; expired chunks of a
 * project are swept when that project receives a chunk, services/push-v2.ts). Written to a temporary name,
 * fsynced and renamed, so a chunk file is always complete.
 */
import { createHash, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { ChunkTooBigError, CHUNK_SIZE } from './upload-staging';

export const CHUNKS_DIR = 'v2-chunks';
/** How long an unused chunk is kept (UPLOAD_CHUNKS_EXPIRATION): one day. */
export const CHUNK_TTL_MS = 24 * 3600 * 1000;

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

export interface StoredChunk {
  id: string;
  size: number;
  sha1: string;
  /** When it was written. */
  writtenAt: Date;
}

export class ChunkStore {
  readonly root: string;

  constructor(dataDir: string) {
    this.root = path.join(path.resolve(dataDir), CHUNKS_DIR);
  }

  static isChunkId(id: string): boolean {
    return UUID_RE.test(id);
  }

  private dirOf(projectId: string): string {
    if (!UUID_RE.test(projectId)) throw new Error(`Invalid project id ${projectId}`);
    return path.join(this.root, projectId);
  }

  private fileOf(projectId: string, id: string): string {
    if (!UUID_RE.test(id)) throw new Error(`Invalid chunk id ${id}`);
    return path.join(this.dirOf(projectId), id);
  }

  /** Streams `body` into a new chunk (at most CHUNK_SIZE bytes, else ChunkTooBigError). */
  async write(
    projectId: string,
    body: AsyncIterable<Uint8Array | string>,
    now: Date,
  ): Promise<StoredChunk> {
    const id = randomUUID();
    const file = this.fileOf(projectId, id);
    const temp = `${file}.tmp`;
    await fsp.mkdir(this.dirOf(projectId), { recursive: true });
    const handle = await fsp.open(temp, 'w');
    const hash = createHash('sha1');
    let size = 0;
    try {
      for await (const piece of body) {
        const bytes = typeof piece === 'string' ? Buffer.from(piece) : piece;
        if (size + bytes.length > CHUNK_SIZE) throw new ChunkTooBigError();
        let done = 0;
        while (done < bytes.length) {
          const { bytesWritten } = await handle.write(bytes, done, bytes.length - done);
          done += bytesWritten;
        }
        hash.update(bytes);
        size += bytes.length;
      }
      await handle.sync();
    } catch (error) {
      await handle.close();
      await fsp.rm(temp, { force: true });
      throw error;
    }
    await handle.close();
    await fsp.utimes(temp, now, now);
    await fsp.rename(temp, file);
    return { id, size, sha1: hash.digest('hex'), writtenAt: now };
  }

  /** The chunk's size and write time, or null when it does not exist or has expired. */
  async stat(projectId: string, id: string, now: Date): Promise<StoredChunk | null> {
    if (!UUID_RE.test(id)) return null;
    try {
      const info = await fsp.stat(this.fileOf(projectId, id));
      if (info.mtime.getTime() + CHUNK_TTL_MS <= now.getTime()) return null;
      return { id, size: info.size, sha1: '', writtenAt: info.mtime };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw error;
    }
  }

  /** The chunk's bytes. */
  open(projectId: string, id: string): fs.ReadStream {
    return fs.createReadStream(this.fileOf(projectId, id));
  }

  async remove(projectId: string, ids: Iterable<string>): Promise<void> {
    for (const id of ids) {
      if (UUID_RE.test(id)) await fsp.rm(this.fileOf(projectId, id), { force: true });
    }
  }

  /** Removes the project's chunks (and leftover temporary files) older than CHUNK_TTL_MS. */
  async sweep(projectId: string, now: Date): Promise<number> {
    let names: string[];
    try {
      names = await fsp.readdir(this.dirOf(projectId));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return 0;
      throw error;
    }
    let removed = 0;
    for (const name of names) {
      const file = path.join(this.dirOf(projectId), name);
      try {
        const info = await fsp.stat(file);
        if (info.mtime.getTime() + CHUNK_TTL_MS <= now.getTime()) {
          await fsp.rm(file, { force: true });
          removed += 1;
        }
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      }
    }
    return removed;
  }
}
