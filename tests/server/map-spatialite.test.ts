/**
 * The map of SQLite files with geometry that are not GeoPackages (issue 19): SpatiaLite 4+
 * and legacy metadata, SpatiaLite blobs (XY/XYZ/XYM/XYZM, multi, collections, compressed),
 * a projected CRS from spatial_ref_sys, GDAL's plain WKB layout, and odd files. The files are
 * written byte by byte (support/spatialite.ts). Layers, tiles, attribute pages and features
 * by fid go through the same routes as GeoPackages (map.test.ts).
 */
import path from 'node:path';
import { readFile } from 'node:fs/promises';
import Database from 'better-sqlite3';
import { VectorTile } from '@mapbox/vector-tile';
import { PbfReader } from 'pbf';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Project } from '../../server/src/db/schema';
import type { MapFeature, MapFeaturePage, MapLayers } from '../../server/src/schemas/map';
import { scratch, type Scratch } from './support/geopackage';
import { tileOf } from './support/tiles';
import { commit, createProject } from './support/seed';
import {
  spatiaLiteBlob,
  wkbBlob,
  writeSpatiaLite,
  type Layout,
  type SlLayer,
} from './support/spatialite';
import { ADMIN_PASSWORD, createTestApp, type TestApp, type TestClient } from './support/test-app';

let t: TestApp;
let s: Scratch;
let admin: TestClient;
let project: Project;

/** A plot at easting 600000, northing 400000 of EPSG:2180: 20.43979°E 51.45773°N. */
const PLOT = { x: 600000, y: 400000, lon: 20.4397924382154, lat: 51.45772891197599 };

const square = (x: number, y: number, d: number, z?: number) =>
  [
    [x, y],
    [x + d, y],
    [x + d, y + d],
    [x, y + d],
    [x, y],
  ].map((p) => (z === undefined ? p : [...p, z]));

const wells: SlLayer = {
  name: 'Wells',
  type: 1,
  srid: 4326,
  columns: { name: 'TEXT', depth: 'REAL' },
  rows: [
    {
      fid: 1,
      geometry: spatiaLiteBlob({ point: [-0.1276, 51.5072] }, { srid: 4326 }),
      values: { name: 'london well', depth: 12.5 },
    },
    {
      fid: 2,
      geometry: spatiaLiteBlob({ point: [2.3522, 48.8566] }, { srid: 4326, littleEndian: false }),
      values: { name: 'paris well', depth: 30 },
    },
    { fid: 3, geometry: Buffer.from([0, 1, 2, 3, 0xfe]), values: { name: 'corrupt', depth: 1 } },
    { fid: 4, geometry: null, values: { name: 'no geometry' } },
  ],
};

const plots: SlLayer = {
  name: 'plots',
  type: 1001,
  dims: 'XYZ',
  srid: 2180,
  columns: { code: 'TEXT' },
  rows: [
    {
      fid: 10,
      geometry: spatiaLiteBlob({ point: [PLOT.x, PLOT.y, 120] }, { srid: 2180, dims: 'XYZ' }),
      values: { code: 'PL-10' },
    },
  ],
};

const fields: SlLayer = {
  name: 'fields',
  type: 3006,
  dims: 'XYZM',
  srid: 2180,
  columns: { crop: 'TEXT' },
  rows: [
    {
      fid: 20,
      geometry: spatiaLiteBlob(
        {
          collection: 'MULTIPOLYGON',
          members: [
            {
              polygon: [square(PLOT.x - 500, PLOT.y - 500, 1000).map((p) => [...p, 5, 1])],
              compressed: true,
            },
          ],
        },
        { srid: 2180, dims: 'XYZM' },
      ),
      values: { crop: 'wheat' },
    },
  ],
};

