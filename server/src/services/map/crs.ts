/**
 * Coordinate reference systems of GeoPackage layers (gpkg_spatial_ref_sys): a transform to
 * and from lon/lat (EPSG:4326), built with proj4 from the file's own WKT definition, except
 * for EPSG:4326 and EPSG:3857 (and the undefined geographic system, srs_id 0), which need
 * none. Web Mercator (EPSG:3857) and the normalised Mercator of tiles are computed here.
 */
import proj4 from 'proj4';
import type { Extent } from '../../schemas/map';

/** Half the width of the Web Mercator world, in metres. */
export const MERCATOR_HALF = 20037508.342789244;
/** Latitude limit of Web Mercator. */
export const MAX_LATITUDE = 85.0511287798066;

/** Layer CRS ⇄ lon/lat. */
export interface LayerTransform {
  toLonLat(x: number, y: number): [number, number];
  fromLonLat(lon: number, lat: number): [number, number];
}

export interface SrsRow {
  srs_id: number;
  srs_name: string | null;
  organization: string | null;
  organization_coordsys_id: number | null;
  definition: string | null;
}

const identity: LayerTransform = {
  toLonLat: (x, y) => [x, y],
  fromLonLat: (lon, lat) => [lon, lat],
};

const webMercator: LayerTransform = {
  toLonLat: (x, y) => [
    (x / MERCATOR_HALF) * 180,
    (Math.atan(Math.exp((y / MERCATOR_HALF) * Math.PI)) * 360) / Math.PI - 90,
  ],
  fromLonLat: (lon, lat) => lonLatTo3857(lon, lat),
};

/** lon/lat → EPSG:3857 metres (latitude clamped to the Mercator limit). */
export function lonLatTo3857(lon: number, lat: number): [number, number] {
  const clamped = Math.max(-MAX_LATITUDE, Math.min(MAX_LATITUDE, lat));
  const sin = Math.sin((clamped * Math.PI) / 180);
  return [
    (lon / 180) * MERCATOR_HALF,
    (Math.log((1 + sin) / (1 - sin)) / (2 * Math.PI)) * MERCATOR_HALF,
  ];
}

/** lon/lat → the tile grid's unit square (x right, y down, 0…1). */
export function lonLatToUnit(lon: number, lat: number): [number, number] {
  const [mx, my] = lonLatTo3857(lon, lat);
  return [(mx / MERCATOR_HALF + 1) / 2, (1 - my / MERCATOR_HALF) / 2];
}

/** `EPSG:2180` from the organization and its code; null when the file does not say. */
export function crsCode(row: SrsRow | undefined): string | null {
  if (!row?.organization || row.organization_coordsys_id === null) return null;
  if (row.organization.toUpperCase() === 'NONE') return null;
  return `${row.organization.toUpperCase()}:${row.organization_coordsys_id}`;
}

function finite(point: number[]): boolean {
  return point.every((value) => Number.isFinite(value));
}

/**
 * The transform of a layer's CRS, or null when it cannot be reprojected (srs_id -1, an
 * unknown or unparsable definition).
 */
export function layerTransform(srsId: number, row: SrsRow | undefined): LayerTransform | null {
  if (srsId === 0) return identity;
  const code = crsCode(row);
  if (code === 'EPSG:4326') return identity;
  if (code === 'EPSG:3857' || code === 'EPSG:900913') return webMercator;
  const definition = row?.definition?.trim();
  if (!definition || definition.toLowerCase() === 'undefined') return null;
  let converter: proj4.Converter;
  try {
    converter = proj4(definition, 'EPSG:4326');
    // A definition proj4 reads but cannot compute with fails here, not on the first tile.
    if (!finite(converter.forward([0, 0])) && !finite(converter.inverse([0, 0]))) return null;
  } catch {
    return null;
  }
  return {
    toLonLat: (x, y) => converter.forward([x, y]) as [number, number],
    fromLonLat: (lon, lat) => converter.inverse([lon, lat]) as [number, number],
  };
}

/**
 * An extent through a point transform: the box around its edges sampled at `steps` points
 * each (a projected box is curved in lon/lat); null when no sample transforms.
 */
export function transformExtent(
  extent: Extent,
  transform: (x: number, y: number) => [number, number],
  steps = 16,
): Extent | null {
  const [minx, miny, maxx, maxy] = extent as [number, number, number, number];
  const out = [Infinity, Infinity, -Infinity, -Infinity];
  const add = (x: number, y: number) => {
    const p = transform(x, y);
    if (!finite(p)) return;
    out[0] = Math.min(out[0]!, p[0]);
    out[1] = Math.min(out[1]!, p[1]);
    out[2] = Math.max(out[2]!, p[0]);
    out[3] = Math.max(out[3]!, p[1]);
  };
  for (let i = 0; i <= steps; i++) {
    const fx = minx + ((maxx - minx) * i) / steps;
    const fy = miny + ((maxy - miny) * i) / steps;
    add(fx, miny);
    add(fx, maxy);
    add(minx, fy);
    add(maxx, fy);
  }
  return finite(out) ? out : null;
}

/** A lon/lat extent in EPSG:3857. */
export function extentTo3857(extent: Extent): Extent {
  const [minx, miny] = lonLatTo3857(extent[0]!, extent[1]!);
  const [maxx, maxy] = lonLatTo3857(extent[2]!, extent[3]!);
  return [minx, miny, maxx, maxy];
}
