/**
 * The push staging (staging.ts) beside the local blob store. A staged file is named by its
 * owner (transaction or v2 chunk id) and its position (client paths never become file
 * names); a chunk by its index in the file (offset = index × CHUNK_SIZE).
 *
 * LocalUploadStaging: DATA_DIR/uploads/<owner>/<n>.part. Each chunk is written straight to its offset and fsynced before it is
 * acknowledged (chunks of one file ending together share one fdatasync: file-syncs.ts); a
 * repeated chunk rewrites the same bytes. Several instances share it when
 * DATA_DIR is on a shared file system.
 */
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import type { BlobInfo, BlobStore } from './blob-store';
import { eachPiece, piecesAreOwned, releasePiece } from './body-pieces';
import { syncWrites } from './file-syncs';
import {
  CHUNK_SIZE,
  ChunkIntake,
  ChunkInterrupted,
  ChunkTooBigError,
  UUID_RE,
  type ChunkWriteOptions,
  type ChunkWritten,
  type UploadStaging,
} from './staging';

export { CHUNK_SIZE, ChunkTooBigError, UUID_RE, type ChunkWritten, type UploadStaging };

export const STAGING_DIR = 'uploads';

const READ_PIECE = 4 * 1024 * 1024;
/** Received chunk bytes are written in batches of about this size. */
const WRITE_BATCH = 1024 * 1024;

/** Writes every byte of `pieces` at `position` (one writev, repeated after a short write). */
async function writeAllAt(
  handle: fsp.FileHandle,
  pieces: Uint8Array[],
  position: number,
): Promise<void> {
  let rest = pieces;
  let at = position;
  while (rest.length > 0) {
    const { bytesWritten } = await handle.writev(rest, at);
    at += bytesWritten;
    let skip = bytesWritten;
    const left: Uint8Array[] = [];
    for (const piece of rest) {
      if (skip >= piece.length) skip -= piece.length;
      else {
        left.push(skip > 0 ? piece.subarray(skip) : piece);
        skip = 0;
      }
    }
    rest = left;
  }
}

export class LocalUploadStaging implements UploadStaging {
  readonly resumesChunks = true;
  readonly root: string;

  constructor(
    dataDir: string,
    private readonly blobStore: BlobStore,
  ) {
    this.root = path.join(path.resolve(dataDir), STAGING_DIR);
  }

  dirOf(transaction: string): string {
    if (!UUID_RE.test(transaction)) throw new Error(`Invalid transaction ${transaction}`);
    return path.join(this.root, transaction);
  }

  localFile(transaction: string, fileIndex: number): string {
    return this.fileOf(transaction, fileIndex);
  }

  fileOf(transaction: string, fileIndex: number): string {
    if (!Number.isSafeInteger(fileIndex) || fileIndex < 0) throw new Error('Invalid file index');
    return path.join(this.dirOf(transaction), `${fileIndex}.part`);
  }

