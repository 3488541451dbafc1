/**
 * The map route's search params (issue 19): what a link needs to reproduce what was seen. The
 * route file imports `validateMapSearch`, so this module is in the first screens' code: it
 * imports nothing and stays small (the 170 KB budget); the rest of the map loads with the tab.
 *
 * - `version`: the project version shown (`v3`); absent: the latest.
 * - `file`: the GeoPackage shown (its project path); absent: the first one.
 * - `layers`: the visible layers (table names, comma-separated; empty: none); absent: all.
 * - `view`: `lon,lat,zoom` (EPSG:4326 degrees; view.ts checks the ranges); absent: fit to the
 *   data.
 * - `changes`: `true` draws the changes of `version` (inserted, updated, deleted).
 * - `table`: the layer whose attribute table is open.
 */
export interface MapSearch {
  version?: string;
  file?: string;
  layers?: string;
  view?: string;
  changes?: 'true';
  table?: string;
}

/** What each param must look like; a param that does not is dropped (the default applies). */
const RULES: Record<keyof MapSearch, RegExp> = {
  version: /^v\d+$/,
  file: /./,
  layers: /^/,
  view: /^[-\d.]+,[-\d.]+,[\d.]+$/,
  changes: /^true$/,
  table: /./,
};

export const validateMapSearch = (search: Record<string, unknown>): MapSearch =>
  Object.fromEntries(
    Object.entries(RULES).flatMap(([key, rule]) => {
      const value = [search[key]].flat()[0];
      return typeof value === 'string' && rule.test(value) ? [[key, value]] : [];
    }),
  );
