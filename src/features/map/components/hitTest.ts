/**
 * Which feature a click chose (issue 19): the topmost layer's feature under the click, the
 * nearest one for points and lines within a tolerance, the one containing the click for
 * polygons. Worked out from the features of the tiles drawn (`getFeaturesInExtent`), because
 * OpenLayers' pixel hit detection found nothing in the vector tiles loaded by our own loader.
 */
import type { Coordinate } from 'ol/coordinate';
import { boundingExtent, buffer } from 'ol/extent';
import type { FeatureLike } from 'ol/Feature';
import RenderFeature, { toGeometry } from 'ol/render/Feature';

/** A layer whose drawn features can be listed by extent (vector tile and vector layers). */
export interface FeatureSource {
  featuresIn(extent: number[]): FeatureLike[];
}

export function featureAt(
  layers: readonly FeatureSource[],
  coordinate: Coordinate,
  tolerance: number,
): FeatureLike | undefined {
  const [x = 0, y = 0] = coordinate;
  const extent = buffer(boundingExtent([coordinate]), tolerance);
  for (const layer of layers) {
    let best: { feature: FeatureLike; distance: number } | undefined;
    for (const feature of layer.featuresIn(extent)) {
      const geometry =
        feature instanceof RenderFeature ? toGeometry(feature) : feature.getGeometry();
      if (!geometry) continue;
      const type = geometry.getType();
      let distance: number;
      if (
        (type === 'Polygon' || type === 'MultiPolygon') &&
        geometry.intersectsCoordinate(coordinate)
      ) {
        distance = tolerance;
      } else {
        const [cx = Infinity, cy = Infinity] = geometry.getClosestPoint(coordinate);
        distance = Math.hypot(cx - x, cy - y);
        if (distance > tolerance) continue;
      }
      if (!best || distance < best.distance) best = { feature, distance };
    }
    if (best) return best.feature;
  }
  return undefined;
}
