/**
 * Geometries in lon/lat for the formats that need them: GeoJSON as RFC 7946 wants it
 * (polygons by the right-hand rule: exterior rings counter-clockwise, holes clockwise) and KML
 * (its elements written from the same GeoJSON geometry).
 */
import type { GeoJsonGeometry } from '../../schemas/map';

type Position = [number, number];

/** Twice the signed area of a ring (positive: counter-clockwise). */
function signedArea(ring: Position[]): number {
  let sum = 0;
  for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
    sum += (ring[j]![0] - ring[i]![0]) * (ring[j]![1] + ring[i]![1]);
  }
  return sum;
}

function wind(rings: Position[][]): void {
  rings.forEach((ring, i) => {
    const area = signedArea(ring);
    // Exterior counter-clockwise (area > 0), holes clockwise.
    if ((i === 0 && area < 0) || (i > 0 && area > 0)) ring.reverse();
  });
}

/** Winds a GeoJSON geometry's polygons by the right-hand rule, in place. */
export function rightHandRule(geometry: GeoJsonGeometry): GeoJsonGeometry {
  if (geometry.type === 'Polygon') wind(geometry.coordinates as Position[][]);
  else if (geometry.type === 'MultiPolygon') {
    for (const polygon of geometry.coordinates as Position[][][]) wind(polygon);
  } else if (geometry.type === 'GeometryCollection') {
    for (const member of geometry.geometries ?? []) rightHandRule(member);
  }
  return geometry;
}

const coordinates = (points: Position[]) =>
  `<coordinates>${points.map(([x, y]) => `${x},${y}`).join(' ')}</coordinates>`;

const ring = (points: Position[]) => `<LinearRing>${coordinates(points)}</LinearRing>`;

function polygon(rings: Position[][]): string {
  const [outer, ...inner] = rings;
  if (!outer) return '';
  return `<Polygon><outerBoundaryIs>${ring(outer)}</outerBoundaryIs>${inner
    .map((hole) => `<innerBoundaryIs>${ring(hole)}</innerBoundaryIs>`)
    .join('')}</Polygon>`;
}

/** A GeoJSON geometry as a KML geometry element. */
export function kmlGeometry(geometry: GeoJsonGeometry): string {
  const c = geometry.coordinates;
  switch (geometry.type) {
    case 'Point':
      return `<Point>${coordinates([c as Position])}</Point>`;
    case 'LineString':
      return `<LineString>${coordinates(c as Position[])}</LineString>`;
    case 'Polygon':
      return polygon(c as Position[][]);
    case 'MultiPoint':
      return `<MultiGeometry>${(c as Position[])
        .map((p) => `<Point>${coordinates([p])}</Point>`)
        .join('')}</MultiGeometry>`;
    case 'MultiLineString':
      return `<MultiGeometry>${(c as Position[][])
        .map((l) => `<LineString>${coordinates(l)}</LineString>`)
        .join('')}</MultiGeometry>`;
    case 'MultiPolygon':
      return `<MultiGeometry>${(c as Position[][][]).map(polygon).join('')}</MultiGeometry>`;
    case 'GeometryCollection':
      return `<MultiGeometry>${(geometry.geometries ?? []).map(kmlGeometry).join('')}</MultiGeometry>`;
    default:
      return '';
  }
}
