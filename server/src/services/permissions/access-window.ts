/**
 * Access decisions kept for a short window (ACCESS_WINDOW_MS, on the app's clock), for the
 * many requests of one view: a map view asks for dozens of tiles of one file version within
 * a second, each of which would otherwise resolve the session, the project, the caller's
 * role and the file again. The key names who asks (a hash of the session cookie or token,
 * never the credential itself), the project, the file and the version; the value is what
 * the first request resolved. Requests asked at the same time share one resolution.
 *
 * A revoked access (member removed, project made private, token revoked, session ended)
 * stops being served when the window of the decision made before it ends: within
 * ACCESS_WINDOW_MS. Refusals are not kept (the next request decides again).
 */
import type { AppContext } from '../../context';

/** How long a decision is reused. */
export const ACCESS_WINDOW_MS = 5_000;
/** Most decisions kept (the oldest go first). */
export const ACCESS_WINDOW_ENTRIES = 10_000;

interface Entry {
  until: number;
  value: Promise<unknown>;
}

const windows = new WeakMap<AppContext, Map<string, Entry>>();

function windowOf(ctx: AppContext): Map<string, Entry> {
  let entries = windows.get(ctx);
  if (!entries) {
    entries = new Map();
    windows.set(ctx, entries);
  }
  return entries;
}

/** What a resolution found, and whether other requests with the same key may reuse it. */
export interface WindowedResolution<T> {
  value: T;
  /** False when this request's answer must not serve others (e.g. its cookie was invalid). */
  keep: boolean;
}

/**
 * The value resolved for `key` within the last ACCESS_WINDOW_MS, or `resolve()`'s (kept
 * for the next ones when it succeeds and says `keep`).
 */
export async function withinAccessWindow<T>(
  ctx: AppContext,
  key: string,
  resolve: () => Promise<WindowedResolution<T>>,
): Promise<T> {
  const entries = windowOf(ctx);
  const now = ctx.now().getTime();
  const found = entries.get(key);
  if (found && found.until > now) return found.value as Promise<T>;
  if (found) entries.delete(key);
  const value = resolve().then(
    (resolution) => {
      if (!resolution.keep && entries.get(key)?.value === value) entries.delete(key);
      return resolution.value;
    },
    (error: unknown) => {
      if (entries.get(key)?.value === value) entries.delete(key);
      throw error;
    },
  );
  entries.set(key, { until: now + ACCESS_WINDOW_MS, value });
  while (entries.size > ACCESS_WINDOW_ENTRIES) {
    const oldest = entries.keys().next().value;
    if (oldest === undefined) break;
    entries.delete(oldest);
  }
  return value;
}

/** Forgets every kept decision of the app (shutdown, tests). */
export function clearAccessWindow(ctx: AppContext): void {
  windows.get(ctx)?.clear();
}
