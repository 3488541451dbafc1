/**
 * Bridge to the upload worker (src/workers/upload.worker.ts): starts it and wraps its API with
 * Comlink. The page's callbacks (list, outcomes, CSRF refresh) travel as a Comlink proxy.
 */
import { proxy, wrap } from 'comlink';
import type { EngineCallbacks, UploadBackend } from '../features/uploads/engine/backend';
import type { UploadWorkerApi } from '../workers/upload.worker';

export function startUploadWorker(): UploadBackend {
  const worker = new Worker(new URL('../workers/upload.worker.ts', import.meta.url), {
    type: 'module',
    name: 'upload',
  });
  const remote = wrap<UploadWorkerApi>(worker);
  return {
    start: (callbacks: EngineCallbacks, token) => remote.start(proxy(callbacks), token),
    setCsrfToken: (token) => void remote.setCsrfToken(token),
    enqueue: (plan, blobs) => remote.enqueue(plan, blobs),
    cancel: (id) => remote.cancel(id),
    dismiss: (id) => remote.dismiss(id),
    retry: (id) => remote.retry(id),
    wake: () => void remote.wake(),
  };
}
