import { describe, expect, it } from 'vitest';
import {
  addVertex,
  canFinish,
  drawKindOf,
  drawnGeometry,
  isMultiType,
  moveVertex,
  startDrawing,
  translate,
  undoVertex,
  vertexAt,
  vertexPaths,
  type Geometry,
} from './drawing';

describe('drawKindOf', () => {
  it('names what a layer type is drawn as, and refuses types one cannot tap', () => {
    expect(drawKindOf('POINT')).toBe('point');
    expect(drawKindOf('MultiPoint')).toBe('point');
    expect(drawKindOf('LINESTRINGZ')).toBe('line');
    expect(drawKindOf('MULTIPOLYGON')).toBe('polygon');
    expect(drawKindOf('POLYGONZM')).toBe('polygon');
    expect(drawKindOf('GEOMETRY')).toBeNull();
    expect(drawKindOf('CURVEPOLYGON')).toBeNull();
    expect(isMultiType('MULTIPOLYGON')).toBe(true);
    expect(isMultiType('POLYGON')).toBe(false);
  });
});

describe('drawing', () => {
  it('a point has one vertex: a second tap moves it', () => {
    let state = startDrawing('point');
    expect(canFinish(state)).toBe(false);
    state = addVertex(state, [1, 2]);
    state = addVertex(state, [3, 4]);
    expect(state.vertices).toEqual([[3, 4]]);
    expect(drawnGeometry(state, false)).toEqual({ type: 'Point', coordinates: [3, 4] });
    expect(drawnGeometry(state, true)).toEqual({ type: 'MultiPoint', coordinates: [[3, 4]] });
  });

  it('a line needs two vertices; undo takes the last one off; a double tap adds one', () => {
    let state = startDrawing('line');
    state = addVertex(state, [0, 0]);
    expect(canFinish(state)).toBe(false);
    expect(drawnGeometry(state, false)).toBeNull();
    state = addVertex(state, [1, 1]);
    state = addVertex(state, [1, 1]);
    expect(state.vertices).toHaveLength(2);
    state = addVertex(state, [2, 0]);
    state = undoVertex(state);
    expect(drawnGeometry(state, false)).toEqual({
      type: 'LineString',
      coordinates: [
        [0, 0],
        [1, 1],
      ],
    });
    expect(undoVertex(undoVertex(undoVertex(state))).vertices).toEqual([]);
  });

  it('a polygon needs three vertices and comes out as a closed ring', () => {
    let state = startDrawing('polygon');
    state = addVertex(addVertex(state, [0, 0]), [4, 0]);
    expect(canFinish(state)).toBe(false);
    state = addVertex(state, [4, 3]);
    const ring = [
      [0, 0],
      [4, 0],
      [4, 3],
      [0, 0],
    ];
    expect(drawnGeometry(state, false)).toEqual({ type: 'Polygon', coordinates: [ring] });
    expect(drawnGeometry(state, true)).toEqual({ type: 'MultiPolygon', coordinates: [[ring]] });
  });
});

describe('editing a geometry', () => {
  const polygon: Geometry = {
    type: 'Polygon',
    coordinates: [
      [
        [0, 0],
        [4, 0],
        [4, 3],
        [0, 0],
      ],
    ],
  };

  it('moves every vertex by the same offset, keeping a third ordinate', () => {
    expect(translate({ type: 'Point', coordinates: [1, 2, 7] }, 10, -1)).toEqual({
      type: 'Point',
      coordinates: [11, 1, 7],
    });
    expect(translate(polygon, 1, 1).coordinates).toEqual([
      [
        [1, 1],
        [5, 1],
        [5, 4],
        [1, 1],
      ],
    ]);
  });

  it('lists each vertex once (not a ring’s closing one) and moves one, the ring kept closed', () => {
    const paths = vertexPaths(polygon);
    expect(paths).toEqual([
      [0, 0],
      [0, 1],
      [0, 2],
    ]);
    const moved = moveVertex(polygon, [0, 0], [-1, -1]);
    expect(moved.coordinates).toEqual([
      [
        [-1, -1],
        [4, 0],
        [4, 3],
        [-1, -1],
      ],
    ]);
    // The original is left as it was.
    expect(vertexAt(polygon, [0, 0])).toEqual([0, 0]);
    expect(vertexAt(moved, [0, 2])).toEqual([4, 3]);
  });

  it('handles points, lines and multi geometries', () => {
    expect(vertexPaths({ type: 'Point', coordinates: [1, 2] })).toEqual([[]]);
    expect(moveVertex({ type: 'Point', coordinates: [1, 2] }, [], [5, 6])).toEqual({
      type: 'Point',
      coordinates: [5, 6],
    });
    const multi: Geometry = {
      type: 'MultiPolygon',
      coordinates: [
        [
          [
            [0, 0],
            [1, 0],
            [1, 1],
            [0, 0],
          ],
        ],
      ],
    };
    expect(vertexPaths(multi)).toHaveLength(3);
    expect(vertexAt(moveVertex(multi, [0, 0, 1], [2, 0]), [0, 0, 1])).toEqual([2, 0]);
    const line: Geometry = {
      type: 'LineString',
      coordinates: [
        [0, 0],
        [1, 1],
      ],
    };
    expect(moveVertex(line, [1], [3, 3]).coordinates).toEqual([
      [0, 0],
      [3, 3],
    ]);
  });
});