const tracks: SlLayer = {
  name: 'tracks',
  type: 2005,
  dims: 'XYM',
  srid: 4326,
  columns: { label: 'TEXT' },
  rows: [
    {
      fid: 5,
      geometry: spatiaLiteBlob(
        {
          collection: 'MULTILINESTRING',
          members: [
            {
              line: [
                [10, 45, 0],
                [10.01, 45.01, 1],
                [10.02, 45, 2],
              ],
            },
          ],
        },
        { srid: 4326, dims: 'XYM', littleEndian: false },
      ),
      values: { label: 'ridge' },
    },
  ],
};

const mixed: SlLayer = {
  name: 'mixed',
  type: 7,
  srid: 4326,
  columns: {},
  rows: [
    {
      fid: 1,
      geometry: spatiaLiteBlob(
        {
          collection: 'GEOMETRYCOLLECTION',
          members: [{ point: [5, 5] }, { polygon: [square(5, 5, 0.5)] }],
        },
        { srid: 4326 },
      ),
      values: {},
    },
  ],
};

const empty: SlLayer = { name: 'empty', type: 1, srid: 4326, columns: {}, rows: [] };

async function upload(name: string, layout: Layout, layers: SlLayer[]): Promise<Buffer> {
  const file = path.join(s.dir, name);
  writeSpatiaLite(file, layout, layers);
  return readFile(file);
}

const base = () => `/app/map/waymark/${project.name}`;
const query = (file: string) => `file=${encodeURIComponent(file)}`;

async function layersOf(file: string): Promise<MapLayers> {
  const response = await admin.get(`${base()}/layers?${query(file)}`);
  expect(response.statusCode, response.body).toBe(200);
  return response.json() as MapLayers;
}

async function tile(file: string, layer: string, lon: number, lat: number, z: number) {
  const { x, y, px, py } = tileOf(lon, lat, z);
  const response = await admin.get(`${base()}/tiles/${layer}/${z}/${x}/${y}.mvt?${query(file)}`);
  return { response, px, py };
}

beforeAll(async () => {
  t = await createTestApp();
  s = await scratch();
  admin = t.client();
  await admin.login('admin', ADMIN_PASSWORD);
  project = await createProject(t, { name: 'spatial' });
  const noGeometry = path.join(s.dir, 'plain.sqlite');
  const db = new Database(noGeometry);
  db.exec('CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT)');
  db.close();
  // No metadata: a column declared POINT holding WKB.
  const declared = path.join(s.dir, 'declared.sqlite');
  const plain = new Database(declared);
  plain.exec('CREATE TABLE sites (id INTEGER PRIMARY KEY, name TEXT, geom POINT)');
  plain
    .prepare('INSERT INTO sites VALUES (1, ?, ?)')
    .run('north site', wkbBlob({ point: [21, 52] }));
  plain.close();
  await commit(t, project.id, {
    added: {
      'sl4.sqlite': await upload('sl4.sqlite', 'spatialite4', [
        wells,
        plots,
        fields,
        tracks,
        mixed,
        empty,
      ]),
      'legacy.sqlite': await upload('legacy.sqlite', 'legacy', [
        { ...wells, type: 'POINT', rows: wells.rows.slice(0, 1) },
      ]),
      'gdal.sqlite': await upload('gdal.sqlite', 'gdal-wkb', [
        {
          name: 'parks',
          type: 3,
          srid: 4326,
          columns: { name: 'TEXT' },
          rows: [
            {
              fid: 7,
              geometry: wkbBlob({ polygon: [square(-0.19, 51.5, 0.02)] }),
              values: { name: 'Hyde Park' },
            },
          ],
        },
      ]),
      'plain.sqlite': await readFile(noGeometry),
      'declared.sqlite': await readFile(declared),
      'garbage.sqlite': 'not a database',
    },
  });
});

afterAll(async () => {
  await t?.close();
  await s?.cleanup();
});

