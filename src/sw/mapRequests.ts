/**
 * Which requests the service worker keeps for the map (issue 19, mapData.ts), as pure rules:
 * the map routes' answers, the configured basemap's tiles, and which tiles go when the
 * basemap cache is full.
 */

/** The map routes' prefix (server/src/schemas/map.ts). */
export const MAP_DATA_PREFIX = '/app/map/';

export function isMapDataRequest(
  request: { method: string; url: string; headers?: Headers },
  origin: string,
): boolean {
  if (request.method !== 'GET' || request.headers?.has('range')) return false;
  const url = new URL(request.url);
  return url.origin === origin && url.pathname.startsWith(MAP_DATA_PREFIX);
}

/**
 * A pattern matching the tile URLs of an XYZ template: `{z}`, `{x}`, `{y}` and `{-y}` are
 * numbers, `{a-c}` (a range of subdomains) one letter or digit. Null for no template.
 */
export function basemapPattern(template: string | null): RegExp | null {
  if (!template) return null;
  const escaped = template.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const source = escaped
    .replace(/\\\{-?[xyz]\\\}/g, '\\d+')
    .replace(/\\\{[a-z0-9]-[a-z0-9]\\\}/gi, '[a-z0-9]');
  return new RegExp(`^${source}$`, 'i');
}

/** The keys to delete so that at most `max` stay (the oldest first: caches keep put order). */
export function overflow<T>(keys: readonly T[], max: number): T[] {
  return keys.length > max ? keys.slice(0, keys.length - max) : [];
}
