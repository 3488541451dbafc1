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

/**
 * The (id, minx, miny) of every entry of a spatial index (SQLite's R*Tree module,
 * `rtree(id, minx, maxx, miny, maxy)`: GeoPackage's or SpatiaLite's, gpkg.ts) in id order,
 * read from its node blobs: a tenth of the time of the virtual table's own scan. A node is a 2-byte depth (the root's), a 2-byte
 * cell count, then cells of an 8-byte id and four 4-byte floats, big-endian; the leaves
 * are `depth` levels below the root (node 1). Null when anything is not as expected (ids
 * beyond 0 … 2³²-1, a count other than the rowid table's): the caller reads the table.
 */
export function readRtreeLeaves(
  db: Database.Database,
  rtree: string,
): { ids: Float64Array; xs: Float64Array; ys: Float64Array; count: number } | null {
  try {
    const nodes = new Map<number, Buffer>();
    for (const [nodeno, data] of db
      .prepare(`SELECT nodeno, data FROM ${q(`${rtree}_node`)}`)
      .raw()
      .iterate() as Iterable<[number, unknown]>) {
      if (!Buffer.isBuffer(data) || data.length < 4) return null;
      nodes.set(nodeno, data);
    }
    const expected = (
      db
        .prepare(`SELECT count(*) FROM ${q(`${rtree}_rowid`)}`)
        .raw()
        .get() as [number]
    )[0];
    const root = nodes.get(1);
    if (!root) return null;
    const cellCount = (node: Buffer) => {
      const cells = node.readUInt16BE(2);
      return 4 + cells * 24 <= node.length ? cells : -1;
    };
    let level = [root];
    for (let depth = root.readUInt16BE(0); depth > 0; depth--) {
      const next: Buffer[] = [];
      for (const node of level) {
        const cells = cellCount(node);
        if (cells < 0) return null;
        for (let c = 0; c < cells; c++) {
          const child = nodes.get(Number(node.readBigInt64BE(4 + c * 24)));
          if (!child) return null;
          next.push(child);
        }
      }
      level = next;
    }
    const ids = new Uint32Array(expected);
    const minx = new Float32Array(expected);
    const miny = new Float32Array(expected);
    let count = 0;
    for (const node of level) {
      const cells = cellCount(node);
      if (cells < 0 || count + cells > expected) return null;
      for (let c = 0; c < cells; c++) {
        const at = 4 + c * 24;
        const id = node.readBigInt64BE(at);
        if (id < 0n || id > 0xffffffffn) return null;
        ids[count] = Number(id);
        minx[count] = node.readFloatBE(at + 8);
        miny[count] = node.readFloatBE(at + 16);
        count++;
      }
    }
    if (count !== expected) return null;
    let order = identityOrder(count);
    order = radixPass(order, ids, 0, 16);
    order = radixPass(order, ids, 16, 16);
    const out = {
      ids: new Float64Array(count),
      xs: new Float64Array(count),
      ys: new Float64Array(count),
      count,
    };
    for (let k = 0; k < count; k++) {
      const i = order[k]!;
      out.ids[k] = ids[i]!;
      out.xs[k] = minx[i]!;
      out.ys[k] = miny[i]!;
    }
    return out;
  } catch {
    return null;
  }
}

/** Points of a layer as unit-square coordinates, in fid order. */
export interface PointArrays {
  xs: Float64Array;
  ys: Float64Array;
  fids: Float64Array;
  count: number;
}

