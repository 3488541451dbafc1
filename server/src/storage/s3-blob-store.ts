/**
 * Blob store in an S3-compatible bucket (AWS S3, MinIO, Ceph, Garage, ...), for deployments
 * with several instances or without a shared disk.
 *
 * Layout (under the configured prefix): `blobs/ab/cd/<key>` for blobs, `tmp/<random>` for
 * streams whose key is known only at their end, `staging/<transaction>/...` for uploads in
 * progress (s3-upload-staging.ts). A blob appears under its key only complete: put() writes
 * to a temp object, then copies it server-side to its key (S3 writes are atomic per object).
 * Reads support byte ranges (GetObject Range), so downloads resume as on the local store.
 */
import { buffer } from 'node:stream/consumers';
import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import type { Readable } from 'node:stream';
import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CopyObjectCommand,
  CreateMultipartUploadCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  HeadBucketCommand,
  HeadObjectCommand,
  ListMultipartUploadsCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
  UploadPartCommand,
  UploadPartCopyCommand,
  type CompletedPart,
} from '@aws-sdk/client-s3';
import type { S3Config } from '../config';
import { BlobKeyHasher, LEAF_SIZE } from './blob-key';
import { streamInto, type ReadProgress } from './read-into';
import { asBuffer, isNotFound } from './s3-objects';
import { S3UploadStaging } from './s3-upload-staging';
import type { UploadStaging } from './staging';
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

/** Bytes per part of put()'s multipart uploads (S3: at least 5 MiB except the last). */
const PART_SIZE = LEAF_SIZE;
/** The largest object one CopyObject may copy (S3's limit); larger ones copy in parts. */
const COPY_OBJECT_LIMIT = 5 * 1024 ** 3;
/** Part size of large server-side copies. */
const COPY_PART_SIZE = 512 * 1024 * 1024;

