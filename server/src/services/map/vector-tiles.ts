/**
 * The tiles of line, polygon and other non-point layers, built in the map reader (reader.ts):
 * the features whose box meets the tile (the spatial index, GeoPackage's or SpatiaLite's
 * R*Tree, or a scan of the geometries' headers when there is none), reprojected to lon/lat
 * and cut by geojson-vt. Lines and polygons smaller than half a pixel at the tile's zoom are
 * left out.
 */
import GeoJSONVT from 'geojson-vt';
import type { Feature, FeatureCollection, Geometry } from 'geojson';
import type Database from 'better-sqlite3';
import type { VtFeature } from 'vt-pbf';
import type { Extent } from '../../schemas/map';
import { TILE_EXTENT } from '../../schemas/map';
import { transformExtent } from './crs';
import { decodeGeometry, geometryExtent, headerEnvelope, toGeoJson } from './geometry';
import { q, type LayerInfo } from './gpkg';
import { encodeTile, TILE_BUFFER, unitBox, unitToLonLat, type TileAddress } from './mvt';

/** Most features read for one tile of a line or polygon layer. */
export const MAX_TILE_FEATURES = 50_000;

const LINEAL_OR_AREAL = new Set([
  'LINESTRING',
  'POLYGON',
  'MULTILINESTRING',
  'MULTIPOLYGON',
  'CIRCULARSTRING',
  'COMPOUNDCURVE',
  'CURVEPOLYGON',
  'MULTICURVE',
  'MULTISURFACE',
]);

function intersect(a: Extent, b: Extent): Extent | null {
  const out = [
    Math.max(a[0]!, b[0]!),
    Math.max(a[1]!, b[1]!),
    Math.min(a[2]!, b[2]!),
    Math.min(a[3]!, b[3]!),
  ];
  return out[0]! <= out[2]! && out[1]! <= out[3]! ? out : null;
}

/** The features of a non-point layer whose box meets `box` (layer CRS). */
function featuresInBox(
  db: Database.Database,
  layer: LayerInfo,
  box: Extent,
  minSize: number,
): Feature<Geometry>[] {
  const transform = layer.transform!;
  const [minx, miny, maxx, maxy] = box as [number, number, number, number];
  const skipSmall = LINEAL_OR_AREAL.has(layer.geometryType);
  const features: Feature<Geometry>[] = [];
  const add = (fid: number, blob: unknown) => {
    const wkb = decodeGeometry(blob);
    const geometry = wkb && toGeoJson(wkb, transform.toLonLat);
    if (!geometry) return;
    features.push({
      type: 'Feature',
      id: fid,
      properties: { fid },
      geometry: geometry as Geometry,
    });
  };
  const select = `SELECT t.${q(layer.fidColumn)}, t.${q(layer.geometryColumn)} FROM ${q(layer.name)} t`;
  const index = layer.index;
  if (index) {
    const [x0, x1, y0, y1] = [index.minx, index.maxx, index.miny, index.maxy].map(
      (column) => `r.${q(column)}`,
    );
    const size = skipSmall ? `AND (${x1} - ${x0} >= ? OR ${y1} - ${y0} >= ?)` : '';
    const params = [maxx, minx, maxy, miny, ...(skipSmall ? [minSize, minSize] : [])];
    const rows = db
      .prepare(
        `${select} JOIN ${q(index.table)} r ON r.${q(index.id)} = t.${q(layer.fidColumn)}
          WHERE ${x0} <= ? AND ${x1} >= ? AND ${y0} <= ? AND ${y1} >= ? ${size} LIMIT ?`,
      )
      .raw()
      .iterate(...params, MAX_TILE_FEATURES) as Iterable<[number, unknown]>;
    for (const [fid, blob] of rows) add(fid, blob);
    return features;
  }
  const rows = db.prepare(select).raw().iterate() as Iterable<[number, unknown]>;
  for (const [fid, blob] of rows) {
    let env = headerEnvelope(blob);
    if (!env) {
      const wkb = decodeGeometry(blob);
      env = wkb && geometryExtent(wkb, (x, y) => [x, y]);
    }
    if (!env || env[0]! > maxx || env[2]! < minx || env[1]! > maxy || env[3]! < miny) continue;
    if (skipSmall && env[2]! - env[0]! < minSize && env[3]! - env[1]! < minSize) continue;
    add(fid, blob);
    if (features.length >= MAX_TILE_FEATURES) break;
  }
  return features;
}

function vectorFeatures(db: Database.Database, layer: LayerInfo, tile: TileAddress): VtFeature[] {
  const box = unitBox(tile);
  const [west, north] = unitToLonLat(box[0]!, box[1]!);
  const [east, south] = unitToLonLat(box[2]!, box[3]!);
  const area = layer.extent4326 && intersect([west, south, east, north], layer.extent4326);
  if (!area) return [];
  const local = transformExtent(area, layer.transform!.fromLonLat);
  if (!local) return [];
  // Half a pixel of a 256-pixel tile, in the layer's units (measured across the tile).
  const tileWidth = transformExtent(
    [...unitToLonLat(tile.x / 2 ** tile.z, 0.5), ...unitToLonLat((tile.x + 1) / 2 ** tile.z, 0.5)],
    layer.transform!.fromLonLat,
  );
  const minSize = tileWidth ? Math.abs(tileWidth[2]! - tileWidth[0]!) / 512 : 0;
  const features = featuresInBox(db, layer, local, minSize);
  if (features.length === 0) return [];
  const collection: FeatureCollection = { type: 'FeatureCollection', features };
  const index = new GeoJSONVT(collection, {
    maxZoom: tile.z,
    indexMaxZoom: 0,
    buffer: TILE_BUFFER,
    extent: TILE_EXTENT,
  });
  return (index.getTile(tile.z, tile.x, tile.y)?.features ?? []) as VtFeature[];
}

/** The MVT bytes of a tile of a drawable non-point layer; null when it holds no feature. */
export function vectorTile(
  db: Database.Database,
  layer: LayerInfo,
  tile: TileAddress,
): Buffer | null {
  return encodeTile(layer.name, vectorFeatures(db, layer, tile));
}
