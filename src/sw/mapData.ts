/**
 * The map offline (issue 19). Map data (GET /app/map/…: layers, vector tiles, attribute pages,
 * features, changes) is fetched from the network first and a copy kept per owner, in the
 * owner's cache of previews (same owner, same sign-out rule: see offline.ts);
 * when the network fails, the owner's copy (else a public one) answers. Tiles of the configured
 * basemap (the page tells the worker its URL template) are answered from a cache first and kept
 * within BASEMAP_CACHE_MAX_TILES, least recently used out first; they are public data, kept for
 * everyone.
 */
import {
  BASEMAP_CACHE,
  BASEMAP_CACHE_MAX_TILES,
  BASEMAP_STATE_URL,
  MAP_CACHE_MAX_BYTES,
} from './mapCaches';
import { basemapPattern, overflow } from './mapRequests';
import { PUBLIC_OWNER_NAME, STATE_CACHE, previewCacheName } from './offline';
import { currentOwner } from './previews';

/** The answers worth keeping: complete (200, or 204 for an empty tile) and not too large. */
async function keepable(response: Response): Promise<boolean> {
  if (response.status === 204) return true;
  if (response.status !== 200) return false;
  const length = Number(response.headers.get('Content-Length') ?? NaN);
  if (Number.isFinite(length)) return length <= MAP_CACHE_MAX_BYTES;
  return (await response.clone().blob()).size <= MAP_CACHE_MAX_BYTES;
}

export async function mapDataResponse(request: Request): Promise<Response> {
  const who = await currentOwner();
  try {
    const response = await fetch(request);
    // The owner may have changed (sign-out) while the answer came: then it is not kept.
    if (who !== null && (await keepable(response)) && (await currentOwner()) === who) {
      await (await caches.open(previewCacheName(who))).put(request, response.clone());
    }
    return response;
  } catch (error) {
    const owners =
      who === null || who === PUBLIC_OWNER_NAME ? [PUBLIC_OWNER_NAME] : [who, PUBLIC_OWNER_NAME];
    for (const owner of owners) {
      const saved = await (await caches.open(previewCacheName(owner))).match(request);
      if (saved) return saved;
    }
    throw error;
  }
}

let basemap: RegExp | null | undefined;

export async function setBasemap(template: string | null): Promise<void> {
  basemap = basemapPattern(template);
  const cache = await caches.open(STATE_CACHE);
  await cache.put(BASEMAP_STATE_URL, new Response(JSON.stringify({ template })));
}

/** Loads the remembered basemap template (the worker may have been restarted). */
export async function loadBasemap(): Promise<RegExp | null> {
  if (basemap !== undefined) return basemap;
  try {
    const saved = await (await caches.open(STATE_CACHE)).match(BASEMAP_STATE_URL);
    const data = saved ? ((await saved.json()) as { template?: unknown }) : null;
    basemap = basemapPattern(typeof data?.template === 'string' ? data.template : null);
  } catch {
    basemap = null;
  }
  return basemap;
}

/** Whether a request is for a tile of the basemap last told (loadBasemap runs at start). */
export function isBasemapTile(request: { method: string; url: string }): boolean {
  return request.method === 'GET' && basemap?.test(request.url) === true;
}

async function trim(cache: Cache): Promise<void> {
  await Promise.all(
    overflow(await cache.keys(), BASEMAP_CACHE_MAX_TILES).map((key) => cache.delete(key)),
  );
}

export async function basemapResponse(event: FetchEvent, request: Request): Promise<Response> {
  const cache = await caches.open(BASEMAP_CACHE);
  const saved = await cache.match(request);
  if (saved) {
    // Put again: the most recently used tile is the last to go.
    event.waitUntil(
      cache
        .delete(request)
        .then(() => cache.put(request, saved.clone()))
        .catch(() => undefined),
    );
    return saved;
  }
  const response = await fetch(request);
  if (response.status === 200 && response.type !== 'opaque') {
    event.waitUntil(
      cache
        .put(request, response.clone())
        .then(() => trim(cache))
        .catch(() => undefined),
    );
  }
  return response;
}
