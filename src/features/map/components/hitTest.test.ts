import Feature from 'ol/Feature';
import Point from 'ol/geom/Point';
import Polygon from 'ol/geom/Polygon';
import { describe, expect, it } from 'vitest';
import { drawOrder } from '../model/layers';
import { featureAt, featuresAt, type FeatureSource } from './hitTest';

const point = (name: string, at: [number, number]) =>
  new Feature({ name, geometry: new Point(at) });
const square = (name: string, [x0, y0, x1, y1]: [number, number, number, number]) =>
  new Feature({
    name,
    geometry: new Polygon([
      [
        [x0, y0],
        [x1, y0],
        [x1, y1],
        [x0, y1],
        [x0, y0],
      ],
    ]),
  });
const source = (...features: Feature[]): FeatureSource => ({ featuresIn: () => features });
const names = (found: ReturnType<typeof featuresAt>) => found.map((f) => f.get('name') as string);

describe('the features under a click (issue 31)', () => {
  const field = square('field', [0, 0, 100, 100]);
  const tree = point('tree', [50, 50]);
  const hazel = point('hazel', [53, 50]);

  it('lists every layer’s features under the click, topmost layer first, the nearest first', () => {
    const found = featuresAt([source(hazel, tree), source(field)], [51, 50], 6);
    expect(names(found)).toEqual(['tree', 'hazel', 'field']);
    expect(featureAt([source(hazel, tree), source(field)], [51, 50], 6)?.get('name')).toBe('tree');
  });

  it('leaves out points beyond the tolerance; inside the polygon only the polygon', () => {
    expect(names(featuresAt([source(tree), source(field)], [20, 20], 6))).toEqual(['field']);
    expect(names(featuresAt([source(tree), source(field)], [200, 200], 6))).toEqual([]);
  });
});

describe('the stacking of layers', () => {
  it('draws points over lines over polygons, whatever their order, so a point is never hidden', () => {
    const points = drawOrder({ points: true, lines: false, colourIndex: 5 });
    const lines = drawOrder({ points: false, lines: true, colourIndex: 0 });
    const polygons = drawOrder({ points: false, lines: false, colourIndex: 0 });
    expect(points).toBeGreaterThan(lines);
    expect(lines).toBeGreaterThan(polygons);
    // Within a kind, the layers in their order.
    expect(drawOrder({ points: false, colourIndex: 1 })).toBeLessThan(polygons);
  });
});
