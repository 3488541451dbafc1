/**
 * Runs a hashing pass whose bytes are staged as upload chunks at the same time (used by the
 * hashing worker): `hash` gets the callback to hand each read's bytes to. On failure (or an
 * aborted pass) the chunks written so far are removed.
 */
import { db } from './db';
import { ChunkStager } from './stagedChunks';

export async function stageWhileHashing<T>(
  file: Blob,
  fileId: string,
  hash: (onBytes: (bytes: Uint8Array) => Promise<void> | undefined) => Promise<T>,
): Promise<T> {
  const stager = new ChunkStager(db, fileId, file.size);
  try {
    const result = await hash((bytes) => stager.push(bytes));
    await stager.finish();
    return result;
  } catch (error) {
    await stager.abort().catch(() => undefined);
    throw error;
  }
}
