/**
 * Whether this page needs the edit sender (issue 34). It loads lazily (issue 8's bundle
 * budget): the shell mounts it once an edit is queued in this browser (checked at start with
 * the bare IndexedDB API) or saved. Once wanted, it stays wanted for the page's life.
 */
import { useSyncExternalStore } from 'react';

let wanted = false;
const listeners = new Set<() => void>();

export function wantEditSync(): void {
  if (wanted) return;
  wanted = true;
  for (const listener of [...listeners]) listener();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

const getSnapshot = () => wanted;

export function useEditSyncWanted(): boolean {
  return useSyncExternalStore(subscribe, getSnapshot, getSnapshot);
}
