/**
 * Starts the upload worker (src/workers/upload.worker.ts) and wraps its API with Comlink. The
 * page's callbacks (list, outcomes, CSRF refresh) travel as a Comlink proxy.
 */
import { proxy, wrap } from 'comlink';
import type { EngineCallbacks, UploadBackend } from '../model/engineApi';

export function startUploadWorker(): UploadBackend {
  const worker = new Worker(new URL('../../../workers/upload.worker.ts', import.meta.url), {
    type: 'module',
    name: 'upload',
  });
  const remote = wrap<UploadBackend>(worker);
  return {
    start: (callbacks: EngineCallbacks, token) => remote.start(proxy(callbacks), token),
    setCsrfToken: (token) => void remote.setCsrfToken(token),
    setMaintenance: (on) => void remote.setMaintenance(on),
    enqueue: (plan, files, options) => remote.enqueue(plan, files, options),
    cancel: (id) => remote.cancel(id),
    dismiss: (id) => remote.dismiss(id),
    retry: (id) => remote.retry(id),
    wake: () => void remote.wake(),
  };
}
