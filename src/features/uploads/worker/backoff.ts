/**
 * Retry timing of the upload engine: 1 s, 2 s, 4 s … doubling, capped at 30 s, plus up to 20%
 * jitter so many clients do not retry in step.
 */

export const BACKOFF_BASE_MS = 1000;
export const BACKOFF_MAX_MS = 30_000;
/** Jitter added on top of the delay, as a fraction of it. */
export const BACKOFF_JITTER = 0.2;

/** The base delay of retry number `attempt` (0 = first retry), without jitter. */
export function backoffBase(attempt: number): number {
  return Math.min(BACKOFF_BASE_MS * 2 ** Math.max(0, attempt), BACKOFF_MAX_MS);
}

/** The wait before retry number `attempt`; `random` returns a number in [0, 1). */
export function backoffDelay(attempt: number, random: () => number = Math.random): number {
  const base = backoffBase(attempt);
  return Math.round(base + base * BACKOFF_JITTER * random());
}
