/**
 * Drawing a new feature (issue 34): a point from one tap (or the device's position), a line or
 * a polygon from vertices tapped one after another, with the last vertex undone and 'Finish'.
 * Pure: coordinates are plain `[x, y]` pairs in the map's projection (EPSG:3857); the map
 * (components/) feeds taps in and draws what this state holds.
 */

export type Coordinate = readonly [number, number];

/** What a layer's features are drawn as. */
export type DrawKind = 'point' | 'line' | 'polygon';

/**
 * The kind of a GeoPackage geometry type (gpkg_geometry_columns.geometry_type_name), or null
 * for a type that cannot be drawn by tapping (GEOMETRY, GEOMETRYCOLLECTION, curves).
 */
export function drawKindOf(geometryType: string): DrawKind | null {
  const type = geometryType.toUpperCase().replace(/[ZM]+$/, '');
  if (type === 'POINT' || type === 'MULTIPOINT') return 'point';
  if (type === 'LINESTRING' || type === 'MULTILINESTRING') return 'line';
  if (type === 'POLYGON' || type === 'MULTIPOLYGON') return 'polygon';
  return null;
}

/** Whether the layer's type is a MULTI… one (a drawn geometry is wrapped in it). */
export const isMultiType = (geometryType: string) => /^MULTI/i.test(geometryType.trim());

/** The vertices needed before 'Finish' for each kind. */
export const MIN_VERTICES: Record<DrawKind, number> = { point: 1, line: 2, polygon: 3 };

export interface DrawState {
  kind: DrawKind;
  vertices: Coordinate[];
}

export const startDrawing = (kind: DrawKind): DrawState => ({ kind, vertices: [] });

/** Adds a tapped vertex; a point has one, so a second tap moves it. */
export function addVertex(state: DrawState, at: Coordinate): DrawState {
  if (state.kind === 'point') return { ...state, vertices: [at] };
  const last = state.vertices[state.vertices.length - 1];
  // A double tap (the same place twice) adds one vertex, not two.
  if (last && last[0] === at[0] && last[1] === at[1]) return state;
  return { ...state, vertices: [...state.vertices, at] };
}

export function undoVertex(state: DrawState): DrawState {
  return { ...state, vertices: state.vertices.slice(0, -1) };
}

export const canFinish = (state: DrawState) => state.vertices.length >= MIN_VERTICES[state.kind];

/** A GeoJSON-like geometry: type and coordinates (RFC 7946 shapes, in any projection). */
export type Geometry =
  | { type: 'Point'; coordinates: number[] }
  | { type: 'MultiPoint'; coordinates: number[][] }
  | { type: 'LineString'; coordinates: number[][] }
  | { type: 'MultiLineString'; coordinates: number[][][] }
  | { type: 'Polygon'; coordinates: number[][][] }
  | { type: 'MultiPolygon'; coordinates: number[][][][] };

/** The drawn geometry (null before 'Finish' is possible); polygons are closed rings. */
export function drawnGeometry(state: DrawState, multi: boolean): Geometry | null {
  if (!canFinish(state)) return null;
  const vertices = state.vertices.map(([x, y]) => [x, y]);
  switch (state.kind) {
    case 'point': {
      const point = vertices[0] as number[];
      return multi
        ? { type: 'MultiPoint', coordinates: [point] }
        : { type: 'Point', coordinates: point };
    }
    case 'line':
      return multi
        ? { type: 'MultiLineString', coordinates: [vertices] }
        : { type: 'LineString', coordinates: vertices };
    case 'polygon': {
      const ring = [...vertices, [...(vertices[0] as number[])]];
      return multi
        ? { type: 'MultiPolygon', coordinates: [[ring]] }
        : { type: 'Polygon', coordinates: [ring] };
    }
  }
}

/** Every coordinate of a geometry through `map` (projection, translation). */
export function mapCoordinates(
  geometry: Geometry,
  map: (coordinate: number[]) => number[],
): Geometry {
  switch (geometry.type) {
    case 'Point':
      return { type: 'Point', coordinates: map(geometry.coordinates) };
    case 'MultiPoint':
    case 'LineString':
      return { type: geometry.type, coordinates: geometry.coordinates.map(map) };
    case 'MultiLineString':
    case 'Polygon':
      return {
        type: geometry.type,
        coordinates: geometry.coordinates.map((part) => part.map(map)),
      };
    case 'MultiPolygon':
      return {
        type: 'MultiPolygon',
        coordinates: geometry.coordinates.map((polygon) => polygon.map((ring) => ring.map(map))),
      };
  }
}

/** The geometry moved by `dx`, `dy`. */
export const translate = (geometry: Geometry, dx: number, dy: number): Geometry =>
  mapCoordinates(geometry, ([x = 0, y = 0, ...rest]) => [x + dx, y + dy, ...rest]);

/**
 * The vertices one can move, each once: a polygon ring's closing vertex is its first one (moving
 * the first moves both). A path is the index chain into `coordinates`.
 */
export function vertexPaths(geometry: Geometry): number[][] {
  switch (geometry.type) {
    case 'Point':
      return [[]];
    case 'MultiPoint':
    case 'LineString':
      return geometry.coordinates.map((_, i) => [i]);
    case 'MultiLineString':
      return geometry.coordinates.flatMap((line, l) => line.map((_, i) => [l, i]));
    case 'Polygon':
      return geometry.coordinates.flatMap((ring, r) => ring.slice(0, -1).map((_, i) => [r, i]));
    case 'MultiPolygon':
      return geometry.coordinates.flatMap((polygon, p) =>
        polygon.flatMap((ring, r) => ring.slice(0, -1).map((_, i) => [p, r, i])),
      );
  }
}

/** The vertex at a path (see vertexPaths). */
export function vertexAt(geometry: Geometry, path: readonly number[]): number[] | undefined {
  let node: unknown = geometry.coordinates;
  for (const index of path) node = (node as unknown[])[index];
  return Array.isArray(node) && typeof node[0] === 'number' ? (node as number[]) : undefined;
}

/** The geometry with the vertex at `path` moved to `to` (a ring stays closed). */
export function moveVertex(geometry: Geometry, path: readonly number[], to: Coordinate): Geometry {
  const copy = structuredClone(geometry);
  if (copy.type === 'Point') {
    copy.coordinates = [to[0], to[1], ...copy.coordinates.slice(2)];
    return copy;
  }
  const parents: unknown[][] = [];
  let node: unknown = copy.coordinates;
  for (const index of path.slice(0, -1)) {
    parents.push(node as unknown[]);
    node = (node as unknown[])[index];
  }
  const list = node as number[][];
  const index = path[path.length - 1] as number;
  const old = list[index];
  if (!old) return geometry;
  const moved = [to[0], to[1], ...old.slice(2)];
  list[index] = moved;
  const isRing = copy.type === 'Polygon' || copy.type === 'MultiPolygon';
  if (isRing && index === 0 && list.length > 1) list[list.length - 1] = [...moved];
  return copy;
}
