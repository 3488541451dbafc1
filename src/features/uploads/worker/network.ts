/**
 * Waiting for the network to come back: first a pause, cut short when the browser reports
 * 'online' (FIRST_PAUSE_MS after a first failure, then growing with each consecutive network
 * failure: 2 s, 4 s … 30 s); then GET /ping until it answers, so the upload resumes by itself
 * once the server is reachable. The probes back off (issue 31: a probe twice a second for ten
 * seconds was 25 status requests in 15 s): FIRST_PROBE_INTERVAL_MS after the first, doubling
 * up to MAX_PROBE_INTERVAL_MS; the browser's 'online' event still cuts any pause short. No probe
 * goes while the browser reports no connection at all.
 */
import { backoffBase } from './backoff';

/** The pause after the first network failure of a row. */
export const FIRST_PAUSE_MS = 500;
/** Between the first two probes; each later pause doubles. */
export const FIRST_PROBE_INTERVAL_MS = 500;
/** The longest pause between two probes. */
export const MAX_PROBE_INTERVAL_MS = 10_000;

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
  let interval = FIRST_PROBE_INTERVAL_MS;
  for (;;) {
    signal.throwIfAborted();
    if (watch.isOnline() && (await watch.probe(signal).catch(() => false))) return;
    await pause(interval, watch, signal);
    interval = Math.min(interval * 2, MAX_PROBE_INTERVAL_MS);
  }
}
