// Tiles of a large SpatiaLite polygon layer with and without its spatial index (issue 19):
// a .sqlite file written by GDAL's ogr2ogr (SPATIALITE=YES, its R*Tree idx_parcels_GEOMETRY)
// with 100,000 squares in EPSG:2180, and tiles at zooms 12 and 14 over its middle, each
// rendered cold (a fresh tile cache key per round) by the server's tile code. "scan" is the
// same file read as before the index was used (the layer without its index: every
// geometry's MBR read per tile); "index" reads only the rows whose box meets the tile's.
//
//   npx tsx bench/map-spatialite-tiles.ts          # BENCH_MAP_SL_ROUNDS=7, BENCH_MAP_SL_COUNT
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { readLayers, type LayerInfo } from '../server/src/services/map/gpkg';
import { vectorTile } from '../server/src/services/map/vector-tiles';
import { EPSG_2180_PROJ4 } from '../tests/server/support/spatialite';
import { OGR2OGR } from '../tests/server/support/geopackage';
import { tileOf } from '../tests/server/support/tiles';
import { percentile } from './harness';

const COUNT = Number(process.env.BENCH_MAP_SL_COUNT ?? 100_000);
const ROUNDS = Number(process.env.BENCH_MAP_SL_ROUNDS ?? 7);
/** Squares of 80 m, 100 m apart, in rows of COLUMNS, from easting 580 km, northing 380 km. */
const COLUMNS = 400;

function writeSource(file: string): void {
  const parts: string[] = [];
  for (let i = 0; i < COUNT; i++) {
    const x = 580_000 + (i % COLUMNS) * 100;
    const y = 380_000 + Math.floor(i / COLUMNS) * 100;
    const ring = [
      [x, y],
      [x + 80, y],
      [x + 80, y + 80],
      [x, y + 80],
      [x, y],
    ];
    parts.push(
      JSON.stringify({
        type: 'Feature',
        properties: { code: `P${i + 1}` },
        geometry: { type: 'Polygon', coordinates: [ring] },
      }),
    );
  }
  writeFileSync(file, `{"type":"FeatureCollection","features":[${parts.join(',')}]}`);
}

function tileMs(
  db: Database.Database,
  layer: LayerInfo,
  tile: { z: number; x: number; y: number },
): { ms: number; bytes: number } {
  const t = performance.now();
  const bytes = vectorTile(db, layer, tile);
  return { ms: performance.now() - t, bytes: bytes?.length ?? 0 };
}

const dir = mkdtempSync(join(tmpdir(), 'waymark-sl-bench-'));
try {
  const source = join(dir, 'parcels.geojson');
  const file = join(dir, 'parcels.sqlite');
  writeSource(source);
  execFileSync(OGR2OGR, [
    '-f',
    'SQLite',
    '-dsco',
    'SPATIALITE=YES',
    '-a_srs',
    EPSG_2180_PROJ4,
    '-nln',
    'parcels',
    file,
    source,
  ]);
  const db = new Database(file, { readonly: true, fileMustExist: true });
  const indexed = readLayers(db).find((layer) => layer.name === 'parcels')!;
  if (!indexed.index) throw new Error('ogr2ogr wrote no spatial index');
  const scanned: LayerInfo = { ...indexed, index: null };
  const [west, south, east, north] = indexed.extent4326!;
  const middle = [(west! + east!) / 2, (south! + north!) / 2] as const;
  console.log(
    `${COUNT.toLocaleString('en')} polygons (${indexed.geometryType}, EPSG:2180), ${ROUNDS} rounds, load ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
  );
  for (const z of [12, 14]) {
    const { x, y } = tileOf(middle[0], middle[1], z);
    const tile = { z, x, y };
    const times = { scan: [] as number[], index: [] as number[] };
    let sizes = { scan: 0, index: 0 };
    // Alternating, so both see the same load.
    for (let round = 0; round < ROUNDS; round++) {
      const scan = tileMs(db, scanned, tile);
      const index = tileMs(db, indexed, tile);
      times.scan.push(scan.ms);
      times.index.push(index.ms);
      sizes = { scan: scan.bytes, index: index.bytes };
    }
    const median = (values: number[]) => percentile(values, 50);
    console.log(
      `tile ${z}/${x}/${y}: scan ${median(times.scan).toFixed(1)} ms, index ${median(times.index).toFixed(1)} ms ` +
        `(median; ${(median(times.scan) / median(times.index)).toFixed(1)}× faster; ` +
        `${sizes.index.toLocaleString('en')} bytes, scan ${sizes.scan.toLocaleString('en')})`,
    );
  }
  console.log(
    `load after: ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
  );
  db.close();
} finally {
  rmSync(dir, { recursive: true, force: true });
}
