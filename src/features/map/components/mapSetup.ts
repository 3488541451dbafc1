/**
 * How the map is made, shared by the map (MapCanvas) and what prepares it before the tab opens
 * (firstTiles.ts, warmUp.ts), so both make the same map and ask for the same tiles: the map
 * with its interactions, its zoom range, how it fits the data on open, a layer's tile source.
 */
import type { FeatureLike } from 'ol/Feature';
import MVT from 'ol/format/MVT';
import { defaults as defaultInteractions } from 'ol/interaction/defaults';
import VectorTileLayer from 'ol/layer/VectorTile';
import OlMap from 'ol/Map';
import VectorTileSource from 'ol/source/VectorTile';
import type Style from 'ol/style/Style';
import type { StyleFunction } from 'ol/style/Style';
import TileState from 'ol/TileState';
import type View from 'ol/View';
import type VectorTile from 'ol/VectorTile';
import { takeTileBody, type TileBody } from './tilesAhead';

/** The deepest zoom of the map's view and of its tile sources. */
export const MAX_ZOOM = 24;
/** Fitting the view to the data (on open, or a feature chosen in the table). */
export const FIT_PADDING = [40, 40, 40, 40];
export const FIT_MAX_ZOOM = 18;

/** A map in `target` showing `view`, with OpenLayers' controls and interactions. */
export function createMap(target: HTMLElement, view: View): OlMap {
  return new OlMap({
    target,
    // OpenLayers' own default pans and wheel-zooms only while a map element with a tabindex
    // (ours, for the keyboard) has the focus: a mouse press focuses it first, a finger does
    // not, so a one-finger swipe reached the browser and went back in history.
    interactions: defaultInteractions({ onFocusOnly: false }),
    view,
  });
}

/**
 * A vector tile layer of `source` drawn in `style`: points as vectors; lines and polygons drawn
 * into tile images (OpenLayers' 'hybrid'), unless the layer has `points` only, where a tile
 * image would hold nothing.
 */
export function tileLayer(
  source: VectorTileSource,
  style: StyleFunction | Style,
  points: boolean,
): VectorTileLayer {
  return new VectorTileLayer({ source, renderMode: points ? 'vector' : 'hybrid', style });
}

/** What a tile source is told and asked besides its URL template. */
export interface TileSourceOptions {
  /** Called when a tile with features has loaded. */
  onFeatures?: () => void;
  /** A tile's body by its URL (default: the one fetched ahead, else a request). */
  bodyOf?: (url: string) => Promise<TileBody>;
}

/** A layer's tiles (MVT, each feature's id its fid) from the server's URL template. */
export function tileSource(
  url: string,
  layer: string,
  { onFeatures, bodyOf = takeTileBody }: TileSourceOptions = {},
): VectorTileSource {
  const format = new MVT({ idProperty: 'fid', layers: [layer] });
  const source = new VectorTileSource({ format, url, maxZoom: MAX_ZOOM });
  // fetch (not OpenLayers' XHR): an empty tile is a 204 without body, and the service worker
  // answers fetches from what it kept when offline. The first tiles may have been fetched
  // ahead (firstTiles.ts).
  source.setTileLoadFunction((tile, src) => {
    const vectorTile = tile as VectorTile<FeatureLike>;
    vectorTile.setLoader((extent, _resolution, projection) => {
      bodyOf(src)
        .then((body) => {
          const features = body
            ? format.readFeatures(body, { extent, featureProjection: projection })
            : [];
          vectorTile.setFeatures(features);
          if (features.length > 0) onFeatures?.();
        })
        .catch(() => vectorTile.setState(TileState.ERROR));
    });
  });
  return source;
}
