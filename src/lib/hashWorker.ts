/**
 * Bridge to the hashing worker (src/workers/hash.worker.ts). The worker starts on the first
 * request, is shared by concurrent requests and is terminated after a quiet period, so an idle
 * tab holds no worker. Aborting a request rejects it at once; when nothing else is hashing the
 * worker is terminated too, which stops the work instead of letting it finish unseen.
 */
import { proxy, releaseProxy, wrap } from 'comlink';
import type { HashWorkerApi } from '../workers/hash.worker';
import type { HashProgress } from '../workers/sha1';

export type { HashProgress };

/** What the bridge needs from a started worker. */
export interface HashWorkerHandle {
  api: { sha1(file: Blob, onProgress?: HashProgress, stageAs?: string): Promise<string> };
  terminate(): void;
}

export type HashWorkerFactory = () => HashWorkerHandle;

export interface HashOptions {
  onProgress?: HashProgress;
  signal?: AbortSignal;
  /**
   * Also store the bytes read as upload chunks under this id (src/db/stagedChunks.ts), so
   * the upload sends them without reading the file again.
   */
  stageAs?: string;
}

export interface HashClient {
  /** Hex SHA-1 of `file`, computed in the worker. */
  sha1(file: Blob, options?: HashOptions): Promise<string>;
  /** Terminates the worker now (a later call starts a new one). */
  dispose(): void;
  /** Whether a worker is currently running (for tests and diagnostics). */
  isRunning(): boolean;
}

export interface HashClientOptions {
  factory?: HashWorkerFactory;
  /** Idle time after which the worker is terminated. @default 30000 */
  idleMs?: number;
}

function startHashWorker(): HashWorkerHandle {
  const worker = new Worker(new URL('../workers/hash.worker.ts', import.meta.url), {
    type: 'module',
    name: 'hash',
  });
  const remote = wrap<HashWorkerApi>(worker);
  return {
    api: {
      sha1: (file, onProgress, stageAs) =>
        remote.sha1(file, onProgress ? proxy(onProgress) : undefined, stageAs),
    },
    terminate() {
      remote[releaseProxy]();
      worker.terminate();
    },
  };
}

function abortError(signal: AbortSignal): unknown {
  return signal.reason ?? new DOMException('The operation was aborted.', 'AbortError');
}

export function createHashClient(options: HashClientOptions = {}): HashClient {
  const factory = options.factory ?? startHashWorker;
  const idleMs = options.idleMs ?? 30_000;
  let handle: HashWorkerHandle | null = null;
  let active = 0;
  let idleTimer: ReturnType<typeof setTimeout> | undefined;

  function stop(): void {
    clearTimeout(idleTimer);
    idleTimer = undefined;
    handle?.terminate();
    handle = null;
  }

  function release(): void {
    active -= 1;
    if (active > 0) return;
    clearTimeout(idleTimer);
    idleTimer = setTimeout(stop, idleMs);
  }

  return {
    sha1(file, { onProgress, signal, stageAs } = {}) {
      if (signal?.aborted) return Promise.reject(abortError(signal));
      clearTimeout(idleTimer);
      handle ??= factory();
      const current = handle;
      active += 1;
      return new Promise<string>((resolve, reject) => {
        let settled = false;
        const finish = () => {
          settled = true;
          signal?.removeEventListener('abort', onAbort);
          release();
        };
        const onAbort = () => {
          if (settled) return;
          finish();
          // Nothing else uses this worker: stop the hashing that nobody waits for any more.
          if (active === 0 && handle === current) stop();
          reject(abortError(signal as AbortSignal));
        };
        signal?.addEventListener('abort', onAbort, { once: true });
        current.api.sha1(file, onProgress, stageAs).then(
          (digest) => {
            if (settled) return;
            finish();
            resolve(digest);
          },
          (error: unknown) => {
            if (settled) return;
            finish();
            reject(error instanceof Error ? error : new Error(String(error)));
          },
        );
      });
    },
    dispose: stop,
    isRunning: () => handle !== null,
  };
}

/** The app's shared hashing client. */
export const hashClient = createHashClient();
