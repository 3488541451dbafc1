/** Which layers are visible, as the `layers` search param says (see search.ts), and drawn. */
import type { Extent } from '@contract/map';

/**
 * A layer the map draws: its name (the MVT layer), its colour's index, its tiles' URL template
 * and where its features are (EPSG:3857).
 */
export interface CanvasLayer {
  name: string;
  colourIndex: number;
  tileUrl: string;
  extent: Extent | null;
  /** Points only (POINT, MULTIPOINT): drawn as vectors, with no tile images. */
  points: boolean;
  /** Lines only (LINESTRING, MULTILINESTRING and curves). */
  lines?: boolean;
}

/** Whether a GeoPackage geometry type holds points only. */
export const isPointType = (geometryType: string) => /^(MULTI)?POINT$/i.test(geometryType);
/** Whether a GeoPackage geometry type holds lines only. */
export const isLineType = (geometryType: string) =>
  /^(MULTI)?(LINESTRING|CURVE)$|^(COMPOUNDCURVE|CIRCULARSTRING)$/i.test(geometryType);

/**
 * The stacking of a layer on the map (OpenLayers' z-index): points over lines over polygons,
 * as GIS maps draw them, so nothing hides a point; within each kind, the layers in their order.
 * A click chooses in the same order (issue 31: a point drawn over a field opened the field).
 */
export function drawOrder(layer: Pick<CanvasLayer, 'points' | 'lines' | 'colourIndex'>): number {
  const kind = layer.points ? 2 : layer.lines ? 1 : 0;
  return 100 + kind * 100 - layer.colourIndex;
}

/** The visible layers of `layers` (undefined: all of `all`). */
export const visibleLayers = (layers: string | undefined, all: readonly string[]): string[] =>
  layers === undefined ? [...all] : all.filter((name) => layers.split(',').includes(name));

/** The `layers` param for the visible layers: absent when all are visible. */
export const layersParam = (visible: readonly string[], all: readonly string[]) =>
  all.every((name) => visible.includes(name)) ? undefined : visible.join(',');
