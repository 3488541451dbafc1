/**
 * The staged copy of a chosen file (issue 16: the user's file is read once). While the hashing
 * worker reads a file it hands each read's bytes here; they are cut into upload chunks
 * (CHUNK_SIZE, the last one shorter) and each is written to `stagedChunks` as a Blob. The
 * upload later sends those Blobs, so the browser never reads the user's file again.
 */
import { CHUNK_SIZE } from '@contract/protocol';
import type { WaymarkDatabase } from './db';

/** Chunk writes in flight at once before the reader waits (bounds the memory held). */
const WRITES_IN_FLIGHT = 2;

export class ChunkStager {
  private buffer: Uint8Array<ArrayBuffer> | null = null;
  private filled = 0;
  private index = 0;
  private written = 0;
  private readonly writes = new Set<Promise<void>>();
  private failure: unknown = null;

  constructor(
    private readonly db: WaymarkDatabase,
    readonly fileId: string,
    private readonly size: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** Takes the next bytes of the file; resolves when the reader may go on. */
  push(bytes: Uint8Array): Promise<void> | undefined {
    let offset = 0;
    while (offset < bytes.length) {
      this.buffer ??= new Uint8Array(Math.min(CHUNK_SIZE, this.size - this.written));
      const take = Math.min(bytes.length - offset, this.buffer.length - this.filled);
      this.buffer.set(bytes.subarray(offset, offset + take), this.filled);
      this.filled += take;
      offset += take;
      if (this.filled === this.buffer.length) this.flush();
    }
    if (this.failure) return Promise.reject(this.failure);
    if (this.writes.size < WRITES_IN_FLIGHT) return undefined;
    return Promise.race(this.writes).then(() => this.throwIfFailed());
  }

  /** Writes what is left; resolves with the number of chunks once every write is done. */
  async finish(): Promise<number> {
    if (this.buffer && this.filled > 0) this.flush();
    while (this.writes.size > 0) await Promise.all(this.writes);
    this.throwIfFailed();
    if (this.written !== this.size) {
      throw new Error(`The file changed while it was read (${this.written} of ${this.size} bytes)`);
    }
    return this.index;
  }

  /** Stops and removes what was written. */
  async abort(): Promise<void> {
    await Promise.allSettled([...this.writes]);
    await deleteStagedFile(this.db, this.fileId);
  }

  private flush(): void {
    const buffer = this.buffer as Uint8Array<ArrayBuffer>;
    // The Blob holds its own copy: the buffer is free for the next chunk at once.
    const blob = new Blob([buffer.subarray(0, this.filled)]);
    this.written += this.filled;
    const index = this.index;
    this.index += 1;
    this.buffer = null;
    this.filled = 0;
    const write: Promise<void> = this.db.stagedChunks
      .put({ fileId: this.fileId, index, blob, at: this.now() })
      .then(
        () => undefined,
        (error: unknown) => {
          this.failure ??= error;
        },
      )
      .finally(() => this.writes.delete(write));
    this.writes.add(write);
  }

  private throwIfFailed(): void {
    if (this.failure) throw this.failure;
  }
}

/** The staged file as one Blob made of its stored chunks, or undefined when none is stored. */
export async function stagedFileBlob(
  db: WaymarkDatabase,
  fileId: string,
): Promise<Blob | undefined> {
  const rows = await db.stagedChunks.where('fileId').equals(fileId).sortBy('index');
  if (rows.length === 0) return undefined;
  return new Blob(rows.map((row) => row.blob));
}

export async function deleteStagedFile(db: WaymarkDatabase, fileId: string): Promise<void> {
  await db.stagedChunks.where('fileId').equals(fileId).delete();
}

/** Removes staged files older than `maxAgeMs` that no upload names (never queued). */
export async function sweepStagedFiles(
  db: WaymarkDatabase,
  now: number,
  maxAgeMs: number,
): Promise<number> {
  return db.transaction('rw', db.stagedChunks, db.uploadBlobs, async () => {
    const used = new Set(
      (await db.uploadBlobs.toArray()).map((row) => row.fileId).filter((id) => id !== undefined),
    );
    const old = await db.stagedChunks
      .filter((row) => row.at < now - maxAgeMs && !used.has(row.fileId))
      .primaryKeys();
    await db.stagedChunks.bulkDelete(old);
    return old.length;
  });
}