/** Reads every point of the layer as unit-square coordinates (one pass, no object per point). */
export function readPoints(db: Database.Database, layer: LayerInfo): PointArrays {
  const transform = layer.transform!;
  let capacity = Math.max(16, layer.featureCount);
  let xs = new Float64Array(capacity);
  let ys = new Float64Array(capacity);
  let fids = new Float64Array(capacity);
  let count = 0;
  const add = (fid: number, x: number, y: number) => {
    if (!Number.isFinite(x) || !Number.isFinite(y)) return;
    const [lon, lat] = transform.toLonLat(x, y);
    if (!Number.isFinite(lon) || !Number.isFinite(lat)) return;
    const [ux, uy] = lonLatToUnit(lon, lat);
    if (count === capacity) {
      capacity *= 2;
      const grow = (from: Float64Array) => {
        const to = new Float64Array(capacity);
        to.set(from);
        return to;
      };
      xs = grow(xs);
      ys = grow(ys);
      fids = grow(fids);
    }
    xs[count] = ux;
    ys[count] = uy;
    fids[count] = fid;
    count++;
  };
  const index = layer.index;
  const leaves = index ? readRtreeLeaves(db, index.table) : null;
  if (leaves) {
    for (let i = 0; i < leaves.count; i++) add(leaves.ids[i]!, leaves.xs[i]!, leaves.ys[i]!);
  } else if (index) {
    const rows = db
      .prepare(
        `SELECT ${q(index.id)}, ${q(index.minx)}, ${q(index.miny)} FROM ${q(index.table)} ORDER BY 1`,
      )
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
  return { xs, ys, fids, count };
}

/** Cells per side of the grid the thinning works on at THIN_MAX_ZOOM (22 bits). */
const FINE_BITS = Math.log2(CELLS) + THIN_MAX_ZOOM;

/**
 * The order of `order`'s entries by the bits `shift … shift + bits` of `keys[entry]`,
 * stable (one pass of an LSD radix sort).
 */
function radixPass(
  order: Uint32Array,
  keys: Uint32Array,
  shift: number,
  bits: number,
): Uint32Array {
  const mask = 2 ** bits - 1;
  const counts = new Uint32Array(mask + 2);
  for (let i = 0; i < order.length; i++) counts[((keys[order[i]!]! >>> shift) & mask) + 1]!++;
  for (let d = 1; d < counts.length; d++) counts[d]! += counts[d - 1]!;
  const out = new Uint32Array(order.length);
  for (let i = 0; i < order.length; i++) {
    const entry = order[i]!;
    out[counts[(keys[entry]! >>> shift) & mask]!++] = entry;
  }
  return out;
}

/** 0 … n-1. */
function identityOrder(n: number): Uint32Array {
  const order = new Uint32Array(n);
  for (let i = 0; i < n; i++) order[i] = i;
  return order;
}

/**
 * The thinned index of points (pure: typed arrays in, typed arrays out). Every point gets
 * the Morton code of its cell in the zoom-THIN_MAX_ZOOM grid of CELLS per tile (44 bits, as
 * two words); sorted by it, the cells of every zoom are runs, so each zoom is one pass over
 * the runs: a run without a point shown at a lower zoom shows its first point in fid order.
 */
export function thinPoints({ xs, ys, fids, count: n }: PointArrays): PointIndex {
  const fineSize = 2 ** FINE_BITS;
  const lows = new Uint32Array(n);
  const highs = new Uint32Array(n);
  const fine = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const x = clampTile(xs[i]!, fineSize);
    const y = clampTile(ys[i]!, fineSize);
    lows[i] = morton(x & 0xffff, y & 0xffff);
    highs[i] = morton(x >>> 16, y >>> 16);
    fine[i] = highs[i]! * 2 ** 32 + lows[i]!;
  }
  let byCell = identityOrder(n);
  byCell = radixPass(byCell, lows, 0, 16);
  byCell = radixPass(byCell, lows, 16, 16);
  byCell = radixPass(byCell, highs, 0, 2 * (FINE_BITS - 16));

  const minZoom = new Uint8Array(n).fill(THIN_MAX_ZOOM + 1);
  let unplaced = n;
  for (let z = 0; z <= THIN_MAX_ZOOM && unplaced > 0; z++) {
    const cellSize = 4 ** (THIN_MAX_ZOOM - z);
    for (let start = 0; start < n;) {
      const cell = Math.floor(fine[byCell[start]!]! / cellSize);
      let shown = false;
      let first = -1;
      let end = start;
      for (; end < n; end++) {
        const point = byCell[end]!;
        if (Math.floor(fine[point]! / cellSize) !== cell) break;
        if (minZoom[point]! < z) shown = true;
        else if (first < 0 || point < first) first = point;
      }
      if (!shown && first >= 0) {
        minZoom[first] = z;
        unplaced--;
      }
      start = end;
    }
  }

  // Grouped by minZoom, then by the zoom-16 tile's code, then in fid order.
  const codes = new Uint32Array(n);
  const shift = FINE_BITS - CODE_ZOOM;
  for (let i = 0; i < n; i++)
    codes[i] = ((highs[i]! << (32 - 2 * shift)) | (lows[i]! >>> (2 * shift))) >>> 0;
  const zooms = Uint32Array.from(minZoom);
  let order = identityOrder(n);
  order = radixPass(order, codes, 0, 16);
  order = radixPass(order, codes, 16, 16);
  order = radixPass(order, zooms, 0, 5);

  const groups: PointGroup[] = [];
  let start = 0;
  for (let z = 0; z <= THIN_MAX_ZOOM + 1; z++) {
    let end = start;
    while (end < n && minZoom[order[end]!] === z) end++;
    const members = order.subarray(start, end);
    const group: PointGroup = {
      codes: new Uint32Array(members.length),
      xs: new Float64Array(members.length),
      ys: new Float64Array(members.length),
      fids: new Float64Array(members.length),
    };
    for (let k = 0; k < members.length; k++) {
      const i = members[k]!;
      group.codes[k] = codes[i]!;
      group.xs[k] = xs[i]!;
      group.ys[k] = ys[i]!;
      group.fids[k] = fids[i]!;
    }
    groups.push(group);
    start = end;
  }
  return { groups, count: n };
}

/** Builds the index of a POINT layer (its transform must be known). */
export function buildPointIndex(db: Database.Database, layer: LayerInfo): PointIndex {
  return thinPoints(readPoints(db, layer));
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
