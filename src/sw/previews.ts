/**
 * Image previews for offline use, stale-while-revalidate: a saved copy answers at once while
 * the network refreshes it; without one the network answers and a small (≤ 10 MB) 200 answer
 * is saved. Copies are kept per owner ('public' or 'user:<id>', told by the page, remembered
 * across restarts of the worker) in their own cache, so sign-out deletes a user's caches.
 * While the owner is not known nothing is saved.
 */
import {
  OWNER_STATE_URL,
  PREVIEW_CACHE_MAX_BYTES,
  PUBLIC_OWNER_NAME,
  STATE_CACHE,
  previewCacheName,
} from './offline';

let owner: string | null | undefined;

export async function setOwner(next: string | null): Promise<void> {
  owner = next;
  const cache = await caches.open(STATE_CACHE);
  await cache.put(OWNER_STATE_URL, new Response(JSON.stringify({ owner: next })));
}

export async function currentOwner(): Promise<string | null> {
  if (owner !== undefined) return owner;
  try {
    const saved = await (await caches.open(STATE_CACHE)).match(OWNER_STATE_URL);
    const data = saved ? ((await saved.json()) as { owner?: unknown }) : null;
    owner = typeof data?.owner === 'string' ? data.owner : null;
  } catch {
    owner = null;
  }
  return owner;
}

function storable(response: Response): boolean {
  if (response.status !== 200) return false;
  const length = Number(response.headers.get('Content-Length') ?? NaN);
  return Number.isFinite(length) && length <= PREVIEW_CACHE_MAX_BYTES;
}

export async function previewResponse(event: FetchEvent, request: Request): Promise<Response> {
  const who = await currentOwner();
  if (who === null) return fetch(request);
  const cache = await caches.open(previewCacheName(who));
  const saved =
    (await cache.match(request)) ??
    (who === PUBLIC_OWNER_NAME
      ? undefined
      : await (await caches.open(previewCacheName(PUBLIC_OWNER_NAME))).match(request));
  const refresh = fetch(request).then(async (response) => {
    // The owner may have changed (sign-out) while the answer came: then it is not saved.
    if (storable(response) && (await currentOwner()) === who) {
      await cache.put(request, response.clone());
    }
    return response;
  });
  if (saved) {
    event.waitUntil(refresh.catch(() => undefined));
    return saved;
  }
  return refresh;
}
