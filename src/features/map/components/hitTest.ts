/**
 * Which features a click found (issues 19 and 31): in every layer, topmost layer first, those
 * under the click, the nearest first: points and lines within a tolerance, polygons containing
 * the click. The first one (drawn on top) opens; the others are offered beside it. Worked out
 * from the features of the tiles drawn (`getFeaturesInExtent`), because OpenLayers' pixel hit
 * detection found nothing in the vector tiles loaded by our own loader.
 */
import type { Coordinate } from 'ol/coordinate';
import { boundingExtent, buffer } from 'ol/extent';
import type { FeatureLike } from 'ol/Feature';
import RenderFeature, { toGeometry } from 'ol/render/Feature';

/** A layer whose drawn features can be listed by extent (vector tile and vector layers). */
export interface FeatureSource {
  featuresIn(extent: number[]): FeatureLike[];
}

/** The features under `coordinate`, topmost layer first, the nearest first within a layer. */
export function featuresAt(
  layers: readonly FeatureSource[],
  coordinate: Coordinate,
  tolerance: number,
): FeatureLike[] {
  const [x = 0, y = 0] = coordinate;
  const extent = buffer(boundingExtent([coordinate]), tolerance);
  const found: FeatureLike[] = [];
  for (const layer of layers) {
    const here: { feature: FeatureLike; distance: number }[] = [];
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
      here.push({ feature, distance });
    }
    here.sort((a, b) => a.distance - b.distance);
    found.push(...here.map((item) => item.feature));
  }
  return found;
}

/** The feature a click chose: the first of `featuresAt`. */
export function featureAt(
  layers: readonly FeatureSource[],
  coordinate: Coordinate,
  tolerance: number,
): FeatureLike | undefined {
  return featuresAt(layers, coordinate, tolerance)[0];
}
