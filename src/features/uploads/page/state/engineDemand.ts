/**
 * Whether this page needs the upload engine and its upload center (toast, outcome messages).
 * Both load lazily (issue 8's bundle budget): the shell mounts the center once an upload is
 * stored in this browser, the upload area of a project is shown, or anything uses the engine.
 * Once wanted, it stays wanted for the page's life.
 */
import { useSyncExternalStore } from 'react';

let wanted = false;
const listeners = new Set<() => void>();

/** Asks for the upload engine and center (idempotent). */
export function wantUploadEngine(): void {
  if (wanted) return;
  wanted = true;
  for (const listener of [...listeners]) listener();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

const getSnapshot = () => wanted;

/** True once the upload engine is wanted on this page. */
export function useUploadEngineWanted(): boolean {
  return useSyncExternalStore(subscribe, getSnapshot, getSnapshot);
}

/** Tests: forget that the engine was wanted. */
export function resetUploadEngineDemand(): void {
  wanted = false;
  for (const listener of [...listeners]) listener();
}
