/** Tells the active service worker the map's basemap URL template, whose tiles it keeps (issue 19). */
import type { ClientToServiceWorkerMessage } from '@/sw/messages';

export function postBasemapToServiceWorker(template: string | null): void {
  const controller = globalThis.navigator?.serviceWorker?.controller;
  if (!controller) return;
  const message: ClientToServiceWorkerMessage = { type: 'map/basemap', template };
  controller.postMessage(message);
}
