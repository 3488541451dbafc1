/**
 * How many uploads wait in this browser's outbox (queued, running or failed), as the upload
 * engine last reported: the sidebar's 'Outbox' entry shows it, and an installed app shows it on
 * its icon where the browser has app badges (navigator.setAppBadge). A tiny store, so the
 * shell reads the count without loading the engine.
 */
import { useSyncExternalStore } from 'react';

interface BadgeNavigator {
  setAppBadge?(count?: number): Promise<void>;
  clearAppBadge?(): Promise<void>;
}

let count = 0;
const listeners = new Set<() => void>();

/** Sets the app icon's badge to `value` (cleared at 0) where the browser supports it. */
export function showAppBadge(
  value: number,
  nav: BadgeNavigator | undefined = globalThis.navigator as BadgeNavigator | undefined,
): void {
  const done = value > 0 ? nav?.setAppBadge?.(value) : nav?.clearAppBadge?.();
  // Not allowed (e.g. not installed): the sidebar still shows the count.
  done?.catch(() => undefined);
}

/** The engine's report: the number of uploads in the outbox. */
export function setOutboxCount(value: number): void {
  if (value === count) return;
  count = value;
  showAppBadge(value);
  for (const listener of [...listeners]) listener();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

const getSnapshot = () => count;

/** The number of uploads in the outbox (0 until the engine reported). */
export function useOutboxCount(): number {
  return useSyncExternalStore(subscribe, getSnapshot, () => 0);
}
