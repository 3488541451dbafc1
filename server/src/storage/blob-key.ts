/**
 * Blob keys. A key is the SHA-256 (hex) of the concatenated SHA-256 digests of the content's
 * consecutive LEAF_SIZE pieces (a one-level hash tree; empty content has no leaves, so its
 * key is the SHA-256 of nothing). The leaves are exactly the 10 MiB upload chunks, so a push
 * computes the key from the chunks as they arrive, in any order, and finish never reads
 * the file again. Collision resistance is SHA-256's: equal keys need equal leaf digests.
 */
import { createHash, type Hash } from 'node:crypto';
import { CHUNK_SIZE } from '../schemas/protocol';

/** Bytes per leaf: the upload chunk size (api-reference §1.3, 10 MiB). */
export const LEAF_SIZE = CHUNK_SIZE;

/** The key of content whose leaves have these SHA-256 digests, in order. */
export function blobKeyFromLeaves(leaves: readonly Uint8Array[]): string {
  const hash = createHash('sha256');
  for (const leaf of leaves) hash.update(leaf);
  return hash.digest('hex');
}

/** Computes a blob key from bytes streamed in any piece sizes. */
export class BlobKeyHasher {
  private leaf: Hash = createHash('sha256');
  private inLeaf = 0;
  private readonly leaves: Buffer[] = [];

  update(bytes: Uint8Array): this {
    let offset = 0;
    while (offset < bytes.byteLength) {
      const take = Math.min(LEAF_SIZE - this.inLeaf, bytes.byteLength - offset);
      this.leaf.update(bytes.subarray(offset, offset + take));
      this.inLeaf += take;
      offset += take;
      if (this.inLeaf === LEAF_SIZE) this.closeLeaf();
    }
    return this;
  }

  digest(): string {
    if (this.inLeaf > 0) this.closeLeaf();
    return blobKeyFromLeaves(this.leaves);
  }

  private closeLeaf(): void {
    this.leaves.push(this.leaf.digest());
    this.leaf = createHash('sha256');
    this.inLeaf = 0;
  }
}
