/**
 * The service worker (vite-plugin-pwa injectManifest). It precaches the built app shell, serves
 * index.html for client-side routes so deep links open offline, drops caches of old builds, and
 * activates a waiting version when the page asks ('Reload' in the update prompt). It keeps image
 * previews for offline use (stale-while-revalidate, one cache per owner, previews.ts), the map's
 * data and basemap tiles (mapData.ts), and wakes
 * the pages' upload queue when Background Sync fires.
 */
import {
  cleanupOutdatedCaches,
  createHandlerBoundToURL,
  precacheAndRoute,
  type PrecacheEntry,
} from 'workbox-precaching';
import { registerRoute } from 'workbox-routing';
import type { ClientToServiceWorkerMessage, ServiceWorkerToClientMessage } from './messages';
import { isClientRoute } from './navigation';
import { UPLOAD_SYNC_TAG, isImagePreviewRequest } from './offline';
import {
  basemapResponse,
  isBasemapTile,
  loadBasemap,
  mapDataResponse,
  setBasemap,
} from './mapData';
import { isMapDataRequest } from './mapRequests';
import { previewResponse, setOwner } from './previews';

declare const self: ServiceWorkerGlobalScope & {
  __WB_MANIFEST: Array<PrecacheEntry | string>;
};

precacheAndRoute(self.__WB_MANIFEST);
cleanupOutdatedCaches();

// Client routes open from the precached index.html, also offline (see navigation.ts).
const appShell = createHandlerBoundToURL('/index.html');
registerRoute(
  ({ request, url }) =>
    request.mode === 'navigate' &&
    url.origin === self.location.origin &&
    isClientRoute(url.pathname),
  appShell,
);

// Image previews of project files (never downloads: those are not <img> requests).
registerRoute(
  ({ request, url }) => url.origin === self.location.origin && isImagePreviewRequest(request),
  ({ event, request }) => previewResponse(event as FetchEvent, request),
);

// The map's data per owner (network first) and the basemap's tiles (cache first, mapData.ts).
void loadBasemap();
registerRoute(
  ({ request }) => isMapDataRequest(request, self.location.origin),
  ({ request }) => mapDataResponse(request),
);
registerRoute(
  ({ request }) => isBasemapTile(request),
  ({ event, request }) => basemapResponse(event as FetchEvent, request),
);

function isClientMessage(data: unknown): data is ClientToServiceWorkerMessage {
  return (
    typeof data === 'object' &&
    data !== null &&
    typeof (data as { type?: unknown }).type === 'string'
  );
}

self.addEventListener('message', (event: ExtendableMessageEvent) => {
  if (!isClientMessage(event.data)) return;
  const message = event.data;
  switch (message.type) {
    case 'SKIP_WAITING':
      void self.skipWaiting();
      break;
    case 'offline/owner':
      event.waitUntil(setOwner(message.owner));
      break;
    case 'map/basemap':
      event.waitUntil(setBasemap(message.template));
      break;
    default: {
      const unknown: never = message;
      void unknown;
    }
  }
});

self.addEventListener('activate', (event: ExtendableEvent) => {
  event.waitUntil(self.clients.claim());
});

interface SyncEvent extends ExtendableEvent {
  readonly tag: string;
}

// Background Sync (where the browser has it): queued uploads were registered under
// UPLOAD_SYNC_TAG; the upload engine runs in the pages, so the worker tells them to go on.
self.addEventListener('sync', ((event: SyncEvent) => {
  if (event.tag !== UPLOAD_SYNC_TAG) return;
  event.waitUntil(
    self.clients.matchAll({ type: 'window', includeUncontrolled: true }).then((clients) => {
      const message: ServiceWorkerToClientMessage = { type: 'uploads/resume' };
      for (const client of clients) client.postMessage(message);
    }),
  );
}) as EventListener);
