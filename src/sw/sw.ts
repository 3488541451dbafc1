/**
 * The service worker (vite-plugin-pwa injectManifest). It precaches the built app shell, serves
 * index.html for client-side routes so deep links open offline, drops caches of old builds, and
 * activates a waiting version when the page asks ('Reload' in the update prompt).
 */
import {
  cleanupOutdatedCaches,
  createHandlerBoundToURL,
  precacheAndRoute,
  type PrecacheEntry,
} from 'workbox-precaching';
import { registerRoute } from 'workbox-routing';
import type { ClientToServiceWorkerMessage } from './messages';
import { isClientRoute } from './navigation';

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
    default: {
      const unknown: never = message.type;
      void unknown;
    }
  }
});

self.addEventListener('activate', (event: ExtendableEvent) => {
  event.waitUntil(self.clients.claim());
});
