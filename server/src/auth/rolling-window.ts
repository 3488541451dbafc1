/** The rolling-window limit the request limits share (sign-in-limits.ts, rate-limits.ts). */

/**
 * With `times` (oldest first, the current request's own row included) in the last
 * `windowMs`, how long until a request within `max` per window is allowed again, in ms;
 * null when it is allowed now.
 */
export function windowWaitMs(
  times: readonly Date[],
  max: number,
  windowMs: number,
  now: Date,
): number | null {
  if (times.length <= max) return null;
  // Allowed again when enough of the window's rows have aged out.
  const freeing = times[times.length - max - 1]!;
  return freeing.getTime() + windowMs - now.getTime();
}

/** Retry-After in whole seconds (at least 1). */
export function retryAfterSeconds(waitMs: number): string {
  return String(Math.max(1, Math.ceil(waitMs / 1000)));
}
