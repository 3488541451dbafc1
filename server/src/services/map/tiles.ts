/**
 * Mapbox Vector Tiles (v2, extent TILE_EXTENT, EPSG:3857, XYZ) of a layer, built per tile
 * and kept in a memory LRU keyed by the file's content:
 *
 * - POINT layers: here, from the thinned point index (points.ts), built once per layer in the
 *   map reader and kept; a tile holds at most one point per 8×8-pixel cell (POINT_ZOOM_LAG),
 *   so its cost does not grow with the layer.
 * - Other layers: by the map reader (vector-tiles.ts), within its budget.
 *
 * Each feature's MVT id is its fid (when it is a non-negative integer) and it carries the
 * property `fid`. An empty tile is null (the route answers 204).
 */
import type { VtFeature } from 'vt-pbf';
import type { AppContext } from '../../context';
import { TILE_EXTENT, type MapLayer } from '../../schemas/map';
import { Lru } from './lru';
import { encodeTile, mvtId, unitBox, type TileAddress } from './mvt';
import { pointsInBox, type PointIndex } from './points';
import { LAYER_TOO_COMPLEX, readMap } from './read';
import type { MapFile } from './store';

export type { TileAddress } from './mvt';

/** Memory for tiles kept (bytes) and for point indexes (points). */
const TILE_CACHE_BYTES = 64 * 1024 ** 2;
const POINT_INDEX_POINTS = 10_000_000;

/** Process-wide: the keys start with the file's SHA-1, so they hold for any app or version. */
const tileCache = new Lru<Buffer | null>(TILE_CACHE_BYTES);
const pointIndexes = new Lru<PointIndex>(POINT_INDEX_POINTS);
/** Point indexes being built, by the same keys. */
const pointIndexBuilds = new Map<string, Promise<PointIndex>>();

const layerKeyOf = (checksum: string, layer: string) => `${checksum}\u0000${layer}`;

/**
 * The point index of a layer of a file, built once by the map reader whoever asks first (a
 * tile, the layers list, a push); kept in memory by content. The build is shared work, so it
 * has the background budget.
 */
export function pointIndexOf(
  ctx: AppContext,
  file: Pick<MapFile, 'checksum' | 'path'>,
  layer: Pick<MapLayer, 'name'>,
): Promise<PointIndex> {
  const key = layerKeyOf(file.checksum, layer.name);
  const built = pointIndexes.get(key);
  if (built) return Promise.resolve(built);
  let building = pointIndexBuilds.get(key);
  if (!building) {
    building = readMap(
      ctx,
      { kind: 'points', file: file.path, layer: layer.name },
      {
        lane: 'background',
        verdictKey: `${file.checksum}/${layer.name}/points`,
        tooHeavy: LAYER_TOO_COMPLEX,
      },
    )
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
export function pointLayers(file: MapFile): MapLayer[] {
  return [...file.layers.values()].filter(
    (layer) => layer.geometry_type === 'POINT' && layer.drawable,
  );
}

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

/** The MVT bytes of a tile of a drawable layer; null when it holds no feature. */
export async function renderTile(
  ctx: AppContext,
  file: MapFile,
  layer: MapLayer,
  tile: TileAddress,
  owner?: string,
): Promise<Buffer | null> {
  const key = `${layerKeyOf(file.checksum, layer.name)}\u0000${tile.z}/${tile.x}/${tile.y}`;
  const cached = tileCache.get(key);
  if (cached !== undefined) return cached;
  const bytes =
    layer.geometry_type === 'POINT'
      ? encodeTile(layer.name, pointTile(await pointIndexOf(ctx, file, layer), tile))
      : await readMap(
          ctx,
          { kind: 'tile', file: file.path, layer: layer.name, tile },
          {
            lane: 'interactive',
            // One tile too heavy: the layer's other tiles would be too (the same features).
            verdictKey: `${file.checksum}/${layer.name}/tiles`,
            tooHeavy: LAYER_TOO_COMPLEX,
            owner,
          },
        );
  tileCache.set(key, bytes, (bytes?.length ?? 0) + 64);
  return bytes;
}