describe('SpatiaLite 4 layers', () => {
  it('lists every geometry table with its type, CRS from spatial_ref_sys, count and extent', async () => {
    const body = await layersOf('sl4.sqlite');
    const byName = Object.fromEntries(body.layers.map((l) => [l.name, l]));
    // Names resolved to the tables' own case ("Wells", kept in lower case in the metadata).
    expect(body.layers.map((l) => l.name).sort()).toEqual(
      ['Wells', 'empty', 'fields', 'mixed', 'plots', 'tracks'].sort(),
    );
    expect(byName.Wells).toMatchObject({
      geometry_type: 'POINT',
      geometry_column: 'geometry',
      fid_column: 'pk_uid',
      srs_id: 4326,
      crs: 'EPSG:4326',
      crs_name: 'WGS 84',
      drawable: true,
      feature_count: 4,
      columns: [
        { name: 'name', type: 'text' },
        { name: 'depth', type: 'double' },
      ],
    });
    // From the blobs' MBRs (the corrupt blob and the null left out).
    expect(byName.Wells!.extent).toEqual([-0.1276, 48.8566, 2.3522, 51.5072]);
    expect(byName.plots).toMatchObject({
      geometry_type: 'POINT',
      crs: 'EPSG:2180',
      crs_name: 'ETRF2000-PL / CS92',
      drawable: true,
      feature_count: 1,
    });
    const [lon, lat] = byName.plots!.extent_4326!;
    expect(lon).toBeCloseTo(PLOT.lon, 6);
    expect(lat).toBeCloseTo(PLOT.lat, 6);
    expect(byName.fields).toMatchObject({ geometry_type: 'MULTIPOLYGON', drawable: true });
    expect(byName.tracks).toMatchObject({ geometry_type: 'MULTILINESTRING', feature_count: 1 });
    expect(byName.mixed!.geometry_type).toBe('GEOMETRYCOLLECTION');
    expect(byName.empty).toMatchObject({ feature_count: 0, extent: null, drawable: true });
  });

  it('draws points where they belong, in EPSG:4326 and in a projected CRS', async () => {
    for (const [layer, lon, lat, fid] of [
      ['Wells', 2.3522, 48.8566, 2],
      ['plots', PLOT.lon, PLOT.lat, 10],
    ] as const) {
      const { response, px, py } = await tile('sl4.sqlite', layer, lon, lat, 12);
      expect(response.statusCode, response.body).toBe(200);
      const features = new VectorTile(new PbfReader(response.rawPayload)).layers[layer]!;
      expect(features.length).toBe(1);
      const feature = features.feature(0);
      expect(feature.id).toBe(fid);
      const [[point]] = feature.loadGeometry() as [[{ x: number; y: number }]];
      expect(point.x).toBeCloseTo(px, -1);
      expect(point.y).toBeCloseTo(py, -1);
    }
  });

  it('draws multi polygons, measured lines and collections; empty places answer 204', async () => {
    for (const [layer, lon, lat, fid] of [
      ['fields', PLOT.lon, PLOT.lat, 20],
      ['tracks', 10.01, 45.01, 5],
      ['mixed', 5.25, 5.25, 1],
    ] as const) {
      const { response } = await tile('sl4.sqlite', layer, lon, lat, 10);
      expect(response.statusCode, `${layer}: ${response.body}`).toBe(200);
      const features = new VectorTile(new PbfReader(response.rawPayload)).layers[layer]!;
      expect(features.feature(0).id).toBe(fid);
    }
    const far = await tile('sl4.sqlite', 'fields', -100, 40, 10);
    expect(far.response.statusCode).toBe(204);
    const none = await tile('sl4.sqlite', 'empty', 0, 0, 3);
    expect(none.response.statusCode).toBe(204);
  });

  it('pages, sorts and filters the attribute rows; corrupt geometries show as none', async () => {
    const response = await admin.get(
      `${base()}/features/Wells?${query('sl4.sqlite')}&sort=depth&order=desc`,
    );
    expect(response.statusCode, response.body).toBe(200);
    const page = response.json() as MapFeaturePage;
    expect(page.count).toBe(4);
    expect(page.features.map((f) => [f.fid, f.geometry_type])).toEqual([
      [2, 'POINT'],
      [1, 'POINT'],
      [3, null],
      [4, null],
    ]);
    const filtered = await admin.get(
      `${base()}/features/Wells?${query('sl4.sqlite')}&filter=LONDON`,
    );
    expect((filtered.json() as MapFeaturePage).features.map((f) => f.fid)).toEqual([1]);
  });

  it('answers a feature by fid with its attributes and its extent for zooming', async () => {
    const response = await admin.get(`${base()}/features/fields/20?${query('sl4.sqlite')}`);
    expect(response.statusCode, response.body).toBe(200);
    const feature = response.json() as MapFeature;
    expect(feature).toMatchObject({
      fid: 20,
      geometry_type: 'MULTIPOLYGON',
      properties: { crop: 'wheat' },
    });
    const [minx, , maxx] = feature.extent_3857!;
    const centre = ((minx! + maxx!) / 2 / 20037508.342789244) * 180;
    expect(centre).toBeCloseTo(PLOT.lon, 3);
    const missing = await admin.get(`${base()}/features/fields/99?${query('sl4.sqlite')}`);
    expect(missing.statusCode).toBe(404);
  });
});

