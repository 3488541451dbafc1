/**
 * Messages from the page to the service worker. `SKIP_WAITING` is the wire format of
 * workbox-window's `messageSkipWaiting()` ('Reload' in the update prompt), so it keeps
 * Workbox's name rather than our namespaced `area/action` form.
 */
export type ClientToServiceWorkerMessage =
  | { type: 'SKIP_WAITING' }
  /** Whose image previews the worker caches from now on (null: nobody's, owner unknown). */
  | { type: 'offline/owner'; owner: string | null }
  /** The map's basemap URL template, whose tiles the worker keeps (null: none, issue 19). */
  | { type: 'map/basemap'; template: string | null };

/** Messages from the service worker to its pages. */
export type ServiceWorkerToClientMessage =
  /** Background Sync fired: the upload engine should try its queue now. */
  { type: 'uploads/resume' };
