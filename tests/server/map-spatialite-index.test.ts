/**
 * SpatiaLite spatial indexes (issue 19): a SpatiaLite file's R*Tree (`idx_<table>_<column>`,
 * pkid/xmin/xmax/ymin/ymax, when geometry_columns.spatial_index_enabled = 1) is read as a
 * GeoPackage's rtree is: tiles of line and polygon layers read only the rows whose box meets
 * the tile's box (in the layer's CRS), point indexes and extents come from it; without one
 * (or with a broken one) the geometries are scanned. Real SpatiaLite files, written by
 * GDAL's ogr2ogr, with polygons in EPSG:2180 so every tile box is reprojected.
 */
import { execFileSync } from 'node:child_process';
import { copyFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { VectorTile } from '@mapbox/vector-tile';
import { PbfReader } from 'pbf';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readLayers, type LayerInfo } from '../../server/src/services/map/gpkg';
import { buildPointIndex, pointsInBox } from '../../server/src/services/map/points';
import { vectorTile } from '../../server/src/services/map/vector-tiles';
import { OGR2OGR, scratch, type Scratch } from './support/geopackage';
import { EPSG_2180_PROJ4 } from './support/spatialite';
import { tileOf } from './support/tiles';

let s: Scratch;

/** A 30 × 30 grid of 800 m squares, 1 km apart, from easting 590 km, northing 390 km. */
const SIDE = 30;
const ORIGIN = { x: 590_000, y: 390_000 };
const squareOf = (fid: number) => {
  const i = fid - 1;
  const x = ORIGIN.x + (i % SIDE) * 1000;
  const y = ORIGIN.y + Math.floor(i / SIDE) * 1000;
  return { x, y, box: [x, y, x + 800, y + 800] as const };
};

function writeGeoJson(file: string, geometry: (fid: number) => unknown): void {
  const features = Array.from({ length: SIDE * SIDE }, (_, i) => ({
    type: 'Feature',
    properties: { code: `P${i + 1}` },
    geometry: geometry(i + 1),
  }));
  writeFileSync(file, JSON.stringify({ type: 'FeatureCollection', features }));
}

/** A SpatiaLite file of `source` (GeoJSON in EPSG:2180), with or without its spatial index. */
function spatiaLite(source: string, name: string, index: boolean): string {
  const out = path.join(s.dir, name);
  execFileSync(OGR2OGR, [
    '-f',
    'SQLite',
    '-dsco',
    'SPATIALITE=YES',
    '-lco',
    `SPATIAL_INDEX=${index ? 'YES' : 'NO'}`,
    '-a_srs',
    EPSG_2180_PROJ4,
    '-nln',
    'parcels',
    out,
    source,
  ]);
  return out;
}

const opened: Database.Database[] = [];
function mapFile(file: string): { db: Database.Database; layer: LayerInfo } {
  const db = new Database(file, { readonly: true, fileMustExist: true });
  opened.push(db);
  const layers = readLayers(db);
  const layer = layers.find((l) => l.name === 'parcels')!;
  return { db, layer };
}

/** A tile's features as fid → geometry (MVT coordinates), sorted by fid. */
async function tileFeatures(
  map: { db: Database.Database; layer: LayerInfo },
  z: number,
  x: number,
  y: number,
) {
  const bytes = vectorTile(map.db, map.layer, { z, x, y });
  if (!bytes) return [];
  const layer = new VectorTile(new PbfReader(bytes)).layers.parcels!;
  return Array.from({ length: layer.length }, (_, i) => layer.feature(i))
    .map((feature) => ({
      fid: Number(feature.id),
      geometry: JSON.stringify(feature.loadGeometry()),
    }))
    .sort((a, b) => a.fid - b.fid);
}

const polygon = (fid: number) => {
  const [x0, y0, x1, y1] = squareOf(fid).box;
  const corners = [x0, y0, x1, y0, x1, y1, x0, y1, x0, y0];
  const ring = Array.from({ length: 5 }, (_, i) => corners.slice(2 * i, 2 * i + 2));
  return { type: 'Polygon', coordinates: [ring] };
};

let indexedFile: string;
let scannedFile: string;

beforeAll(async () => {
  s = await scratch();
  const source = path.join(s.dir, 'parcels.geojson');
  writeGeoJson(source, polygon);
  indexedFile = spatiaLite(source, 'indexed.sqlite', true);
  scannedFile = spatiaLite(source, 'scanned.sqlite', false);
});

afterAll(async () => {
  for (const db of opened) db.close();
  await s.cleanup();
});

