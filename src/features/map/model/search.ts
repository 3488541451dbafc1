/**
 * The map route's search params (issue 19): what a link needs to reproduce what was seen. The
 * route file imports `validateMapSearch`, so this module is in the first screens' code: it
 * imports nothing and stays tiny (the 170 KB budget). It keeps the map's params that are text;
 * `readMapSearch` (params.ts, loaded with the tab) checks their values.
 *
 * - `version`: the project version shown (`v3`); absent: the latest.
 * - `file`: the GeoPackage shown (its project path); absent: the first one.
 * - `layers`: the visible layers (table names, comma-separated; empty: none); absent: all.
 * - `view`: `lon,lat,zoom` (EPSG:4326 degrees); absent: fit to the data.
 * - `changes`: `true` draws the changes of `version` (inserted, updated, deleted).
 * - `table`: the layer whose attribute table is open.
 */
export interface MapSearch {
  version?: string;
  file?: string;
  layers?: string;
  view?: string;
  changes?: string;
  table?: string;
}

const PARAMS = /^(version|file|layers|view|changes|table)$/;

/** The map's params given once as text; others (and repeated keys) are dropped. */
export const validateMapSearch = (search: Record<string, unknown>): MapSearch =>
  Object.fromEntries(
    Object.entries(search).filter(([key, value]) => typeof value === 'string' && PARAMS.test(key)),
  );
