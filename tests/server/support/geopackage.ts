/**
 * Real GeoPackages for tests, made by GDAL's ogr2ogr (Debian's gdal-bin, installed by
 * .ci/run) from GeoJSON written here, and plain SQLite edits with better-sqlite3.
 */
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  access,
  copyFile,
  mkdir,
  mkdtemp,
  readFile,
  rename,
  rm,
  writeFile,
} from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import Database from 'better-sqlite3';
import { registerSpatialFunctions } from '../../../server/src/geodiff/st-functions';

const run = promisify(execFile);

export const OGR2OGR = process.env.OGR2OGR ?? '/usr/bin/ogr2ogr';

export type Geometry =
  | { type: 'Point'; coordinates: number[] }
  | { type: 'LineString'; coordinates: number[][] }
  | { type: 'Polygon'; coordinates: number[][][] };

export interface Feature {
  /** Becomes the feature id (the `fid` primary key). */
  id: number;
  properties: Record<string, string | number | null>;
  geometry: Geometry | null;
}

/** A scratch folder removed by cleanup(). */
export interface Scratch {
  dir: string;
  file(name: string): string;
  cleanup(): Promise<void>;
}

export async function scratch(): Promise<Scratch> {
  const dir = await mkdtemp(path.join(tmpdir(), 'waymark-gpkg-'));
  return {
    dir,
    file: (name) => path.join(dir, name),
    cleanup: () => rm(dir, { recursive: true, force: true }),
  };
}

/**
 * Writes a GeoPackage with one layer `layer` (fid primary key, a `geom` geometry column in
 * EPSG:4326, one column per property) from the features, with ogr2ogr; returns its bytes.
 * With `cached`, a file ogr2ogr made from the same GeoJSON, arguments and GDAL version in an
 * earlier run (or file) is copied instead (cachedGeopackage).
 */
export async function geopackageFromFeatures(
  s: Scratch,
  name: string,
  layer: string,
  features: Feature[],
  geometryType = 'GEOMETRY',
  options: { cached?: boolean } = {},
): Promise<Buffer> {
  const source = s.file(`${name}.geojson`);
  const target = s.file(`${name}.gpkg`);
  const geojson = JSON.stringify({
    type: 'FeatureCollection',
    features: features.map((f) => ({ type: 'Feature', ...f })),
  });
  const args = ['-nln', layer, '-preserve_fid', '-a_srs', 'EPSG:4326', '-nlt', geometryType];
  await rm(target, { force: true });
  const build = async (to: string) => {
    await writeFile(source, geojson);
    await access(OGR2OGR).catch(() => {
      throw new Error(`${OGR2OGR} not found: install GDAL (Debian: apt-get install gdal-bin)`);
    });
    await run(OGR2OGR, ['-f', 'GPKG', to, source, ...args]);
  };
  if (options.cached) await copyFile(await cachedGeopackage(geojson, args, build), target);
  else await build(target);
  return readFile(target);
}

/** Where built fixtures are kept between runs (node_modules is not in git). */
export const FIXTURE_CACHE = path.resolve(
  import.meta.dirname,
  '../../../node_modules/.cache/waymark-tests/fixtures',
);

let gdalVersion: Promise<string> | null = null;

/**
 * The path of a GeoPackage ogr2ogr built from `geojson` with `args` (by `build`, into the
 * path given), kept under FIXTURE_CACHE by the SHA-256 of the GeoJSON, the arguments and
 * `ogr2ogr --version`: built once, then reused by later files and runs. Concurrent builders
 * each write a file of their own and rename it into place.
 */
async function cachedGeopackage(
  geojson: string,
  args: string[],
  build: (to: string) => Promise<void>,
): Promise<string> {
  gdalVersion ??= run(OGR2OGR, ['--version']).then(({ stdout }) => stdout.trim());
  const key = createHash('sha256')
    .update(await gdalVersion)
    .update('\0')
    .update(args.join('\0'))
    .update('\0')
    .update(geojson)
    .digest('hex')
    .slice(0, 32);
  const kept = path.join(FIXTURE_CACHE, `${key}.gpkg`);
  if (
    await access(kept).then(
      () => true,
      () => false,
    )
  )
    return kept;
  await mkdir(FIXTURE_CACHE, { recursive: true });
  const building = path.join(FIXTURE_CACHE, `${key}.${process.pid}.${Date.now()}.building.gpkg`);
  try {
    await build(building);
    await rename(building, kept);
  } finally {
    await rm(building, { force: true });
  }
  return kept;
}

/** Runs `edit` on a copy of the SQLite bytes (no GeoPackage functions: plain tables only). */
export async function editSqlite(
  s: Scratch,
  bytes: Buffer,
  edit: (db: Database.Database) => void,
): Promise<Buffer> {
  const file = s.file(`edit-${Date.now()}-${Math.random().toString(36).slice(2)}.sqlite`);
  await writeFile(file, bytes);
  const db = new Database(file);
  try {
    edit(db);
  } finally {
    db.close();
  }
  return readFile(file);
}

/** Runs `sql` on a copy of the GeoPackage bytes, with the spatial functions its triggers call. */
export function editGeoPackage(s: Scratch, bytes: Buffer, sql: string): Promise<Buffer> {
  return editSqlite(s, bytes, (db) => {
    registerSpatialFunctions(db);
    db.exec(sql);
  });
}

/** `count` point features in a grid, ids 1…count, with a name and a number. */
export function pointFeatures(count: number, from = 1): Feature[] {
  return Array.from({ length: count }, (_, i) => {
    const id = from + i;
    return {
      id,
      properties: { name: `tree ${id}`, height: id * 1.5 },
      geometry: { type: 'Point', coordinates: [id % 100, Math.floor(id / 100) + 0.5] },
    };
  });
}

/** The rows of `table` in the SQLite file, by first column, blobs as hex: for row-for-row checks. */
export function tableRows(file: string, table: string): unknown[][] {
  const db = new Database(file, { readonly: true });
  try {
    return db
      .prepare(`SELECT * FROM "${table.replace(/"/g, '""')}" ORDER BY 1`)
      .raw(true)
      .all()
      .map((row) => (row as unknown[]).map((v) => (Buffer.isBuffer(v) ? v.toString('hex') : v)));
  } finally {
    db.close();
  }
}
