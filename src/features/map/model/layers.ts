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
}

/** Whether a GeoPackage geometry type holds points only. */
export const isPointType = (geometryType: string) => /^(MULTI)?POINT$/i.test(geometryType);

/** The visible layers of `layers` (undefined: all of `all`). */
export const visibleLayers = (layers: string | undefined, all: readonly string[]): string[] =>
  layers === undefined ? [...all] : all.filter((name) => layers.split(',').includes(name));

/** The `layers` param for the visible layers: absent when all are visible. */
export const layersParam = (visible: readonly string[], all: readonly string[]) =>
  all.every((name) => visible.includes(name)) ? undefined : visible.join(',');
