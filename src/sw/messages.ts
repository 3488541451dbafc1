/** Messages between the page and the service worker: namespaced types, one union per direction. */
export type ClientToServiceWorkerMessage = { type: 'app/skip-waiting' };
