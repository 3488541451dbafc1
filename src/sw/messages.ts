/**
 * Messages from the page to the service worker. `SKIP_WAITING` is the wire format of
 * workbox-window's `messageSkipWaiting()` ('Reload' in the update prompt), so it keeps
 * Workbox's name rather than our namespaced `area/action` form.
 */
export type ClientToServiceWorkerMessage = { type: 'SKIP_WAITING' };