describe('SpatiaLite spatial index', () => {
  it('is found from geometry_columns, under its own column names, and only when enabled', () => {
    const indexed = mapFile(indexedFile).layer;
    expect(indexed.index).toEqual({
      table: 'idx_parcels_GEOMETRY',
      id: 'pkid',
      minx: 'xmin',
      maxx: 'xmax',
      miny: 'ymin',
      maxy: 'ymax',
    });
    expect(mapFile(scannedFile).layer.index).toBeNull();
    // The same extent from the index (float32 boxes, rounded outwards) as from the scan.
    const scanned = mapFile(scannedFile).layer;
    indexed.extent!.forEach((value, i) => expect(value).toBeCloseTo(scanned.extent![i]!, 0));
    expect(indexed.featureCount).toBe(SIDE * SIDE);

    // Enabled in the metadata, but the table is gone (or not an R*Tree): the scan.
    const dropped = path.join(s.dir, 'dropped.sqlite');
    copyFileSync(indexedFile, dropped);
    const db = new Database(dropped);
    db.exec('DROP TABLE "idx_parcels_GEOMETRY"');
    db.exec('CREATE TABLE "idx_parcels_GEOMETRY" (pkid, xmin, xmax, ymin, ymax)');
    db.close();
    expect(mapFile(dropped).layer.index).toBeNull();
  });

  it('gives every tile the features the scan gives', async () => {
    const indexed = mapFile(indexedFile);
    const scanned = mapFile(scannedFile);
    const [west, south, east, north] = indexed.layer.extent4326!;
    let compared = 0;
    for (const z of [9, 11, 13]) {
      const from = tileOf(west!, north!, z);
      const to = tileOf(east!, south!, z);
      for (let x = from.x; x <= to.x; x++) {
        for (let y = from.y; y <= to.y; y++) {
          const features = await tileFeatures(indexed, z, x, y);
          expect(features).toEqual(await tileFeatures(scanned, z, x, y));
          compared += features.length;
        }
      }
    }
    // Every square is in some tile at each zoom (more than once where tiles' buffers overlap).
    expect(compared).toBeGreaterThanOrEqual(3 * SIDE * SIDE);
  });

  it('reads only the rows the index finds', async () => {
    // Square 7's box in the index moved onto square 900: the index is what is read.
    const lying = path.join(s.dir, 'lying.sqlite');
    copyFileSync(indexedFile, lying);
    const db = new Database(lying);
    const [x0, y0, x1, y1] = squareOf(SIDE * SIDE).box;
    db.prepare(
      'UPDATE "idx_parcels_GEOMETRY" SET xmin = ?, ymin = ?, xmax = ?, ymax = ? WHERE pkid = 7',
    ).run(x0, y0, x1, y1);
    db.close();
    const lyingMap = mapFile(lying);
    const scanned = mapFile(scannedFile);
    // The tile at square 7's centre (zoom 14: ~1.5 km wide here).
    const centre = squareOf(7);
    const [lon, lat] = lyingMap.layer.transform!.toLonLat(centre.x + 400, centre.y + 400);
    const { x, y } = tileOf(lon, lat, 14);
    const fids = async (map: { db: Database.Database; layer: LayerInfo }) =>
      (await tileFeatures(map, 14, x, y)).map((f) => f.fid);
    expect(await fids(scanned)).toContain(7);
    expect(await fids(lyingMap)).not.toContain(7);
  });

  it('builds a point layer’s index from it, with the scan’s points', async () => {
    const source = path.join(s.dir, 'points.geojson');
    writeGeoJson(source, (fid) => ({
      type: 'Point',
      coordinates: [squareOf(fid).x, squareOf(fid).y],
    }));
    const withIndex = mapFile(spatiaLite(source, 'points-indexed.sqlite', true));
    const withoutIndex = mapFile(spatiaLite(source, 'points-scanned.sqlite', false));
    expect(withIndex.layer.index?.table).toBe('idx_parcels_GEOMETRY');
    // Every point shows at zoom 18; the box around the data, in unit coordinates.
    const [west, south, east, north] = withoutIndex.layer.extent4326!;
    const unit = (lon: number, lat: number) => {
      const { x, y, px, py } = tileOf(lon, lat, 18);
      return [(x + px / 4096) / 2 ** 18, (y + py / 4096) / 2 ** 18];
    };
    const box = [...unit(west! - 0.01, north! + 0.01), ...unit(east! + 0.01, south! - 0.01)];
    const shown = (map: { db: Database.Database; layer: LayerInfo }) =>
      pointsInBox(buildPointIndex(map.db, map.layer), 18, box)
        .map((p) => p.fid)
        .sort((a, b) => a - b);
    const fids = shown(withIndex);
    expect(fids).toHaveLength(SIDE * SIDE);
    expect(fids).toEqual(shown(withoutIndex));
  });
});
