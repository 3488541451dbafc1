/**
 * How many uploads wait in this browser's outbox (queued, running or failed), as the upload
 * engine last reported, plus the projects with field edits not sent yet (issue 34, reported by
 * the edit queue): the sidebar's 'Outbox' entry shows it. A tiny store, so the shell reads
 * the count without loading the engine (the app badge is set by the engine, appBadge.ts).
 */
import { useSyncExternalStore } from 'react';

let count = 0;
const parts = { uploads: 0, edits: 0 };
const listeners = new Set<() => void>();

/** A report: the number of uploads (or of projects with queued edits) in the outbox. */
export function setOutboxCount(value: number, part: keyof typeof parts = 'uploads'): void {
  parts[part] = value;
  const total = parts.uploads + parts.edits;
  if (total === count) return;
  count = total;
  for (const listener of [...listeners]) listener();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** The number of uploads in the outbox (0 until the engine reported). */
export function useOutboxCount(): number {
  return useSyncExternalStore(
    subscribe,
    () => count,
    () => 0,
  );
}
