// Real GeoPackages for end-to-end tests, made by GDAL's ogr2ogr from GeoJSON written here:
// one point layer whose `fid` primary key is the feature's id, so two files made from
// overlapping feature lists differ row by row exactly as the lists do.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const OGR2OGR = process.env.OGR2OGR ?? '/usr/bin/ogr2ogr';

export interface PointFeature {
  /** The feature id: the layer's `fid` primary key. */
  fid: number;
  name: string;
  height: number;
  /** Longitude and latitude (EPSG:4326). */
  x: number;
  y: number;
}

/** The WKT the server shows for a point of the layer. */
export function pointWkt(feature: Pick<PointFeature, 'x' | 'y'>): string {
  return `POINT (${feature.x} ${feature.y})`;
}

/**
 * A GeoPackage with one point layer `layer` (columns fid, geom, name, height) holding the
 * features, written by ogr2ogr; returns its bytes.
 */
export function pointsGeoPackage(layer: string, features: readonly PointFeature[]): Buffer {
  const dir = mkdtempSync(join(tmpdir(), 'waymark-e2e-gpkg-'));
  try {
    const source = join(dir, 'features.geojson');
    const target = join(dir, 'out.gpkg');
    writeFileSync(
      source,
      JSON.stringify({
        type: 'FeatureCollection',
        features: features.map((f) => ({
          type: 'Feature',
          id: f.fid,
          properties: { fid: f.fid, name: f.name, height: f.height },
          geometry: { type: 'Point', coordinates: [f.x, f.y] },
        })),
      }),
    );
    execFileSync(
      OGR2OGR,
      [
        '-f',
        'GPKG',
        target,
        source,
        '-nln',
        layer,
        '-nlt',
        'POINT',
        '-a_srs',
        'EPSG:4326',
        '-lco',
        'FID=fid',
        '-lco',
        'GEOMETRY_NAME=geom',
        '-preserve_fid',
      ],
      { stdio: 'pipe' },
    );
    return readFileSync(target);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
