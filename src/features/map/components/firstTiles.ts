/**
 * The tiles the Map tab asks for first, fetched before it opens (issue 19: the first frame
 * with features counts from the click on the tab). The map fits its view to the data on open;
 * from the map's size (model/layout.ts) this fits the same view and names the tiles in it at
 * the zoom OpenLayers will choose, as OpenLayers will name them: those over a layer's data
 * first, then the empty ones around it. Their answers wait in memory (tilesAhead.ts) for the
 * map's tile loader; a wrong guess (the window resized meanwhile) only costs those requests.
 */
import { buffer, getCenter, getWidth, intersects } from 'ol/extent';
import { get as getProjection } from 'ol/proj';
import View from 'ol/View';
import type { CanvasLayer } from '../model/layers';
import { unionExtent } from '../model/project';
import { prepareStyles } from './styles';
import { fetchTileAhead } from './tilesAhead';
import { warmUpMap } from './warmUp';
import { FIT_MAX_ZOOM, FIT_PADDING, MAX_ZOOM, tileSource } from './mapSetup';

/** At most this many tiles are fetched ahead for one opening (a few layers' worth). */
export const MAX_FIRST_TILES = 16;

/** A tile's extent shrunk a hair: one meeting the data only along an edge holds none of it. */
const inner = (tile: number[]) => buffer(tile, -getWidth(tile) * 1e-6);

/** The tiles a map opening shows first, and where to draw the first tile with data ahead. */
export interface FirstTiles {
  /** Their URLs: those over a layer's data first. */
  urls: string[];
  /** The view's resolution (m/px). */
  resolution: number;
  /** The first tile with data: its layer and centre (EPSG:3857). */
  first: { layer: CanvasLayer; centre: [number, number] } | null;
}

/** The tiles in the view fitted to the layers' data on a map of `size`. */
export function firstTiles(layers: readonly CanvasLayer[], size: [number, number]): FirstTiles {
  const none = { urls: [], resolution: 0, first: null };
  const data = unionExtent(layers.map((layer) => layer.extent));
  if (!data || size[0] <= 0 || size[1] <= 0) return none;
  const view = new View({ maxZoom: MAX_ZOOM });
  view.fit(data, { size, padding: FIT_PADDING, maxZoom: FIT_MAX_ZOOM });
  const resolution = view.getResolution();
  const shown = view.calculateExtent(size);
  const projection = getProjection('EPSG:3857');
  if (resolution === undefined || !projection) return none;
  const withData: string[] = [];
  const empty: string[] = [];
  let first: FirstTiles['first'] = null;
  for (const layer of layers) {
    if (!layer.extent || !intersects(layer.extent, shown)) continue;
    const source = tileSource(layer.tileUrl, layer.name);
    const grid = source.getTileGrid();
    const urlOf = source.getTileUrlFunction();
    if (!grid) continue;
    const z = grid.getZForResolution(resolution, source.zDirection);
    const extent = layer.extent;
    grid.forEachTileCoord(shown, z, (coord) => {
      const url = urlOf(coord, 1, projection);
      if (url === undefined) return;
      const tile = grid.getTileCoordExtent(coord);
      if (intersects(inner(tile), extent)) {
        withData.push(url);
        first ??= { layer, centre: getCenter(tile) as [number, number] };
      } else empty.push(url);
    });
  }
  return { urls: [...withData, ...empty].slice(0, MAX_FIRST_TILES), resolution, first };
}

/**
 * Fetches the first tiles of the layers on a map of `size` ahead (tilesAhead.ts); with
 * `warmUpWhen` (which runs its function in an idle moment), then draws the first with data on
 * a map out of sight (warmUp.ts).
 */
export function prefetchFirstTiles(
  layers: readonly CanvasLayer[],
  size: [number, number],
  { warmUpWhen }: { warmUpWhen?: (draw: () => void) => unknown },
): void {
  const tiles = firstTiles(layers, size);
  for (const url of tiles.urls) fetchTileAhead(url);
  prepareStyles(layers.length);
  const first = tiles.first;
  if (warmUpWhen && first) {
    warmUpWhen(() => warmUpMap(first.layer, first.centre, tiles.resolution));
  }
}
