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
  /** Adds the source's feature id as the property `source_fid` (needs `layer`). */
  withFid?: boolean;
}

/** The features GDAL reads from `source`, as GeoJSON (no reprojection). */
export async function gdalFeatures(source: string, read: GdalRead = {}): Promise<GdalFeature[]> {
  return (await gdalRead(source, read)).features;
}

/** The features GDAL reads, and what it logged (with `CPL_DEBUG=ON` in `env`: its requests). */
export async function gdalRead(
  source: string,
  read: GdalRead = {},
): Promise<{ features: GdalFeature[]; log: string }> {
  const { stdout, stderr } = await run(
    OGR2OGR,
    [
      '-f',
      'GeoJSON',
      '/vsistdout/',
      ...(read.args ?? []),
      ...(read.withFid && read.layer
        ? ['-dialect', 'OGRSQL', '-sql', `SELECT FID AS source_fid, * FROM "${read.layer}"`]
        : []),
      source,
      ...(read.layer && !read.withFid ? [read.layer] : []),
    ],
    { maxBuffer: 512 * 1024 * 1024, env: { ...process.env, ...read.env } },
  );
  return { features: (JSON.parse(stdout) as { features: GdalFeature[] }).features, log: stderr };
}

/** ogrinfo's summary of `source` (-so -al: layers, counts, extents, CRS, fields). */
export async function gdalInfo(source: string, read: GdalRead = {}): Promise<string> {
  const { stdout } = await run(OGRINFO, ['-so', '-al', ...(read.args ?? []), source], {
    maxBuffer: 64 * 1024 * 1024,
    env: { ...process.env, ...read.env },
  });
  return stdout;
}
