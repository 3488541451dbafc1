/**
 * The thinned index of a point layer, built once per file content from one pass over its
 * points (the rtree when there is one), so that a tile costs the same however many points
 * the layer has.
 *
 * Each point gets the lowest zoom at which it is shown (`minZoom`): zoom by zoom, the points
 * shown at a lower zoom keep their cells of CELLS×CELLS per tile (4×4 pixels of a 256-pixel
 * tile), then the others, in fid order, are shown when their cell is still free. A cell
 * holds one point, so a tile never holds more than CELLS² points. Beyond
 * THIN_MAX_ZOOM every point is shown.
 *
 * Points are stored grouped by `minZoom` and, within a group, by the Morton code of their
 * zoom-16 tile: the points of any tile down to zoom 16 are one contiguous run of codes, found
 * by binary search in each group up to the tile's zoom.
 */
import { q, type LayerInfo } from './gpkg';
import type Database from 'better-sqlite3';
import { lonLatToUnit } from './crs';
import { decodeGeometry } from './geometry';

/** Cells per tile side: 64 (4×4 pixels of a 256-pixel tile). */
export const CELLS = 64;
/** Deepest zoom at which points are thinned; from the next one all are shown. */
export const THIN_MAX_ZOOM = 16;
/** The zoom of the Morton codes (16 bits per axis: 32-bit codes). */
const CODE_ZOOM = 16;

export interface PointGroup {
  /** Morton codes of the points' zoom-16 tiles, ascending. */
  codes: Uint32Array;
  /** Unit-square coordinates (x right, y down). */
  xs: Float64Array;
  ys: Float64Array;
  fids: Float64Array;
}

export interface PointIndex {
  /** Group `z` holds the points first shown at zoom `z` (0 … THIN_MAX_ZOOM + 1). */
  groups: PointGroup[];
  count: number;
}

/** Spreads the 16 low bits of `v` to the even bits. */
function spread(v: number): number {
  let x = v & 0xffff;
  x = (x | (x << 8)) & 0x00ff00ff;
  x = (x | (x << 4)) & 0x0f0f0f0f;
  x = (x | (x << 2)) & 0x33333333;
  x = (x | (x << 1)) & 0x55555555;
  return x;
}

/** The Morton code of a zoom-16 tile. */
export function morton(x: number, y: number): number {
  return (spread(x) | (spread(y) << 1)) >>> 0;
}

const clampTile = (v: number, size: number) =>
  Math.max(0, Math.min(size - 1, Math.floor(v * size)));

/** Reads every point of the layer as unit-square coordinates. */
function readPoints(
  db: Database.Database,
  layer: LayerInfo,
): { xs: number[]; ys: number[]; fids: number[] } {
  const transform = layer.transform!;
  const xs: number[] = [];
  const ys: number[] = [];
  const fids: number[] = [];
  const add = (fid: number, x: number, y: number) => {
    if (!Number.isFinite(x) || !Number.isFinite(y)) return;
    const [lon, lat] = transform.toLonLat(x, y);
    if (!Number.isFinite(lon) || !Number.isFinite(lat)) return;
    const [ux, uy] = lonLatToUnit(lon, lat);
    xs.push(ux);
    ys.push(uy);
    fids.push(fid);
  };
  if (layer.rtree) {
    const rows = db
      .prepare(`SELECT id, minx, miny FROM ${q(layer.rtree)} ORDER BY id`)
      .raw()
      .iterate() as Iterable<[number, number, number]>;
    for (const [fid, x, y] of rows) add(fid, x, y);
  } else {
    const rows = db
      .prepare(
        `SELECT ${q(layer.fidColumn)}, ${q(layer.geometryColumn)} FROM ${q(layer.name)} ORDER BY 1`,
      )
      .raw()
      .iterate() as Iterable<[number, unknown]>;
    for (const [fid, blob] of rows) {
      const point = decodeGeometry(blob)?.points?.[0];
      if (point) add(fid, point[0]!, point[1]!);
    }
  }
  return { xs, ys, fids };
}

