/**
 * The hashing worker: keeps SHA-1 of large files off the UI thread. Its API is exposed through
 * Comlink; the UI imports only the `HashWorkerApi` type (see src/lib/hashWorker.ts).
 */
import { expose } from 'comlink';
import { stageWhileHashing } from '@/db/stageWhileHashing';
import { sha1OfBlob, type HashProgress } from './sha1';

const api = {
  /**
   * Hex SHA-1 of `file`; `onProgress` (a Comlink proxy) hears bytes hashed so far. With
   * `stageAs` the bytes read are also stored as upload chunks under that id (issue 16).
   */
  sha1(file: Blob, onProgress?: HashProgress, stageAs?: string): Promise<string> {
    if (stageAs)
      return stageWhileHashing(file, stageAs, (onBytes) =>
        sha1OfBlob(file, { onProgress, onBytes }),
      );
    return sha1OfBlob(file, { onProgress });
  },
};

export type HashWorkerApi = typeof api;

expose(api);
