/**
 * The hashing worker: keeps SHA-1 of large files off the UI thread. Its API is exposed through
 * Comlink; the UI imports only the `HashWorkerApi` type (see src/lib/hashWorker.ts).
 */
import { expose } from 'comlink';
import { sha1OfBlob, type HashProgress } from './sha1';

const api = {
  /** Hex SHA-1 of `file`; `onProgress` (a Comlink proxy) hears bytes hashed so far. */
  sha1(file: Blob, onProgress?: HashProgress): Promise<string> {
    return sha1OfBlob(file, { onProgress });
  },
};

export type HashWorkerApi = typeof api;

expose(api);
