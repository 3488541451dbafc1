/**
 * Mapbox Vector Tiles (v2, extent TILE_EXTENT, EPSG:3857, XYZ) of a layer, built per tile
 * and kept in a memory LRU keyed by the file's content:
 *
 * - POINT layers: from the thinned point index (points.ts), built once per layer; a tile
 *   holds at most one point per 8×8-pixel cell (POINT_ZOOM_LAG), so its cost does not grow
 *   with the layer.
 * - Other layers: the features whose box meets the tile (the spatial index, GeoPackage's or
 *   SpatiaLite's R*Tree, or a scan of the geometries' headers when there is none),
 *   reprojected to lon/lat and cut by geojson-vt.
 *   Lines and polygons smaller than half a pixel at the tile's zoom are left out.
 *
 * Each feature's MVT id is its fid (when it is a non-negative integer) and it carries the
 * property `fid`. An empty tile is null (the route answers 204).
 */
import GeoJSONVT from 'geojson-vt';
import type { Feature, FeatureCollection, Geometry } from 'geojson';
import { fromGeojsonVt, type VtFeature } from 'vt-pbf';
import type { Extent } from '../../schemas/map';
import { TILE_EXTENT } from '../../schemas/map';
import { transformExtent, MAX_LATITUDE } from './crs';
import { decodeGeometry, geometryExtent, headerEnvelope, toGeoJson } from './geometry';
import { q, type LayerInfo } from './gpkg';
import { Lru } from './lru';
import { pointsInBox, type PointIndex } from './points';
import { buildPointIndexInThread } from './points-thread';
import type { MapFile } from './store';

/** Buffer around a tile, in tile units (as geojson-vt's default). */
export const TILE_BUFFER = 64;
/** Most features read for one tile of a line or polygon layer. */
export const MAX_TILE_FEATURES = 50_000;
/** Memory for tiles kept (bytes) and for point indexes (points). */
const TILE_CACHE_BYTES = 64 * 1024 ** 2;
const POINT_INDEX_POINTS = 10_000_000;

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

export interface TileAddress {
  z: number;
  x: number;
  y: number;
}

/** Process-wide: the keys start with the file's SHA-1, so they hold for any app or version. */
const tileCache = new Lru<Buffer | null>(TILE_CACHE_BYTES);
const pointIndexes = new Lru<PointIndex>(POINT_INDEX_POINTS);
/** Point indexes being built, by the same keys. */
const pointIndexBuilds = new Map<string, Promise<PointIndex>>();

const layerKeyOf = (checksum: string, layer: string) => `${checksum}\u0000${layer}`;

/**
 * The point index of a layer of a file (checksum, the copy's path), built once in the worker
 * thread whoever asks first (a tile, the layers list, a push; a small layer here while the
 * worker loads, points-thread.ts); kept in memory by content.
 */
export function pointIndexOf(
  file: { checksum: string; path: string },
  layer: Pick<LayerInfo, 'name' | 'featureCount'>,
): Promise<PointIndex> {
  const key = layerKeyOf(file.checksum, layer.name);
  const built = pointIndexes.get(key);
  if (built) return Promise.resolve(built);
  let building = pointIndexBuilds.get(key);
  if (!building) {
    building = buildPointIndexInThread({ file: file.path, layer: layer.name }, layer.featureCount)
      .then((index) => {
        pointIndexes.set(key, index, index.count + 1);
        return index;
      })
      .finally(() => pointIndexBuilds.delete(key));
    pointIndexBuilds.set(key, building);
  }
  return building;
}

/** The point index of a layer when it is built and kept (nothing is built). */
export function keptPointIndex(checksum: string, layer: string): PointIndex | undefined {
  return pointIndexes.get(layerKeyOf(checksum, layer));
}

/** The drawable point layers of a file, whose tiles come from a point index. */
export function pointLayers(file: MapFile): LayerInfo[] {
  return [...file.layers.values()].filter(
    (layer) => layer.geometryType === 'POINT' && layer.transform,
  );
}

