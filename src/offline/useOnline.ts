/** Whether the browser reports a network connection (navigator.onLine and its events). */
import { useSyncExternalStore } from 'react';
import { offlineStatus } from './offlineStatus';

function subscribe(listener: () => void): () => void {
  window.addEventListener('online', listener);
  window.addEventListener('offline', listener);
  return () => {
    window.removeEventListener('online', listener);
    window.removeEventListener('offline', listener);
  };
}

const isOnline = () => globalThis.navigator?.onLine !== false;

export function useOnline(): boolean {
  return useSyncExternalStore(subscribe, isOnline, () => true);
}

/** When the oldest saved copy on screen was saved, or null when everything is fresh. */
export function useOfflineSavedAt(): number | null {
  return useSyncExternalStore(offlineStatus.subscribe, offlineStatus.savedAt, () => null);
}