/** Builds the index of a POINT layer (its transform must be known). */
export function buildPointIndex(db: Database.Database, layer: LayerInfo): PointIndex {
  const { xs, ys, fids } = readPoints(db, layer);
  const n = xs.length;
  const minZoom = new Uint8Array(n).fill(THIN_MAX_ZOOM + 1);
  const taken = new Set<number>();
  for (let z = 0; z <= THIN_MAX_ZOOM; z++) {
    const size = CELLS * 2 ** z;
    const cell = (i: number) => clampTile(xs[i]!, size) * size + clampTile(ys[i]!, size);
    taken.clear();
    // Points shown at a lower zoom keep their cells; then the others, in fid order.
    for (let i = 0; i < n; i++) if (minZoom[i]! < z) taken.add(cell(i));
    for (let i = 0; i < n; i++) {
      if (minZoom[i]! < z) continue;
      const key = cell(i);
      if (taken.has(key)) continue;
      taken.add(key);
      minZoom[i] = z;
    }
  }
  const codeSize = 2 ** CODE_ZOOM;
  const codes = new Uint32Array(n);
  for (let i = 0; i < n; i++)
    codes[i] = morton(clampTile(xs[i]!, codeSize), clampTile(ys[i]!, codeSize));
  const order = Array.from({ length: n }, (_, i) => i).sort(
    (a, b) => minZoom[a]! - minZoom[b]! || codes[a]! - codes[b]!,
  );
  const groups: PointGroup[] = [];
  let start = 0;
  for (let z = 0; z <= THIN_MAX_ZOOM + 1; z++) {
    let end = start;
    while (end < n && minZoom[order[end]!] === z) end++;
    const members = order.slice(start, end);
    groups.push({
      codes: Uint32Array.from(members, (i) => codes[i]!),
      xs: Float64Array.from(members, (i) => xs[i]!),
      ys: Float64Array.from(members, (i) => ys[i]!),
      fids: Float64Array.from(members, (i) => fids[i]!),
    });
    start = end;
  }
  return { groups, count: n };
}

/** First index in `codes` whose code is ≥ `code`. */
function lowerBound(codes: Uint32Array, code: number): number {
  let lo = 0;
  let hi = codes.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (codes[mid]! < code) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

export interface TilePoint {
  fid: number;
  x: number;
  y: number;
}

/**
 * The points shown in a tile at zoom `z` whose unit coordinates are inside `box`
 * (`[minx, miny, maxx, maxy]`, the tile with its buffer).
 */
export function pointsInBox(index: PointIndex, z: number, box: number[]): TilePoint[] {
  const [minx, miny, maxx, maxy] = box as [number, number, number, number];
  // The zoom-≤16 tiles covering the box: one code run each.
  const level = Math.min(z, CODE_ZOOM);
  const size = 2 ** level;
  const shift = 2 * (CODE_ZOOM - level);
  const tx0 = clampTile(minx, size);
  const tx1 = clampTile(maxx, size);
  const ty0 = clampTile(miny, size);
  const ty1 = clampTile(maxy, size);
  const found: TilePoint[] = [];
  const lastGroup = Math.min(z, THIN_MAX_ZOOM + 1);
  for (let tx = tx0; tx <= tx1; tx++) {
    for (let ty = ty0; ty <= ty1; ty++) {
      const first = morton(tx, ty) * 2 ** shift;
      const last = first + 2 ** shift;
      for (let g = 0; g <= lastGroup; g++) {
        const group = index.groups[g]!;
        const end = lowerBound(group.codes, last);
        for (let i = lowerBound(group.codes, first); i < end; i++) {
          const x = group.xs[i]!;
          const y = group.ys[i]!;
          if (x >= minx && x <= maxx && y >= miny && y <= maxy) {
            found.push({ fid: group.fids[i]!, x, y });
          }
        }
      }
    }
  }
  return found;
}
