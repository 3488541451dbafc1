/**
 * The push staging (staging.ts) in the S3 store's bucket, so any instance can take any chunk
 * of a push.
 *
 * Each acknowledged chunk is one object, `staging/<transaction>/<file>/<chunk>` (PutObject:
 * atomic, and a repeated chunk simply replaces it). Chunks stay readable, so the running
 * SHA-1 (services/push-digest.ts) advances exactly as on the local store, on whichever
 * instance gets the next chunk; parts of an unfinished S3 multipart upload could not be read.
 *
 * Finish assembles a file straight under its content key (known from the chunks' SHA-256
 * leaves before any byte is copied): a one-chunk file with one server-side CopyObject; a
 * larger one as a multipart upload whose parts are the chunk objects, copied server-side
 * (UploadPartCopy). Every chunk but the last is exactly 10 MiB, above S3's 5 MiB part
 * minimum. The object appears only when the multipart upload completes, so a finish that
 * dies midway leaves no partial blob; its multipart upload is aborted, or swept by the
 * cleanup job (S3BlobStore.sweepTemp) when the process was killed.
 */
import type { Readable } from 'node:stream';
import {
  CompleteMultipartUploadCommand,
  CreateMultipartUploadCommand,
  GetObjectCommand,
  PutObjectCommand,
  UploadPartCommand,
  UploadPartCopyCommand,
  type CompletedPart,
} from '@aws-sdk/client-s3';
import type { BlobInfo } from './blob-store';
import type { S3BlobStore } from './s3-blob-store';
import { isNotFound } from './s3-objects';
import {
  ChunkIntake,
  CHUNK_SIZE,
  UUID_RE,
  type ChunkWriteOptions,
  type ChunkWritten,
  type UploadStaging,
} from './staging';

/** Chunk objects deleted at once when a transaction's staging is removed. */
const REMOVE_CONCURRENCY = 16;

/** The staged bytes to place are gone. */
class StagedChunkMissing extends Error {}

export class S3UploadStaging implements UploadStaging {
  /** A chunk is one object, put whole: a broken-off chunk is sent again whole. */
  readonly resumesChunks = false;
  /** False once the service answered that it has no UploadPartCopy. */
  private partCopy = true;

  constructor(private readonly store: S3BlobStore) {}

  private get root(): string {
    return `${this.store.prefix}staging/`;
  }

  private folderOf(transaction: string): string {
    if (!UUID_RE.test(transaction)) throw new Error(`Invalid transaction ${transaction}`);
    return `${this.root}${transaction}/`;
  }

  chunkKey(transaction: string, fileIndex: number, chunkIndex: number): string {
    if (!Number.isSafeInteger(fileIndex) || fileIndex < 0) throw new Error('Invalid file index');
    if (!Number.isSafeInteger(chunkIndex) || chunkIndex < 0) throw new Error('Invalid chunk');
    return `${this.folderOf(transaction)}${fileIndex}/${chunkIndex}`;
  }

  async writeChunk(
    transaction: string,
    fileIndex: number,
    offset: number,
    body: AsyncIterable<Uint8Array | string>,
    options: ChunkWriteOptions,
  ): Promise<ChunkWritten> {
    if (offset % CHUNK_SIZE !== 0) throw new Error('Chunks start at multiples of CHUNK_SIZE');
    if (options.from) throw new Error('The S3 staging does not continue chunks');
    const key = this.chunkKey(transaction, fileIndex, offset / CHUNK_SIZE);
    // A chunk is at most 10 MiB: held in memory, then written with its exact length.
    const pieces: Uint8Array[] = [];
    const intake = new ChunkIntake(options);
    for await (const piece of body) pieces.push(intake.take(piece));
    const written = await intake.written();
    await this.store.client.send(
      new PutObjectCommand({
        Bucket: this.store.bucket,
        Key: key,
        Body: written.bytes ?? Buffer.concat(pieces, written.size),
        ContentLength: written.size,
      }),
    );
    return written;
  }

  async *readRange(
    transaction: string,
    fileIndex: number,
    offset: number,
    length: number,
  ): AsyncGenerator<Uint8Array> {
    let done = 0;
    while (done < length) {
      const at = offset + done;
      const chunkIndex = Math.floor(at / CHUNK_SIZE);
      const start = at - chunkIndex * CHUNK_SIZE;
      const end = Math.min(CHUNK_SIZE, start + (length - done)) - 1;
      let body: Readable;
      try {
        const out = await this.store.client.send(
          new GetObjectCommand({
            Bucket: this.store.bucket,
            Key: this.chunkKey(transaction, fileIndex, chunkIndex),
            Range: `bytes=${start}-${end}`,
          }),
        );
        body = out.Body as Readable;
      } catch (error) {
        if (isNotFound(error))
          throw new Error('Staged file is shorter than its chunks', { cause: error });
        throw error;
      }
      let got = 0;
      for await (const piece of body) {
        const bytes = piece as Uint8Array;
        got += bytes.byteLength;
        yield bytes;
      }
      if (got !== end - start + 1) throw new Error('Staged file is shorter than its chunks');
      done += got;
    }
  }

