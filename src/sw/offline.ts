/**
 * What the service worker and the page agree on for offline use (issue 8): the names of the
 * caches of image previews (one per owner, so sign-out deletes a user's), which requests are
 * such previews, and the Background Sync tag of the upload queue.
 */

/** The owner of what an anonymous visitor saw (as in src/offline/owner.ts). */
export const PUBLIC_OWNER_NAME = 'public';

/** Cache of image previews saved by `owner` ('public' or 'user:<id>'). */
export const PREVIEW_CACHE_PREFIX = 'waymark-previews:';
export function previewCacheName(owner: string): string {
  return `${PREVIEW_CACHE_PREFIX}${owner}`;
}
/** The owner of a preview cache, or null for other caches. */
export function ownerOfCache(cacheName: string): string | null {
  return cacheName.startsWith(PREVIEW_CACHE_PREFIX)
    ? cacheName.slice(PREVIEW_CACHE_PREFIX.length)
    : null;
}

/** Where the worker keeps the current owner across its restarts. */
export const STATE_CACHE = 'waymark-offline-state';
export const OWNER_STATE_URL = '/__waymark/offline-owner';

/** Image previews larger than this are not kept (whole files are never cached otherwise). */
export const PREVIEW_CACHE_MAX_BYTES = 10 * 1024 * 1024;

/** The raw file endpoint, whose GETs for an <img> are image previews. */
export const RAW_FILE_PREFIX = '/v1/project/raw/';

/** Whether a request is an image preview the worker may cache (never a download). */
export function isImagePreviewRequest(request: {
  method: string;
  destination: string;
  url: string;
}): boolean {
  if (request.method !== 'GET' || request.destination !== 'image') return false;
  const url = new URL(request.url);
  return url.pathname.startsWith(RAW_FILE_PREFIX) && url.searchParams.has('file');
}

/** Background Sync tag registered while uploads are queued. */
export const UPLOAD_SYNC_TAG = 'waymark-uploads';
