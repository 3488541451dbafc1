import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { gridPoints, writeGeoPackage } from '../../../../tests/server/support/map-geopackage';
import { readLayers } from './gpkg';
import {
  buildPointIndex,
  CELLS,
  morton,
  readPoints,
  readRtreeLeaves,
  thinPoints,
  THIN_MAX_ZOOM,
  type PointArrays,
  type PointGroup,
  type PointIndex,
} from './points';

const clampTile = (v: number, size: number) =>
  Math.max(0, Math.min(size - 1, Math.floor(v * size)));

/** The first build (a Set of cells per zoom, a comparison sort), kept as the reference. */
function referenceIndex({ xs, ys, fids, count: n }: PointArrays): PointIndex {
  const minZoom = new Uint8Array(n).fill(THIN_MAX_ZOOM + 1);
  const taken = new Set<number>();
  let unplaced = n;
  for (let z = 0; z <= THIN_MAX_ZOOM && unplaced > 0; z++) {
    const size = CELLS * 2 ** z;
    const cell = (i: number) => clampTile(xs[i]!, size) * size + clampTile(ys[i]!, size);
    taken.clear();
    for (let i = 0; i < n; i++) if (minZoom[i]! < z) taken.add(cell(i));
    for (let i = 0; i < n; i++) {
      if (minZoom[i]! < z) continue;
      const key = cell(i);
      if (taken.has(key)) continue;
      taken.add(key);
      minZoom[i] = z;
      unplaced--;
    }
  }
  const codes = new Uint32Array(n);
  for (let i = 0; i < n; i++)
    codes[i] = morton(clampTile(xs[i]!, 2 ** 16), clampTile(ys[i]!, 2 ** 16));
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

/** Deterministic pseudo-random numbers in [0, 1). */
function random(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

const dir = mkdtempSync(path.join(tmpdir(), 'waymark-points-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('thinPoints', () => {
  it('builds the same index as the reference build from a GeoPackage', () => {
    const file = path.join(dir, 'grid.gpkg');
    writeGeoPackage(file, [
      {
        name: 'points',
        srsId: 4326,
        type: 'POINT',
        rtree: true,
        columns: { name: 'TEXT' },
        rows: gridPoints(20_000, [14, 49, 24, 55]),
      },
    ]);
    const db = new Database(file, { readonly: true });
    try {
      const layer = readLayers(db).find((l) => l.name === 'points')!;
      // The rtree's node blobs hold what its virtual table answers, in id order.
      const rows = db
        .prepare(`SELECT id, minx, miny FROM "${layer.index!.table}" ORDER BY id`)
        .raw()
        .all() as [number, number, number][];
      const leaves = readRtreeLeaves(db, layer.index!.table)!;
      expect(leaves.count).toBe(20_000);
      expect([...leaves.ids]).toEqual(rows.map((row) => row[0]));
      expect([...leaves.xs]).toEqual(rows.map((row) => row[1]));
      expect([...leaves.ys]).toEqual(rows.map((row) => row[2]));
      const points = readPoints(db, layer);
      expect(points.count).toBe(20_000);
      const index = buildPointIndex(db, layer);
      expect(index).toEqual(referenceIndex(points));
      // Thinned: the low zooms hold few points, every point is somewhere.
      expect(index.groups[0]!.codes.length).toBeLessThan(100);
      expect(index.groups.reduce((sum, g) => sum + g.fids.length, 0)).toBe(20_000);
    } finally {
      db.close();
    }
  });

  it('matches the reference on clustered, duplicate and out-of-range points', () => {
    const next = random(19);
    const n = 30_000;
    const points: PointArrays = {
      xs: new Float64Array(n),
      ys: new Float64Array(n),
      fids: new Float64Array(n),
      count: n,
    };
    for (let i = 0; i < n; i++) {
      const kind = i % 4;
      // Spread, a tight cluster (deep zooms), exact duplicates, and beyond the square.
      points.xs[i] =
        kind === 0
          ? next()
          : kind === 1
            ? 0.55 + next() * 1e-6
            : kind === 2
              ? 0.25
              : next() * 1.2 - 0.1;
      points.ys[i] =
        kind === 0
          ? next()
          : kind === 1
            ? 0.33 + next() * 1e-6
            : kind === 2
              ? 0.75
              : next() * 1.2 - 0.1;
      points.fids[i] = i * 3 + 1;
    }
    const index = thinPoints(points);
    expect(index).toEqual(referenceIndex(points));
    expect(index.groups[THIN_MAX_ZOOM + 1]!.fids.length).toBeGreaterThan(0);
  });
});