  /**
   * Streams `body` into the staging file at `offset`; at most `limit` bytes (else
   * ChunkTooBigError). When `truncate` is set, the file ends after the chunk. Durable on return.
   * The bytes are hashed as they arrive (ChunkIntake: in the hashing thread) and written in
   * batches of WRITE_BATCH bytes, one batch on its way to the disk while the next one is
   * received.
   */
  async writeChunk(
    transaction: string,
    fileIndex: number,
    offset: number,
    body: AsyncIterable<Uint8Array | string>,
    options: ChunkWriteOptions,
  ): Promise<ChunkWritten> {
    const file = this.fileOf(transaction, fileIndex);
    const handle = await this.openForWrite(transaction, file);
    const intake = options.from ?? new ChunkIntake(options);
    let batch: Uint8Array[] = [];
    let batchBytes = 0;
    // A continued chunk's first bytes are staged already.
    let written = intake.size;
    let writing: Promise<void> | null = null;
    let digests: Promise<ChunkWritten>;
    const drain = async () => {
      const pending = writing;
      writing = null;
      await pending;
    };
    const flush = async () => {
      await drain();
      if (batchBytes === 0) return;
      // The bytes are written from the intake's buffer where it keeps one (one range, and the
      // body's pieces let go at once), else from the pieces.
      const kept = intake.bytesBetween(written, written + batchBytes);
      const pieces = kept ? [kept] : batch;
      const at = offset + written;
      written += batchBytes;
      batch = [];
      batchBytes = 0;
      writing = writeAllAt(handle, pieces, at);
      // Its failure is thrown where it is awaited (next batch, or below).
      writing.catch(() => undefined);
    };
    /**
     * Takes the body's pieces into batches on their way to the disk (body-pieces.ts: 'data'
     * events, the body paused while a full batch waits for the one before it). A failure of
     * the body itself (a lost connection) is answered as `{ cause }`; a failure of ours is
     * thrown.
     */
    const owned = piecesAreOwned(body);
    const receive = () =>
      eachPiece(body, (piece) => {
        const bytes = intake.take(piece);
        batchBytes += bytes.length;
        if (!intake.keepsBytes) batch.push(bytes);
        // Copied into the intake's buffer: its memory is freed now, not by a collection
        // (the piece reads as empty from here on).
        else if (owned) releasePiece(bytes);
        return batchBytes >= WRITE_BATCH ? flush() : undefined;
      });
    try {
      let broken: { cause: unknown } | null;
      try {
        broken = await receive();
        await flush();
        await drain();
      } finally {
        // A write still on its way must end before the file is closed (its error, if the
        // loop failed first, is the loop's).
        await drain().catch(() => undefined);
      }
      // What arrived is staged: a later request may send the rest (ChunkWriteOptions.from).
      if (broken) throw new ChunkInterrupted(intake, broken.cause);
      // The hashing thread finishes the digests while the bytes reach the disk.
      digests = intake.written();
      digests.catch(() => undefined);
      if (options.truncate) await handle.truncate(offset + intake.size);
      // fdatasync: the bytes and what reading them back needs (the file's size, its blocks)
      // are on the disk; only the times are not flushed, which saves a journal commit. One
      // sync covers the chunks of this file whose writes ended meanwhile (file-syncs.ts).
      await syncWrites(file, handle);
    } finally {
      await handle.close();
    }
    return digests;
  }

  /**
   * Opens a staged file for writing, created when new; its folder is made only when the
   * file cannot be opened without it (the first chunk of an upload), not for every chunk.
   */
  private async openForWrite(transaction: string, file: string): Promise<fsp.FileHandle> {
    const flags = fs.constants.O_WRONLY | fs.constants.O_CREAT;
    try {
      return await fsp.open(file, flags);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
    await fsp.mkdir(this.dirOf(transaction), { recursive: true });
    return fsp.open(file, flags);
  }

  /**
   * Reads `length` bytes of a staged file from `offset`, in pieces of at most 4 MiB; each
   * piece is a buffer of its own (a reader may keep it, or hand it to another thread).
   */
  async *readRange(
    transaction: string,
    fileIndex: number,
    offset: number,
    length: number,
  ): AsyncGenerator<Uint8Array> {
    const handle = await fsp.open(this.fileOf(transaction, fileIndex), 'r');
    try {
      let done = 0;
      while (done < length) {
        const want = Math.min(READ_PIECE, length - done);
        const buffer = Buffer.allocUnsafeSlow(want);
        const { bytesRead } = await handle.read(buffer, 0, want, offset + done);
        if (bytesRead === 0) throw new Error('Staged file is shorter than its chunks');
        yield buffer.subarray(0, bytesRead);
        done += bytesRead;
      }
    } finally {
      await handle.close();
    }
  }

  async place(transaction: string, fileIndex: number, info: BlobInfo): Promise<BlobInfo | null> {
    if (info.size === 0) {
      return this.blobStore.put((async function* () {})(), { expectedSize: 0 });
    }
    if (await this.exists(transaction, fileIndex)) {
      return this.blobStore.adopt(this.fileOf(transaction, fileIndex), info);
    }
    return (await this.blobStore.stat(info.key))?.size === info.size ? info : null;
  }

  async exists(transaction: string, fileIndex: number): Promise<boolean> {
    try {
      await fsp.access(this.fileOf(transaction, fileIndex));
      return true;
    } catch {
      return false;
    }
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
