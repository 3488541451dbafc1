/**
 * Opt-in retry policy (spec 000 §7 and §9: retry count 5, retry delay 60 seconds; the default
 * client does no retries). Network errors and the statuses below are retried with exponential
 * backoff; a server's Retry-After wins over the backoff. Every wait is capped at 60 s.
 */

export const DEFAULT_RETRIES = 5;
export const MAX_RETRY_DELAY_MS = 60_000;
export const BASE_RETRY_DELAY_MS = 1_000;
export const RETRYABLE_STATUSES: readonly number[] = [408, 429, 500, 502, 503, 504];

export interface RetryPolicy {
  /** How many times a failed request is repeated. @default 5 */
  retries?: number;
  /** First backoff delay; doubles on every attempt. @default 1000 */
  baseDelayMs?: number;
  /** Upper bound of any single wait, Retry-After included. @default 60000 */
  maxDelayMs?: number;
  /** HTTP statuses worth repeating. @default 408, 429, 500, 502, 503, 504 */
  statuses?: readonly number[];
}

export type ResolvedRetryPolicy = Required<RetryPolicy>;

export const NO_RETRY: ResolvedRetryPolicy = {
  retries: 0,
  baseDelayMs: BASE_RETRY_DELAY_MS,
  maxDelayMs: MAX_RETRY_DELAY_MS,
  statuses: RETRYABLE_STATUSES,
};

export function resolveRetryPolicy(retry: boolean | RetryPolicy | undefined): ResolvedRetryPolicy {
  if (!retry) return NO_RETRY;
  const policy = retry === true ? {} : retry;
  return {
    retries: Math.max(0, policy.retries ?? DEFAULT_RETRIES),
    baseDelayMs: Math.max(0, policy.baseDelayMs ?? BASE_RETRY_DELAY_MS),
    maxDelayMs: Math.max(0, Math.min(policy.maxDelayMs ?? MAX_RETRY_DELAY_MS, MAX_RETRY_DELAY_MS)),
    statuses: policy.statuses ?? RETRYABLE_STATUSES,
  };
}

/**
 * Milliseconds a `Retry-After` header asks for (delta seconds or an HTTP date), or undefined
 * when the header is absent or unreadable.
 */
export function parseRetryAfter(value: string | null, now: number): number | undefined {
  if (value === null) return undefined;
  const trimmed = value.trim();
  if (trimmed === '') return undefined;
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Math.round(Number(trimmed) * 1000);
  const date = Date.parse(trimmed);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, date - now);
}

/** Wait before retry number `attempt` (0 = first retry). */
export function retryDelay(
  policy: ResolvedRetryPolicy,
  attempt: number,
  retryAfterMs: number | undefined,
): number {
  const wanted = retryAfterMs ?? policy.baseDelayMs * 2 ** attempt;
  return Math.min(wanted, policy.maxDelayMs);
}

function abortReason(signal: AbortSignal): unknown {
  return signal.reason ?? new DOMException('The operation was aborted.', 'AbortError');
}

/** Waits `ms`; rejects with the signal's reason as soon as it is aborted. */
export function abortableSleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(abortReason(signal));
      return;
    }
    const onAbort = () => {
      clearTimeout(timer);
      reject(abortReason(signal as AbortSignal));
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
