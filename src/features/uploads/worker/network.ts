/**
 * Waiting for the network to come back: first a pause that grows with each consecutive
 * network failure (1 s, 2 s, 4 s … 30 s), cut short when the browser reports 'online'; then
 * GET /ping until it answers, so the upload resumes by itself once the server is reachable.
 */
import { backoffBase } from './backoff';

/** Between two probes while the server stays out of reach. */
export const PROBE_INTERVAL_MS = 2000;

export interface NetworkWatch {
  isOnline(): boolean;
  /** Calls `listener` on the next 'online' event; returns an unsubscribe function. */
  onOnline(listener: () => void): () => void;
  /** Whether the server answers (GET /ping). */
  probe(signal: AbortSignal): Promise<boolean>;
}

function pause(ms: number, watch: NetworkWatch, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) {
      reject(signal.reason);
      return;
    }
    const done = () => {
      clearTimeout(timer);
      stop();
      signal.removeEventListener('abort', onAbort);
    };
    const onAbort = () => {
      done();
      reject(signal.reason);
    };
    const timer = setTimeout(() => {
      done();
      resolve();
    }, ms);
    const stop = watch.onOnline(() => {
      done();
      resolve();
    });
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

export async function waitForNetwork(
  watch: NetworkWatch,
  attempt: number,
  signal: AbortSignal,
): Promise<void> {
  await pause(backoffBase(attempt), watch, signal);
  for (;;) {
    signal.throwIfAborted();
    if (watch.isOnline() && (await watch.probe(signal).catch(() => false))) return;
    await pause(PROBE_INTERVAL_MS, watch, signal);
  }
}
