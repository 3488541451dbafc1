/**
 * The map route's search params (issue 19): what a link needs to reproduce what was seen. The
 * route file imports `validateMapSearch`, so this module is in the first screens' code: it
 * imports nothing and stays small (the 170 KB budget); the rest of the map loads with the tab.
 *
 * - `version`: the project version shown (`v3`); absent: the latest.
 * - `file`: the GeoPackage shown (its project path); absent: the first one.
 * - `layers`: the visible layers (table names, comma-separated; empty: none); absent: all.
 * - `view`: `lon,lat,zoom` (EPSG:4326 degrees, zoom 0-28); absent: fit to the data.
 * - `changes`: `true` draws the changes of `version` (inserted, updated, deleted).
 * - `table`: the layer whose attribute table is open.
 */
export interface MapSearch {
  version?: string;
  file?: string;
  layers?: string;
  view?: string;
  changes?: boolean;
  table?: string;
}

/** A map view: its center in degrees and its zoom. */
export interface MapView {
  lon: number;
  lat: number;
  zoom: number;
}

const first = (value: unknown): string | undefined => {
  const item = Array.isArray(value) ? value[0] : value;
  return typeof item === 'string' && item !== '' ? item : undefined;
};

/** `lon,lat,zoom` read as numbers, or null when any is missing or out of range. */
export function parseView(text: string | undefined): MapView | null {
  const parts = (text ?? '').split(',');
  if (parts.length !== 3 || parts.some((part) => part.trim() === '')) return null;
  const [lon, lat, zoom] = parts.map(Number) as [number, number, number];
  const valid =
    Math.abs(lon) <= 180 && Math.abs(lat) <= 90 && zoom >= 0 && zoom <= 28 && !isNaN(lon + lat);
  return valid ? { lon, lat, zoom } : null;
}

/** Keeps the valid params; anything else is dropped (the map then uses its default). */
export function validateMapSearch(search: Record<string, unknown>): MapSearch {
  const result: MapSearch = {};
  const version = first(search.version);
  if (version && /^v\d{1,9}$/.test(version)) result.version = version;
  const file = first(search.file);
  if (file) result.file = file;
  const layers = [search.layers].flat().filter((item) => typeof item === 'string');
  if (layers.length > 0) result.layers = layers.join(',');
  const view = first(search.view);
  if (parseView(view)) result.view = view;
  if (first(search.changes) === 'true') result.changes = true;
  const table = first(search.table);
  if (table) result.table = table;
  return result;
}
