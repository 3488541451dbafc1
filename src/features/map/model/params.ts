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

const text = (value: unknown): string | undefined =>
  typeof value === 'string' ? value : undefined;

/**
 * The router hands over the params merged with the raw ones (a param the validation dropped,
 * e.g. a repeated key, is still there as it came): every value is checked again here.
 */
export function readMapSearch(search: MapSearch | Record<string, unknown>): MapParams {
  const raw = search as Record<string, unknown>;
  const given = text(raw.version);
  const version = given && /^v\d{1,9}$/.test(given) ? given : undefined;
  return {
    version,
    file: text(raw.file) || undefined,
    layers: text(raw.layers),
    view: parseView(text(raw.view)),
    // Changes are those of a version: without one there are none to show.
    changes: raw.changes === 'true' && version !== undefined,
    table: text(raw.table) || undefined,
  };
}
