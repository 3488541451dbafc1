/**
 * The upload worker: runs the upload queue (src/features/uploads/worker) off the UI thread:
 * chunk requests and IndexedDB bookkeeping. The page talks to it through Comlink
 * (src/features/uploads/page/workerBridge.ts).
 */
import { expose } from 'comlink';
import { db } from '@/db/db';
import { createUploadBackend, type UploadBackend } from '@/features/uploads/worker';
import { sha1OfBlob } from './sha1';

const backend: UploadBackend = createUploadBackend({
  db,
  fetch: (input, init) => fetch(input, init),
  locks: typeof navigator.locks === 'undefined' ? null : navigator.locks,
  channel: typeof BroadcastChannel === 'undefined' ? null : new BroadcastChannel('waymark-uploads'),
  isOnline: () => navigator.onLine,
  onOnline: (listener) => {
    self.addEventListener('online', listener, { once: true });
    return () => self.removeEventListener('online', listener);
  },
  randomId: () => crypto.randomUUID(),
  sha1: (blob, signal) => sha1OfBlob(blob, { signal }),
});

expose(backend);
