/** Tells the active service worker whose image previews it caches (src/sw/offline.ts). */
import type { ClientToServiceWorkerMessage } from '@/sw/messages';

export function postOwnerToServiceWorker(owner: string | null): void {
  const controller = globalThis.navigator?.serviceWorker?.controller;
  if (!controller) return;
  const message: ClientToServiceWorkerMessage = { type: 'offline/owner', owner };
  controller.postMessage(message);
}
