/**
 * Blob store on the local file system.
 *
 * Layout: <root>/ab/cd/<sha256> where ab and cd are the first two byte pairs of the key;
 * <root>/tmp holds uploads in progress (same file system, so the final rename is atomic).
 * A blob appears under its key only complete and fsynced: bytes go to a temp file, which is
 * fsynced, renamed into place, and the directory fsynced. A failed or aborted stream leaves
 * no file behind. Blobs live until deleted (garbage collection is driven by the database).
 */
import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import {
  assertBlobKey,
  BlobNotFoundError,
  BlobSha1MismatchError,
  BlobSizeMismatchError,
  rangeEnd,
  type BlobInfo,
  type BlobStore,
  type ByteRange,
  type PutOptions,
} from './blob-store';
import { BlobKeyHasher } from './blob-key';
import { readFileInto, type ReadProgress } from './read-into';
import type { UploadStaging } from './staging';
import { LocalUploadStaging } from './upload-staging';

async function fsyncDir(dir: string): Promise<void> {
  const handle = await fsp.open(dir, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/** Read in 1 MiB pieces: large files stream at disk speed with few event-loop turns. */
const READ_CHUNK = 1024 * 1024;

export class LocalBlobStore implements BlobStore {
  readonly root: string;
  private readonly tmpDir: string;

  constructor(root: string) {
    this.root = path.resolve(root);
    this.tmpDir = path.join(this.root, 'tmp');
    fs.mkdirSync(this.tmpDir, { recursive: true });
  }

  /** Throws a clear error unless this process may write to the store's folder. */
  async checkAccess(): Promise<void> {
    try {
      await fsp.access(this.tmpDir, fs.constants.W_OK);
    } catch (error) {
      throw new Error(`The blob store folder ${this.root} is not writable`, { cause: error });
    }
  }

  /** Absolute path of a blob (the key is validated, so no path traversal). */
  pathOf(key: string): string {
    assertBlobKey(key);
    return path.join(this.root, key.slice(0, 2), key.slice(2, 4), key);
  }

  async put(
    source: AsyncIterable<Uint8Array> | Readable,
    options: PutOptions = {},
  ): Promise<BlobInfo> {
    const { signal, expectedSize, as } = options;
    if (as) assertBlobKey(as.key);
    signal?.throwIfAborted();
    const tmp = path.join(this.tmpDir, `${Date.now()}-${randomBytes(8).toString('hex')}.part`);
    const handle = await fsp.open(tmp, 'wx', 0o644);
    const keyHasher = new BlobKeyHasher();
    const sha1 = createHash('sha1');
    let size = 0;
    let closed = false;
    try {
      for await (const chunk of source) {
        signal?.throwIfAborted();
        keyHasher.update(chunk);
        sha1.update(chunk);
        size += chunk.byteLength;
        if (expectedSize !== undefined && size > expectedSize) {
          throw new BlobSizeMismatchError(expectedSize, size);
        }
        let offset = 0;
        while (offset < chunk.byteLength) {
          const { bytesWritten } = await handle.write(chunk, offset);
          offset += bytesWritten;
        }
      }
      signal?.throwIfAborted();
      if (expectedSize !== undefined && size !== expectedSize) {
        throw new BlobSizeMismatchError(expectedSize, size);
      }
      await handle.sync();
      await handle.close();
      closed = true;

      const digest = sha1.digest('hex');
      if (as && as.sha1 !== digest) throw new BlobSha1MismatchError(as.sha1, digest);
      const key = as?.key ?? keyHasher.digest();
      await this.moveIntoPlace(tmp, key);
      return { key, size, sha1: digest };
    } catch (error) {
      if (!closed) await handle.close().catch(() => {});
      await fsp.rm(tmp, { force: true });
      throw error;
    }
  }

  /**
   * Takes over `file`, a complete and fsynced file on this store's file system whose key,
   * size and SHA-1 the caller computed while it was written (upload staging): it is renamed
   * into place, or removed when the content is already stored. Nothing is read again.
   */
  async adopt(file: string, info: BlobInfo): Promise<BlobInfo> {
    assertBlobKey(info.key);
    const { size } = await fsp.stat(file);
    if (size !== info.size) throw new BlobSizeMismatchError(info.size, size);
    try {
      await this.moveIntoPlace(file, info.key);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EXDEV') throw error;
      // Another file system: copy (verifying the key) instead of renaming.
      const stored = await this.put(fs.createReadStream(file), { expectedSize: info.size });
      if (stored.key !== info.key) {
        throw new Error(`Blob ${info.key} changed while adopted`, { cause: error });
      }
      await fsp.rm(file, { force: true });
    }
    return info;
  }

  private async moveIntoPlace(file: string, key: string): Promise<void> {
    const target = this.pathOf(key);
    if (await this.exists(target)) {
      // Same content already stored: keep the existing file.
      await fsp.rm(file, { force: true });
      return;
    }
    const dir = path.dirname(target);
    await fsp.mkdir(dir, { recursive: true });
    await fsp.rename(file, target);
    await fsyncDir(dir);
  }

  private async exists(file: string): Promise<boolean> {
    try {
      await fsp.access(file);
      return true;
    } catch {
      return false;
    }
  }

  async has(key: string): Promise<boolean> {
    return this.exists(this.pathOf(key));
  }

  async stat(key: string): Promise<{ size: number } | null> {
    try {
      const stats = await fsp.stat(this.pathOf(key));
      return { size: stats.size };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw error;
    }
  }

  async open(key: string, range?: ByteRange): Promise<Readable> {
    const file = this.pathOf(key);
    let handle: fsp.FileHandle;
    try {
      handle = await fsp.open(file, 'r');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') throw new BlobNotFoundError(key);
      throw error;
    }
    if (!range) return handle.createReadStream({ highWaterMark: READ_CHUNK });
    const { size } = await handle.stat();
    let end: number;
    try {
      end = rangeEnd(range, size);
    } catch (error) {
      await handle.close();
      throw error;
    }
    return handle.createReadStream({ start: range.start, end, highWaterMark: READ_CHUNK });
  }

  async readInto(
    key: string,
    into: Uint8Array,
    size: number,
    progress: ReadProgress,
  ): Promise<void> {
    try {
      await readFileInto(this.pathOf(key), into, size, progress);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') throw new BlobNotFoundError(key);
      throw error;
    }
  }

  async read(key: string): Promise<Buffer> {
    try {
      return await fsp.readFile(this.pathOf(key));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') throw new BlobNotFoundError(key);
      throw error;
    }
  }

  async delete(key: string): Promise<boolean> {
    try {
      await fsp.unlink(this.pathOf(key));
      return true;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false;
      throw error;
    }
  }

  /** Removes temp files older than `maxAgeMs` (left behind by a crash mid-upload). */
  /** Staging in DATA_DIR/uploads (beside DATA_DIR/blobs, so files are renamed in place). */
  openStaging(placeInto: BlobStore = this): UploadStaging {
    return new LocalUploadStaging(path.dirname(this.root), placeInto);
  }

  async sweepTemp(maxAgeMs: number, now = Date.now()): Promise<number> {
    let removed = 0;
    for (const name of await fsp.readdir(this.tmpDir)) {
      const file = path.join(this.tmpDir, name);
      try {
        const stats = await fsp.stat(file);
        if (now - stats.mtimeMs > maxAgeMs) {
          await fsp.rm(file, { force: true });
          removed++;
        }
      } catch {
        // Finished or removed meanwhile.
      }
    }
    return removed;
  }
}