  async place(transaction: string, fileIndex: number, info: BlobInfo): Promise<BlobInfo | null> {
    if (info.size === 0) {
      return this.store.put((async function* () {})(), { expectedSize: 0 });
    }
    const target = this.store.objectKey(info.key);
    // Stored already: by another push, or by an earlier finish of this one that failed later.
    if ((await this.store.head(target)) === info.size) return info;
    const count = Math.ceil(info.size / CHUNK_SIZE);
    try {
      if (count === 1) {
        const source = this.chunkKey(transaction, fileIndex, 0);
        if ((await this.store.head(source)) !== info.size) return null;
        await this.store.copy(source, target, info.size);
      } else {
        await this.assemble(transaction, fileIndex, count, target);
      }
    } catch (error) {
      if (error instanceof StagedChunkMissing || isNotFound(error)) return null;
      throw error;
    }
    const stored = await this.store.head(target);
    if (stored !== info.size) {
      throw new Error(`Blob ${info.key} has ${stored} bytes in the S3 store, ${info.size} staged`);
    }
    return info;
  }

  /** One multipart upload to `target` whose parts are the file's chunk objects. */
  private async assemble(
    transaction: string,
    fileIndex: number,
    count: number,
    target: string,
  ): Promise<void> {
    const { client, bucket } = this.store;
    const created = await client.send(
      new CreateMultipartUploadCommand({ Bucket: bucket, Key: target }),
    );
    const uploadId = created.UploadId;
    if (!uploadId) throw new Error('The S3 store returned no upload id');
    try {
      const parts: CompletedPart[] = [];
      for (let index = 0; index < count; index++) {
        const source = this.chunkKey(transaction, fileIndex, index);
        const PartNumber = index + 1;
        let etag: string | undefined;
        if (this.partCopy) {
          try {
            const copied = await client.send(
              new UploadPartCopyCommand({
                Bucket: bucket,
                Key: target,
                UploadId: uploadId,
                PartNumber,
                CopySource: `${bucket}/${encodeURI(source)}`,
              }),
            );
            etag = copied.CopyPartResult?.ETag;
          } catch (error) {
            if ((error as { name?: string }).name !== 'NotImplemented') throw error;
            this.partCopy = false;
          }
        }
        // A service without UploadPartCopy (some emulators): the part's bytes pass through.
        etag ??= await this.uploadPartFrom(source, target, uploadId, PartNumber);
        parts.push({ PartNumber, ETag: etag });
      }
      await client.send(
        new CompleteMultipartUploadCommand({
          Bucket: bucket,
          Key: target,
          UploadId: uploadId,
          MultipartUpload: { Parts: parts },
        }),
      );
    } catch (error) {
      await this.store.abort(target, uploadId);
      throw error;
    }
  }

  private async uploadPartFrom(
    source: string,
    target: string,
    uploadId: string,
    partNumber: number,
  ): Promise<string | undefined> {
    const { client, bucket } = this.store;
    let bytes: Buffer;
    try {
      const out = await client.send(new GetObjectCommand({ Bucket: bucket, Key: source }));
      const pieces: Buffer[] = [];
      for await (const piece of out.Body as Readable) pieces.push(piece as Buffer);
      bytes = Buffer.concat(pieces);
    } catch (error) {
      if (isNotFound(error)) throw new StagedChunkMissing(source);
      throw error;
    }
    const out = await client.send(
      new UploadPartCommand({
        Bucket: bucket,
        Key: target,
        UploadId: uploadId,
        PartNumber: partNumber,
        Body: bytes,
        ContentLength: bytes.length,
      }),
    );
    return out.ETag;
  }

  async remove(transaction: string): Promise<void> {
    let batch: Promise<void>[] = [];
    let failure: unknown = null;
    const remember = (error: unknown) => {
      failure ??= error;
    };
    for await (const item of this.store.listKeys(this.folderOf(transaction))) {
      batch.push(this.store.deleteObject(item.key).catch(remember));
      if (batch.length === REMOVE_CONCURRENCY) {
        await Promise.all(batch);
        batch = [];
      }
    }
    await Promise.all(batch);
    if (failure) throw failure;
  }

  async list(): Promise<string[]> {
    const ids = new Set<string>();
    for await (const item of this.store.listKeys(this.root)) {
      const id = item.key.slice(this.root.length).split('/')[0]!;
      if (UUID_RE.test(id)) ids.add(id);
    }
    return [...ids];
  }
}
