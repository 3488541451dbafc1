/** How a file is cut into upload chunks (the server's fixed chunk size, api-reference A.8). */

import { CHUNK_SIZE } from '@contract/protocol';

export { CHUNK_SIZE };

/** Number of chunks of a file of `size` bytes (an empty file has none). */
export function chunkCount(size: number): number {
  return Math.ceil(size / CHUNK_SIZE);
}

/** Byte range [start, end) of chunk `index` of a file of `size` bytes. */
export function chunkRange(size: number, index: number): { start: number; end: number } {
  const start = index * CHUNK_SIZE;
  return { start, end: Math.min(start + CHUNK_SIZE, size) };
}

/** Fresh random chunk ids for a file of `size` bytes. */
export function newChunkIds(size: number, randomId: () => string): string[] {
  return Array.from({ length: chunkCount(size) }, () => randomId());
}
