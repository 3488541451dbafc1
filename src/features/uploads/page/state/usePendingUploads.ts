/** React access to the pending uploads (a context lets tests give their own store). */
import { createContext, useContext, useSyncExternalStore } from 'react';
import { pendingUploads } from './instance';
import type { PendingUpload, PendingUploads } from './pendingUploads';

export const PendingUploadsContext = createContext<PendingUploads | null>(null);

export function usePendingUploads(): PendingUploads {
  return useContext(PendingUploadsContext) ?? pendingUploads;
}

/** The pending upload of one project ('namespace/name'), re-rendering on every change. */
export function usePendingUpload(key: string): PendingUpload | undefined {
  const store = usePendingUploads();
  const all = useSyncExternalStore(store.subscribe, store.getSnapshot, store.getSnapshot);
  return all.get(key);
}
