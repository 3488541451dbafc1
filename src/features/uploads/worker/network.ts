/**
 * Waiting for the network to come back: first a pause, cut short when the browser reports
 * 'online' (FIRST_PAUSE_MS after a first failure, then growing with each consecutive network
 * failure: 2 s, 4 s … 30 s); then GET /ping until it answers, so the upload resumes by itself
 * once the server is reachable. The probes come every FAST_PROBE_MS for the first
 * FAST_PROBE_WINDOW_MS (most outages are short, and every second waited after the link is back
 * is lost), then every PROBE_INTERVAL_MS.
 */
import { backoffBase } from './backoff';

/** The pause after the first network failure of a row. */
export const FIRST_PAUSE_MS = 500;
/** Between two probes early on. */
export const FAST_PROBE_MS = 500;
/** How long the probes come every FAST_PROBE_MS. */
export const FAST_PROBE_WINDOW_MS = 10_000;
/** Between two probes while the server stays out of reach longer. */
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
  const first = attempt === 0 ? FIRST_PAUSE_MS : backoffBase(attempt);
  await pause(first, watch, signal);
  let waited = first;
  for (;;) {
    signal.throwIfAborted();
    if (watch.isOnline() && (await watch.probe(signal).catch(() => false))) return;
    const interval = waited < FAST_PROBE_WINDOW_MS ? FAST_PROBE_MS : PROBE_INTERVAL_MS;
    await pause(interval, watch, signal);
    waited += interval;
  }
}
