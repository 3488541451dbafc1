/**
 * Tile answers fetched before the map asked for them (firstTiles.ts), handed to the map's tile
 * loader (mapSetup.ts `tileSource`) from memory: a tile the map finds here costs no request, not even one
 * to the HTTP cache. Each is handed over once, and kept at most a minute; within that minute
 * it is not fetched ahead again (the map has it). Tiles go through the page's one transport
 * (`@/api`: its headers, the session-ended handlers, its error texts) like every other call.
 */
import { api } from '@/api';

/** A tile's body: its MVT bytes, or null for an empty tile (204). */
export type TileBody = ArrayBuffer | null;

/** How long a tile fetched ahead waits for the map (ms). */
const KEPT_MS = 60_000;
/** The tiles fetched ahead, by URL, with when they were asked for. */
const ahead = new Map<string, { at: number; body: Promise<TileBody> | null }>();

/**
 * Fetches a tile's body (the service worker answers it offline from what it kept). `url` is
 * the tile's address as the map template gives it (a path on this origin); a refusal rejects
 * with the client's ApiError.
 */
export async function fetchTileBody(url: string): Promise<TileBody> {
  const response = await api.get<Response>(url, { responseType: 'response' });
  if (response.status === 204) return null;
  return await response.arrayBuffer();
}

function sweep(now: number): void {
  for (const [url, entry] of ahead) if (now - entry.at > KEPT_MS) ahead.delete(url);
}

/** Fetches a tile ahead, unless it is already waiting; a failure is forgotten. */
export function fetchTileAhead(url: string): void {
  const now = Date.now();
  sweep(now);
  if (ahead.has(url)) return;
  const body = fetchTileBody(url);
  ahead.set(url, { at: now, body });
  body.catch(() => {
    if (ahead.get(url)?.body === body) ahead.delete(url);
  });
}

/** The body of a tile fetched ahead (once: its body is then let go), or a new request for it. */
export function takeTileBody(url: string): Promise<TileBody> {
  sweep(Date.now());
  const entry = ahead.get(url);
  const body = entry?.body;
  if (!entry || !body) return fetchTileBody(url);
  entry.body = null;
  return body.catch(() => fetchTileBody(url));
}

/** The body of a tile fetched ahead and not yet handed over, left for the map; else null. */
export function peekTileBody(url: string): Promise<TileBody> | null {
  return ahead.get(url)?.body ?? null;
}