describe('other SQLite layouts', () => {
  it('reads legacy SpatiaLite metadata (type as text, proj4text only)', async () => {
    const body = await layersOf('legacy.sqlite');
    expect(body.layers).toMatchObject([
      { name: 'Wells', geometry_type: 'POINT', crs: 'EPSG:4326', feature_count: 1 },
    ]);
    const { response } = await tile('legacy.sqlite', 'Wells', -0.1276, 51.5072, 8);
    expect(response.statusCode, response.body).toBe(200);
  });

  it("reads GDAL's plain WKB layout", async () => {
    const body = await layersOf('gdal.sqlite');
    expect(body.layers).toMatchObject([
      { name: 'parks', geometry_type: 'POLYGON', crs: 'EPSG:4326', feature_count: 1 },
    ]);
    expect(body.layers[0]!.extent).toEqual([-0.19, 51.5, -0.17, 51.52]);
    const { response } = await tile('gdal.sqlite', 'parks', -0.18, 51.51, 12);
    expect(response.statusCode, response.body).toBe(200);
    const feature = await admin.get(`${base()}/features/parks/7?${query('gdal.sqlite')}`);
    expect((feature.json() as MapFeature).properties).toEqual({ name: 'Hyde Park' });
  });

  it('lists tables with a geometry column but no metadata, without drawing them (no CRS)', async () => {
    const body = await layersOf('declared.sqlite');
    expect(body.layers).toMatchObject([
      {
        name: 'sites',
        geometry_type: 'POINT',
        srs_id: -1,
        crs: null,
        drawable: false,
        feature_count: 1,
        extent: [21, 52, 21, 52],
      },
    ]);
    const { response } = await tile('declared.sqlite', 'sites', 21, 52, 8);
    expect(response.statusCode).toBe(422);
    const page = await admin.get(`${base()}/features/sites?${query('declared.sqlite')}`);
    expect((page.json() as MapFeaturePage).features).toMatchObject([
      { fid: 1, geometry_type: 'POINT', extent_3857: null, properties: { name: 'north site' } },
    ]);
  });

  it('lists no layers for a SQLite file without geometry, 422 for one that is not SQLite', async () => {
    expect((await layersOf('plain.sqlite')).layers).toEqual([]);
    const garbage = await admin.get(`${base()}/layers?${query('garbage.sqlite')}`);
    expect(garbage.statusCode).toBe(422);
    const unknown = await admin.get(`${base()}/tiles/notes/1/0/0.mvt?${query('plain.sqlite')}`);
    expect(unknown.statusCode).toBe(404);
  });
});
