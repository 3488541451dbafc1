/**
 * The map drawn once out of sight before the Map tab opens (issue 19: the first frame with
 * features counts from the click on the tab). A page that never drew a map runs OpenLayers'
 * code for the first time when the tab opens: each function compiled on its first call, none
 * yet optimised. Drawing the first tile with data, fetched ahead, on a small map out of sight
 * in an idle moment runs that code (making a map, decoding a tile, building and replaying
 * its points) before, so the tab's map runs it warm. The tile is read, not taken: it still
 * waits for the tab's map (tilesAhead.ts).
 */
import View from 'ol/View';
import type { CanvasLayer } from '../model/layers';
import { layerColour } from '../model/colours';
import { createMap, MAX_ZOOM, tileLayer, tileSource } from './mapSetup';
import { styleOf } from './styles';
import { fetchTileBody, peekTileBody } from './tilesAhead';

/** The out-of-sight map's size (px): one tile's worth around the tile's centre. */
const SIZE_PX = 128;
/** How long the out-of-sight map may take before it is let go unfinished (ms). */
const GIVE_UP_MS = 10_000;

let warmed = false;

/**
 * Draws `layer`'s tile at `centre` (EPSG:3857) at `resolution` out of sight, once a page (the
 * caller chooses the idle moment).
 */
export function warmUpMap(layer: CanvasLayer, centre: [number, number], resolution: number): void {
  if (warmed) return;
  warmed = true;
  const element = document.createElement('div');
  element.setAttribute('aria-hidden', 'true');
  element.style.cssText = `position:fixed;left:-${4 * SIZE_PX}px;top:0;width:${SIZE_PX}px;height:${SIZE_PX}px;visibility:hidden;pointer-events:none`;
  document.body.append(element);
  const map = createMap(element, new View({ center: centre, resolution, maxZoom: MAX_ZOOM }));
  const done = () => {
    clearTimeout(giveUp);
    map.setTarget(undefined);
    map.dispose();
    element.remove();
  };
  const giveUp = setTimeout(done, GIVE_UP_MS);
  map.once('rendercomplete', done);
  const source = tileSource(layer.tileUrl, layer.name, {
    // The tiles fetched ahead are left for the tab's map.
    bodyOf: (url) => peekTileBody(url) ?? fetchTileBody(url),
    onFeatures: () => map.renderSync(),
  });
  map.addLayer(tileLayer(source, styleOf(layerColour(layer.colourIndex)), layer.points));
}
