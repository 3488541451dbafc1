/** Small helpers shared by the S3 blob store and the S3 push staging. */

/** True for S3's "no such key / upload" answers. */
export function isNotFound(error: unknown): boolean {
  const e = error as { name?: string; $metadata?: { httpStatusCode?: number } };
  return (
    e?.name === 'NoSuchKey' ||
    e?.name === 'NotFound' ||
    e?.name === 'NoSuchUpload' ||
    e?.$metadata?.httpStatusCode === 404
  );
}

/** A Buffer view of the bytes (no copy), or the UTF-8 bytes of a string. */
export function asBuffer(piece: Uint8Array | string): Buffer {
  if (typeof piece === 'string') return Buffer.from(piece);
  return Buffer.isBuffer(piece)
    ? piece
    : Buffer.from(piece.buffer, piece.byteOffset, piece.byteLength);
}