/** The tile (with its buffer) in the unit square. */
function unitBox({ z, x, y }: TileAddress): number[] {
  const size = 2 ** z;
  const b = TILE_BUFFER / TILE_EXTENT;
  return [(x - b) / size, (y - b) / size, (x + 1 + b) / size, (y + 1 + b) / size];
}

function unitToLonLat(ux: number, uy: number): [number, number] {
  const lon = ux * 360 - 180;
  const lat = (Math.atan(Math.sinh(Math.PI * (1 - 2 * uy))) * 180) / Math.PI;
  return [lon, Math.max(-MAX_LATITUDE, Math.min(MAX_LATITUDE, lat))];
}

function encode(layer: string, features: VtFeature[]): Buffer | null {
  if (features.length === 0) return null;
  const bytes = fromGeojsonVt({ [layer]: { features } }, { version: 2, extent: TILE_EXTENT });
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

const mvtId = (fid: number) => (Number.isSafeInteger(fid) && fid >= 0 ? fid : undefined);

/**
 * Zooms the points of a tile lag behind it: a tile at zoom z shows the points the index shows
 * at z - POINT_ZOOM_LAG, one per 8×8-pixel cell (the index's 4×4-pixel cells one zoom up). The
 * map's point symbols are 12 pixels wide, so it looks the same, and a tile holds at most 1,024
 * points instead of 4,096: drawing them was most of a dense layer's first frame in the browser
 * (bench/map-profile.ts). Every point is still shown from zoom THIN_MAX_ZOOM + 1 + lag.
 */
export const POINT_ZOOM_LAG = 1;

function pointTile(index: PointIndex, tile: TileAddress): VtFeature[] {
  const size = 2 ** tile.z;
  const shownAt = Math.max(0, tile.z - POINT_ZOOM_LAG);
  return pointsInBox(index, shownAt, unitBox(tile)).map((p) => ({
    id: mvtId(p.fid),
    type: 1,
    geometry: [
      [
        Math.round((p.x * size - tile.x) * TILE_EXTENT),
        Math.round((p.y * size - tile.y) * TILE_EXTENT),
      ],
    ],
    tags: { fid: p.fid },
  }));
}

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
  file: MapFile,
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
    const rows = file.db
      .prepare(
        `${select} JOIN ${q(index.table)} r ON r.${q(index.id)} = t.${q(layer.fidColumn)}
          WHERE ${x0} <= ? AND ${x1} >= ? AND ${y0} <= ? AND ${y1} >= ? ${size} LIMIT ?`,
      )
      .raw()
      .iterate(...params, MAX_TILE_FEATURES) as Iterable<[number, unknown]>;
    for (const [fid, blob] of rows) add(fid, blob);
    return features;
  }
  const rows = file.db.prepare(select).raw().iterate() as Iterable<[number, unknown]>;
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

function vectorTile(file: MapFile, layer: LayerInfo, tile: TileAddress): VtFeature[] {
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
  const features = featuresInBox(file, layer, local, minSize);
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

/** The MVT bytes of a tile of a drawable layer; null when it holds no feature. */
export async function renderTile(
  file: MapFile,
  layer: LayerInfo,
  tile: TileAddress,
): Promise<Buffer | null> {
  const key = `${layerKeyOf(file.checksum, layer.name)}\u0000${tile.z}/${tile.x}/${tile.y}`;
  const cached = tileCache.get(key);
  if (cached !== undefined) return cached;
  let features: VtFeature[];
  if (layer.geometryType === 'POINT') {
    features = pointTile(await pointIndexOf(file, layer), tile);
  } else {
    features = vectorTile(file, layer, tile);
  }
  const bytes = encode(layer.name, features);
  tileCache.set(key, bytes, (bytes?.length ?? 0) + 64);
  return bytes;
}