export function s3ClientFor(config: S3Config): S3Client {
  return new S3Client({
    region: config.region,
    endpoint: config.endpoint ?? undefined,
    forcePathStyle: config.forcePathStyle,
    credentials:
      config.accessKeyId && config.secretAccessKey
        ? { accessKeyId: config.accessKeyId, secretAccessKey: config.secretAccessKey }
        : undefined,
    // Plain Content-Length bodies: S3-compatible services do not all accept the SDK's
    // trailing checksums (aws-chunked); integrity is checked by our own SHA-256 keys.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
}

/** Reads a stream into buffers of exactly `size` bytes (the last may be shorter). */
async function* pieces(
  source: AsyncIterable<Uint8Array | string>,
  size: number,
): AsyncGenerator<Buffer> {
  let parts: Buffer[] = [];
  let held = 0;
  for await (const piece of source) {
    let bytes = asBuffer(piece);
    while (bytes.length > 0) {
      const take = Math.min(size - held, bytes.length);
      parts.push(bytes.subarray(0, take));
      held += take;
      bytes = bytes.subarray(take);
      if (held === size) {
        yield Buffer.concat(parts, held);
        parts = [];
        held = 0;
      }
    }
  }
  if (held > 0 || parts.length > 0) yield Buffer.concat(parts, held);
}

export { asBuffer, isNotFound };

export class S3BlobStore implements BlobStore {
  constructor(
    readonly client: S3Client,
    readonly bucket: string,
    readonly prefix = '',
  ) {}

  /** Throws a clear error unless the bucket exists and the credentials may use it. */
  async checkAccess(): Promise<void> {
    try {
      await this.client.send(new HeadBucketCommand({ Bucket: this.bucket }));
    } catch (error) {
      const e = error as {
        name?: string;
        message?: string;
        $metadata?: { httpStatusCode?: number };
      };
      const status = e.$metadata?.httpStatusCode;
      const reason =
        status === 404
          ? 'it does not exist'
          : status === 403
            ? 'access is denied'
            : `${e.name ?? 'error'}: ${e.message ?? ''}`;
      throw new Error(`The S3 bucket "${this.bucket}" (S3_BUCKET) cannot be used: ${reason}`, {
        cause: error,
      });
    }
  }

  /** The object key of a blob. */
  objectKey(key: string): string {
    assertBlobKey(key);
    return `${this.prefix}blobs/${key.slice(0, 2)}/${key.slice(2, 4)}/${key}`;
  }

  /** Object size, or null when it does not exist. */
  async head(objectKey: string): Promise<number | null> {
    try {
      const out = await this.client.send(
        new HeadObjectCommand({ Bucket: this.bucket, Key: objectKey }),
      );
      return out.ContentLength ?? 0;
    } catch (error) {
      if (isNotFound(error)) return null;
      throw error;
    }
  }

  async put(
    source: AsyncIterable<Uint8Array> | Readable,
    options: PutOptions = {},
  ): Promise<BlobInfo> {
    const { signal, expectedSize, as } = options;
    if (as) assertBlobKey(as.key);
    signal?.throwIfAborted();
    const tmp = `${this.prefix}tmp/${Date.now()}-${randomBytes(8).toString('hex')}`;
    const keyHasher = new BlobKeyHasher();
    const sha1 = createHash('sha1');
    let size = 0;
    let uploadId: string | null = null;
    const parts: CompletedPart[] = [];
    let first: Buffer | null = null;
    try {
      for await (const part of pieces(source, PART_SIZE)) {
        signal?.throwIfAborted();
        keyHasher.update(part);
        sha1.update(part);
        size += part.length;
        if (expectedSize !== undefined && size > expectedSize) {
          throw new BlobSizeMismatchError(expectedSize, size);
        }
        if (first === null && uploadId === null) {
          // Held back: a one-part blob is written with one PutObject.
          first = part;
          continue;
        }
        if (uploadId === null) {
          const created = await this.client.send(
            new CreateMultipartUploadCommand({ Bucket: this.bucket, Key: tmp }),
          );
          uploadId = created.UploadId ?? null;
          if (!uploadId) throw new Error('The S3 store returned no upload id');
          parts.push(await this.uploadPart(tmp, uploadId, 1, first!));
          first = null;
        }
        parts.push(await this.uploadPart(tmp, uploadId, parts.length + 1, part));
      }
      signal?.throwIfAborted();
      if (expectedSize !== undefined && size !== expectedSize) {
        throw new BlobSizeMismatchError(expectedSize, size);
      }
      if (uploadId === null) {
        await this.client.send(
          new PutObjectCommand({
            Bucket: this.bucket,
            Key: tmp,
            Body: first ?? Buffer.alloc(0),
            ContentLength: size,
          }),
        );
      } else {
        await this.client.send(
          new CompleteMultipartUploadCommand({
            Bucket: this.bucket,
            Key: tmp,
            UploadId: uploadId,
            MultipartUpload: { Parts: parts },
          }),
        );
        uploadId = null;
      }
      const digest = sha1.digest('hex');
      if (as && as.sha1 !== digest) throw new BlobSha1MismatchError(as.sha1, digest);
      const key = as?.key ?? keyHasher.digest();
      if ((await this.head(this.objectKey(key))) === null) {
        await this.copy(tmp, this.objectKey(key), size);
      }
      return { key, size, sha1: digest };
    } finally {
      if (uploadId !== null) await this.abort(tmp, uploadId);
      await this.deleteObject(tmp).catch(() => {});
    }
  }

  private async uploadPart(
    key: string,
    uploadId: string,
    partNumber: number,
    body: Buffer,
  ): Promise<CompletedPart> {
    const out = await this.client.send(
      new UploadPartCommand({
        Bucket: this.bucket,
        Key: key,
        UploadId: uploadId,
        PartNumber: partNumber,
        Body: body,
        ContentLength: body.length,
      }),
    );
    return { PartNumber: partNumber, ETag: out.ETag };
  }

  /** Aborts a multipart upload; errors are ignored (the cleanup job retries orphans). */
  async abort(key: string, uploadId: string): Promise<void> {
    await this.client
      .send(new AbortMultipartUploadCommand({ Bucket: this.bucket, Key: key, UploadId: uploadId }))
      .catch(() => {});
  }

  /**
   * Copies an object of `size` bytes server-side: one CopyObject up to 5 GiB, else a
   * multipart upload of UploadPartCopy ranges.
   */
  async copy(from: string, to: string, size: number): Promise<void> {
    const source = `${this.bucket}/${encodeURI(from)}`;
    if (size <= COPY_OBJECT_LIMIT) {
      await this.client.send(
        new CopyObjectCommand({ Bucket: this.bucket, Key: to, CopySource: source }),
      );
      return;
    }
    const created = await this.client.send(
      new CreateMultipartUploadCommand({ Bucket: this.bucket, Key: to }),
    );
    const uploadId = created.UploadId!;
    try {
      const parts: CompletedPart[] = [];
      for (let start = 0; start < size; start += COPY_PART_SIZE) {
        const end = Math.min(size, start + COPY_PART_SIZE) - 1;
        const out = await this.client.send(
          new UploadPartCopyCommand({
            Bucket: this.bucket,
            Key: to,
            UploadId: uploadId,
            PartNumber: parts.length + 1,
            CopySource: source,
            CopySourceRange: `bytes=${start}-${end}`,
          }),
        );
        parts.push({ PartNumber: parts.length + 1, ETag: out.CopyPartResult?.ETag });
      }
      await this.client.send(
        new CompleteMultipartUploadCommand({
          Bucket: this.bucket,
          Key: to,
          UploadId: uploadId,
          MultipartUpload: { Parts: parts },
        }),
      );
    } catch (error) {
      await this.abort(to, uploadId);
      throw error;
    }
  }

  async deleteObject(objectKey: string): Promise<void> {
    await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: objectKey }));
  }

  /** Keys of the objects under `prefix` (full object keys). */
  async *listKeys(prefix: string): AsyncGenerator<{ key: string; modified: Date | null }> {
    let token: string | undefined;
    do {
      const out = await this.client.send(
        new ListObjectsV2Command({ Bucket: this.bucket, Prefix: prefix, ContinuationToken: token }),
      );
      for (const item of out.Contents ?? []) {
        if (item.Key) yield { key: item.Key, modified: item.LastModified ?? null };
      }
      token = out.IsTruncated ? out.NextContinuationToken : undefined;
    } while (token);
  }

  /**
   * Takes over a complete local file (the BlobStore contract); an S3 store pairs with S3
   * upload staging, so this only serves callers holding a local file.
   */
  async adopt(file: string, info: BlobInfo): Promise<BlobInfo> {
    assertBlobKey(info.key);
    const stored = await this.put(fs.createReadStream(file), { expectedSize: info.size });
    if (stored.key !== info.key) throw new Error(`Blob ${info.key} changed while adopted`);
    await fsp.rm(file, { force: true });
    return info;
  }

  async has(key: string): Promise<boolean> {
    return (await this.head(this.objectKey(key))) !== null;
  }

  async stat(key: string): Promise<{ size: number } | null> {
    const size = await this.head(this.objectKey(key));
    return size === null ? null : { size };
  }

  async open(key: string, range?: ByteRange): Promise<Readable> {
    const objectKey = this.objectKey(key);
    let header: string | undefined;
    if (range) {
      const size = await this.head(objectKey);
      if (size === null) throw new BlobNotFoundError(key);
      header = `bytes=${range.start}-${rangeEnd(range, size)}`;
    }
    try {
      const out = await this.client.send(
        new GetObjectCommand({ Bucket: this.bucket, Key: objectKey, Range: header }),
      );
      return out.Body as Readable;
    } catch (error) {
      if (isNotFound(error)) throw new BlobNotFoundError(key);
      throw error;
    }
  }

  async read(key: string): Promise<Buffer> {
    return buffer(await this.open(key));
  }

  async readInto(
    key: string,
    into: Uint8Array,
    size: number,
    progress: ReadProgress,
  ): Promise<void> {
    const source = await this.open(key);
    try {
      await streamInto(source, into, size, progress);
    } finally {
      source.destroy();
    }
  }

  async delete(key: string): Promise<boolean> {
    const objectKey = this.objectKey(key);
    if ((await this.head(objectKey)) === null) return false;
    await this.deleteObject(objectKey);
    return true;
  }

  /**
   * Removes temp objects and aborts multipart uploads older than `maxAgeMs` (left behind by
   * a process killed mid-put or mid-finish). Services without ListMultipartUploads (some
   * emulators) skip the second part; a bucket lifecycle rule can do it there.
   */
  /** Staging in this bucket, under `<prefix>staging/` (s3-upload-staging.ts). */
  openStaging(): UploadStaging {
    return new S3UploadStaging(this);
  }

  async sweepTemp(maxAgeMs: number, now = Date.now()): Promise<number> {
    let removed = 0;
    for await (const item of this.listKeys(`${this.prefix}tmp/`)) {
      if (item.modified && now - item.modified.getTime() > maxAgeMs) {
        await this.deleteObject(item.key).catch(() => {});
        removed++;
      }
    }
    let keyMarker: string | undefined;
    let uploadIdMarker: string | undefined;
    try {
      do {
        const out = await this.client.send(
          new ListMultipartUploadsCommand({
            Bucket: this.bucket,
            Prefix: this.prefix,
            KeyMarker: keyMarker,
            UploadIdMarker: uploadIdMarker,
          }),
        );
        for (const upload of out.Uploads ?? []) {
          const started = upload.Initiated?.getTime() ?? now;
          if (upload.Key && upload.UploadId && now - started > maxAgeMs) {
            await this.abort(upload.Key, upload.UploadId);
            removed++;
          }
        }
        keyMarker = out.IsTruncated ? out.NextKeyMarker : undefined;
        uploadIdMarker = out.IsTruncated ? out.NextUploadIdMarker : undefined;
      } while (keyMarker);
    } catch (error) {
      const name = (error as { name?: string }).name;
      if (name !== 'NotImplemented' && name !== 'MethodNotAllowed') throw error;
    }
    return removed;
  }
}
