// A GeoPackage for the map's end-to-end tests (issue 19), written by GDAL's ogr2ogr: a point
// layer `trees` and a polygon layer `fields` in EPSG:4326, and a point layer `wells` in the
// Polish national CRS EPSG:2180 (metres), so the map must reproject it. Every layer's `fid`
// primary key is the feature's id, so two files made from overlapping lists differ row by row
// exactly as the lists do.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import proj4 from 'proj4';
import { OGR2OGR } from './geopackage';

export interface Tree {
  fid: number;
  name: string;
  height: number;
  /** lon, lat */
  at: [number, number];
}

export interface Field {
  fid: number;
  crop: string;
  /** [minLon, minLat, maxLon, maxLat] of the rectangle. */
  box: [number, number, number, number];
}

export interface Well {
  fid: number;
  label: string;
  /** Easting, northing in EPSG:2180. */
  at: [number, number];
}

export interface MapData {
  trees: readonly Tree[];
  fields: readonly Field[];
  wells: readonly Well[];
}

export const EPSG_2180 =
  '+proj=tmerc +lat_0=0 +lon_0=19 +k=0.9993 +x_0=500000 +y_0=-5300000 +ellps=GRS80 +towgs84=0,0,0,0,0,0,0 +units=m +no_defs';

/** Where a well is in lon/lat (computed here, apart from the server's reprojection). */
export function wellLonLat(well: Well): [number, number] {
  return proj4(EPSG_2180, 'EPSG:4326', well.at) as [number, number];
}

export const V1: MapData = {
  trees: [
    { fid: 1, name: 'Oak', height: 12, at: [19.0, 50.0] },
    { fid: 2, name: 'Birch', height: 30, at: [19.5, 50.5] },
    { fid: 3, name: 'Elm', height: 8, at: [20.0, 50.0] },
    { fid: 4, name: 'Pine', height: 25, at: [20.5, 50.5] },
    { fid: 5, name: 'Ash', height: 17, at: [19.0, 51.0] },
  ],
  fields: [
    { fid: 1, crop: 'Wheat', box: [19.4, 51.6, 19.8, 51.9] },
    { fid: 2, crop: 'Rye', box: [20.0, 51.6, 20.4, 51.9] },
  ],
  wells: [
    // About 21.0° E, 52.2° N and 20.5° E, 51.5° N.
    { fid: 1, label: 'Well A', at: [636640, 483432] },
    { fid: 2, label: 'Well B', at: [604085, 404783] },
  ],
};

/** v2: Oak renamed, Elm deleted, Rowan inserted; the other layers as they were. */
export const V2: MapData = {
  ...V1,
  trees: [
    { fid: 1, name: 'Old oak', height: 12, at: [19.0, 50.0] },
    ...V1.trees.filter((tree) => tree.fid !== 1 && tree.fid !== 3),
    { fid: 6, name: 'Rowan', height: 5, at: [20.0, 51.0] },
  ],
};

function collection(features: object[]): string {
  return JSON.stringify({ type: 'FeatureCollection', features });
}

function addLayer(
  target: string,
  source: string,
  layer: string,
  type: string,
  srs: string,
  first: boolean,
) {
  execFileSync(
    OGR2OGR,
    [
      '-f',
      'GPKG',
      ...(first ? [] : ['-update']),
      target,
      source,
      '-nln',
      layer,
      '-nlt',
      type,
      '-a_srs',
      srs,
      '-lco',
      'FID=fid',
      '-lco',
      'GEOMETRY_NAME=geom',
      '-preserve_fid',
    ],
    { stdio: 'pipe' },
  );
}

/** The GeoPackage's bytes. */
export function mapGeoPackage(data: MapData): Buffer {
  const dir = mkdtempSync(join(tmpdir(), 'waymark-e2e-map-'));
  try {
    const target = join(dir, 'survey.gpkg');
    const trees = join(dir, 'trees.geojson');
    writeFileSync(
      trees,
      collection(
        data.trees.map((tree) => ({
          type: 'Feature',
          id: tree.fid,
          properties: { fid: tree.fid, name: tree.name, height: tree.height },
          geometry: { type: 'Point', coordinates: tree.at },
        })),
      ),
    );
    addLayer(target, trees, 'trees', 'POINT', 'EPSG:4326', true);
    const fields = join(dir, 'fields.geojson');
    writeFileSync(
      fields,
      collection(
        data.fields.map((field) => {
          const [x0, y0, x1, y1] = field.box;
          return {
            type: 'Feature',
            id: field.fid,
            properties: { fid: field.fid, crop: field.crop },
            geometry: {
              type: 'Polygon',
              coordinates: [
                [
                  [x0, y0],
                  [x1, y0],
                  [x1, y1],
                  [x0, y1],
                  [x0, y0],
                ],
              ],
            },
          };
        }),
      ),
    );
    addLayer(target, fields, 'fields', 'POLYGON', 'EPSG:4326', false);
    const wells = join(dir, 'wells.geojson');
    writeFileSync(
      wells,
      collection(
        data.wells.map((well) => ({
          type: 'Feature',
          id: well.fid,
          properties: { fid: well.fid, label: well.label },
          geometry: { type: 'Point', coordinates: well.at },
        })),
      ),
    );
    addLayer(target, wells, 'wells', 'POINT', 'EPSG:2180', false);
    return readFileSync(target);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
