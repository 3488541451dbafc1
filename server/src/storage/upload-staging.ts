/**
 * Staging files of running pushes: DATA_DIR/uploads/<transaction>/<n>.part, one file per
 * added or updated file of the push plan (n = its position in the plan, so client paths
 * never become file names). Each chunk is written straight to its offset (chunk index ×
 * CHUNK_SIZE) and fsynced before it is acknowledged; a repeated chunk rewrites the same bytes.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';

/** Bytes per chunk (api-reference §1.3): 10 MiB. */
export const CHUNK_SIZE = 10 * 1024 * 1024;

export const STAGING_DIR = 'uploads';

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** The received bytes exceed the chunk limit; nothing more was written. */
export class ChunkTooBigError extends Error {
  constructor() {
    super('Chunk too big');
    this.name = 'ChunkTooBigError';
  }
}

export class UploadStaging {
  readonly root: string;

  constructor(dataDir: string) {
    this.root = path.join(path.resolve(dataDir), STAGING_DIR);
  }

  dirOf(transaction: string): string {
    if (!UUID_RE.test(transaction)) throw new Error(`Invalid transaction ${transaction}`);
    return path.join(this.root, transaction);
  }

  fileOf(transaction: string, fileIndex: number): string {
    if (!Number.isSafeInteger(fileIndex) || fileIndex < 0) throw new Error('Invalid file index');
    return path.join(this.dirOf(transaction), `${fileIndex}.part`);
  }

  /**
   * Streams `body` into the staging file at `offset`; at most `limit` bytes (else
   * ChunkTooBigError). When `truncate` is set, the file ends after the chunk. Durable on return.
   */
  async writeChunk(
    transaction: string,
    fileIndex: number,
    offset: number,
    body: AsyncIterable<Uint8Array | string>,
    options: { limit: number; truncate: boolean },
  ): Promise<{ size: number; sha1: string }> {
    await fsp.mkdir(this.dirOf(transaction), { recursive: true });
    const handle = await fsp.open(
      this.fileOf(transaction, fileIndex),
      fs.constants.O_WRONLY | fs.constants.O_CREAT,
    );
    const hash = createHash('sha1');
    let size = 0;
    try {
      for await (const piece of body) {
        const bytes = typeof piece === 'string' ? Buffer.from(piece) : piece;
        if (size + bytes.length > options.limit) throw new ChunkTooBigError();
        let done = 0;
        while (done < bytes.length) {
          const { bytesWritten } = await handle.write(
            bytes,
            done,
            bytes.length - done,
            offset + size + done,
          );
          done += bytesWritten;
        }
        hash.update(bytes);
        size += bytes.length;
      }
      if (options.truncate) await handle.truncate(offset + size);
      await handle.sync();
    } finally {
      await handle.close();
    }
    return { size, sha1: hash.digest('hex') };
  }

  /** Size and SHA-1 of a staged file, read as a stream (a missing file is empty). */
  async digest(transaction: string, fileIndex: number): Promise<{ size: number; sha1: string }> {
    const hash = createHash('sha1');
    let size = 0;
    try {
      for await (const piece of fs.createReadStream(this.fileOf(transaction, fileIndex), {
        highWaterMark: 1024 * 1024,
      })) {
        hash.update(piece as Buffer);
        size += (piece as Buffer).length;
      }
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
    return { size, sha1: hash.digest('hex') };
  }

  /** A read stream of the staged file (empty when it does not exist). */
  open(transaction: string, fileIndex: number): AsyncIterable<Uint8Array> {
    const file = this.fileOf(transaction, fileIndex);
    return (async function* () {
      try {
        yield* fs.createReadStream(file, { highWaterMark: 1024 * 1024 }) as AsyncIterable<Buffer>;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      }
    })();
  }

  async remove(transaction: string): Promise<void> {
    await fsp.rm(this.dirOf(transaction), { recursive: true, force: true });
  }

  /** Transaction ids that have a staging folder. */
  async list(): Promise<string[]> {
    try {
      const entries = await fsp.readdir(this.root, { withFileTypes: true });
      return entries.filter((e) => e.isDirectory() && UUID_RE.test(e.name)).map((e) => e.name);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
      throw error;
    }
  }
}
