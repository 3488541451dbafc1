/**
 * How many uploads wait in this browser's outbox (queued, running or failed), as the upload
 * engine last reported, plus the projects with field edits not sent yet (issue 34, reported by
 * the edit queue), and how many landed uploads are left to check (outboxNotices.ts): the
 * sidebar's 'Outbox' entry shows them. A tiny store, so the shell reads the counts without
 * loading the engine (the app badge is set by the engine, appBadge.ts).
 */
import { useSyncExternalStore } from 'react';

/** localStorage key of the notices of uploads that did not do all that was asked. */
export const OUTBOX_NOTICES_KEY = 'waymark.outboxNotices';

let count = 0;
let notices = 0;
try {
  const kept: unknown = JSON.parse(localStorage.getItem(OUTBOX_NOTICES_KEY) ?? '[]');
  notices = Array.isArray(kept) ? kept.length : 0;
} catch {
  // No storage, or an unreadable list: none shown.
}
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

/** outboxNotices.ts: the number of notices kept. */
export function setOutboxNoticeCount(value: number): void {
  if (value === notices) return;
  notices = value;
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

/** The number of landed uploads left to check in the Outbox. */
export function useOutboxNoticeCount(): number {
  return useSyncExternalStore(
    subscribe,
    () => notices,
    () => 0,
  );
}
