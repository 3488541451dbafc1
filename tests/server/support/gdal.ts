/**
 * Reading data back with GDAL (Debian's gdal-bin): any source GDAL opens (a file, an
 * `OAPIF:` or `GeoJSON:` address) converted to GeoJSON on standard output with ogr2ogr.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { OGR2OGR } from './geopackage';

const run = promisify(execFile);
export const OGRINFO = process.env.OGRINFO ?? '/usr/bin/ogrinfo';

export interface GdalFeature {
  type: 'Feature';
  geometry: { type: string; coordinates: unknown } | null;
  properties: Record<string, unknown>;
}

/** GDAL's options for reading: every argument before the source. */
export interface GdalRead {
  /** Layer name (default: the only or first layer). */
  layer?: string;
  /** More ogr2ogr arguments (-spat, -oo, …). */
  args?: string[];
  /** More environment (GDAL_HTTP_HEADERS, …). */
  env?: Record<string, string>;
}

/** The features GDAL reads from `source`, as GeoJSON (no reprojection). */
export async function gdalFeatures(source: string, read: GdalRead = {}): Promise<GdalFeature[]> {
  const { stdout } = await run(
    OGR2OGR,
    [
      '-f',
      'GeoJSON',
      '/vsistdout/',
      ...(read.args ?? []),
      source,
      ...(read.layer ? [read.layer] : []),
    ],
    { maxBuffer: 512 * 1024 * 1024, env: { ...process.env, ...read.env } },
  );
  return (JSON.parse(stdout) as { features: GdalFeature[] }).features;
}

/** ogrinfo's summary of `source` (-so -al: layers, counts, extents, CRS, fields). */
export async function gdalInfo(source: string, read: GdalRead = {}): Promise<string> {
  const { stdout } = await run(OGRINFO, ['-so', '-al', ...(read.args ?? []), source], {
    maxBuffer: 64 * 1024 * 1024,
    env: { ...process.env, ...read.env },
  });
  return stdout;
}
