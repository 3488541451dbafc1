/**
 * The map's search params read for use (search.ts keeps them as text): a value that is not
 * valid counts as absent, so the map falls back to its default (the latest version, the first
 * GeoPackage, all layers, fitting the data, no changes, no table).
 */
import type { MapSearch } from './search';
import { parseView, type MapView } from './view';

export interface MapParams {
  version: string | undefined;
  file: string | undefined;
  /** Comma-separated visible layers; '' none; undefined all (see layers.ts). */
  layers: string | undefined;
  view: MapView | null;
  changes: boolean;
  table: string | undefined;
}

export function readMapSearch(search: MapSearch): MapParams {
  const version = search.version && /^v\d{1,9}$/.test(search.version) ? search.version : undefined;
  return {
    version,
    file: search.file || undefined,
    layers: search.layers,
    view: parseView(search.view),
    // Changes are those of a version: without one there are none to show.
    changes: search.changes === 'true' && version !== undefined,
    table: search.table || undefined,
  };
}
