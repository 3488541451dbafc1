/**
 * Names the service worker and the page agree on for the map offline (issue 19, mapData.ts):
 * map data is kept in the owner's cache of previews (previewCacheName in offline.ts: so
 * sign-out deletes a user's); basemap tiles in one cache for everyone, within a number of
 * tiles.
 */

/** Map answers larger than this are not kept. */
export const MAP_CACHE_MAX_BYTES = 10 * 1024 * 1024;

/** Basemap tiles seen, at most BASEMAP_CACHE_MAX_TILES of them (about 20-40 MB). */
export const BASEMAP_CACHE = 'waymark-basemap';
export const BASEMAP_CACHE_MAX_TILES = 1500;

/** Where the worker keeps the basemap's URL template across its restarts. */
export const BASEMAP_STATE_URL = '/__waymark/basemap';
