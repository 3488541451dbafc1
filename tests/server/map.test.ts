/**
 * The map of a GeoPackage (issue 19): layers, vector tiles decoded back to positions,
 * attribute pages, features by fid, a version's changes, caching headers, validation and
 * access. The GeoPackage is written here (support/map-geopackage.ts): a point layer with an
 * rtree and a polygon layer without one in EPSG:4326, and a point layer in EPSG:2180.
 */
import path from 'node:path';
import { readFile } from 'node:fs/promises';
import { VectorTile } from '@mapbox/vector-tile';
import { PbfReader } from 'pbf';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashPassword } from '../../server/src/auth/passwords';
import { ConfigError, loadConfig } from '../../server/src/config';
import { insertUser } from '../../server/src/db/queries/users';
import type { Project } from '../../server/src/db/schema';
import { runPendingChangesets } from '../../server/src/services/changesets';
import type {
  MapChanges,
  MapFeature,
  MapFeaturePage,
  MapLayers,
} from '../../server/src/schemas/map';
import { writeGeoPackage, gridPoints, type TestLayer } from './support/map-geopackage';
import { scratch, type Scratch } from './support/geopackage';
import { tileOf } from './support/tiles';
import { commit, createProject } from './support/seed';
import {
  ADMIN_PASSWORD,
  createTestApp,
  problem,
  type TestApp,
  type TestClient,
} from './support/test-app';

let t: TestApp;
let s: Scratch;
let admin: TestClient;
let mallory: TestClient;
let anonymous: TestClient;
let priv: Project;
let pub: Project;
let v1: Buffer;
let v2: Buffer;

const FILE = 'survey/data.gpkg';

/** A plot at easting 600000, northing 400000 of EPSG:2180: 20.43979°E 51.45773°N. */
const PLOT = { x: 600000, y: 400000, lon: 20.4397924382154, lat: 51.45772891197599 };

const TREES: TestLayer['rows'] = [
  {
    fid: 1,
    geometry: { point: [-0.1276, 51.5072] },
    values: { name: 'london plane', height: 21.5, planted: '1990-04-01', healthy: 1 },
  },
  {
    fid: 2,
    geometry: { point: [2.3522, 48.8566] },
    values: { name: 'paris lime', height: 12, healthy: 0 },
  },
  { fid: 3, geometry: { point: [13.405, 52.52] }, values: { name: 'berlin oak', height: 30.25 } },
];

/** v1: three trees; v2: the first renamed, the third removed, a fourth planted. */
const trees = (renamed: boolean): TestLayer => ({
  name: 'trees',
  srsId: 4326,
  type: 'POINT',
  rtree: true,
  columns: { name: 'TEXT', height: 'REAL', planted: 'DATE', healthy: 'BOOLEAN' },
  rows: renamed
    ? [
        { ...TREES[0]!, values: { ...TREES[0]!.values, name: 'old plane' } },
        TREES[1]!,
        { fid: 4, geometry: { point: [21.0122, 52.2297] }, values: { name: 'warsaw elm' } },
      ]
    : TREES,
});

const parks: TestLayer = {
  name: 'parks',
  srsId: 4326,
  type: 'POLYGON',
  columns: { name: 'TEXT' },
  rows: [
    {
      fid: 7,
      geometry: {
        polygon: [
          [
            [-0.19, 51.5],
            [-0.15, 51.5],
            [-0.15, 51.52],
            [-0.19, 51.52],
            [-0.19, 51.5],
          ],
        ],
      },
      values: { name: 'Hyde Park' },
    },
  ],
};

const plots: TestLayer = {
  name: 'plots',
  srsId: 2180,
  type: 'POINT',
  rtree: true,
  columns: { code: 'TEXT', area: 'INTEGER' },
  rows: [
    { fid: 10, geometry: { point: [PLOT.x, PLOT.y] }, values: { code: 'PL-10', area: 1200 } },
    { fid: 11, geometry: null, values: { code: 'PL-11', area: 90 } },
  ],
};

/** 5,000 points within 0.01° around 10°E 45°N. */
const dense: TestLayer = {
  name: 'dense',
  srsId: 4326,
  type: 'POINT',
  columns: { name: 'TEXT' },
  rows: gridPoints(5000, [10, 45, 10.01, 45.01]),
};

async function gpkg(name: string, layers: TestLayer[]): Promise<Buffer> {
  const file = path.join(s.dir, name);
  writeGeoPackage(file, layers);
  return readFile(file);
}

const base = (project: Project) => `/app/map/waymark/${project.name}`;
const fileQuery = (version?: string) =>
  `file=${encodeURIComponent(FILE)}${version === undefined ? '' : `&version=${version}`}`;

function decode(body: Buffer) {
  return new VectorTile(new PbfReader(body));
}

beforeAll(async () => {
  t = await createTestApp();
  s = await scratch();
  admin = t.client();
  await admin.login('admin', ADMIN_PASSWORD);
  await insertUser(t.database.db, {
    username: 'mallory',
    email: 'mallory@example.com',
    passwordHash: await hashPassword('Field-Password-1'),
    verifiedEmail: true,
  });
  mallory = t.client();
  await mallory.login('mallory', 'Field-Password-1');
  anonymous = t.client();
  v1 = await gpkg('v1.gpkg', [trees(false), parks, plots, dense]);
  v2 = await gpkg('v2.gpkg', [trees(true), parks, plots, dense]);
  priv = await createProject(t, { name: 'survey' });
  await commit(t, priv.id, { added: { [FILE]: v1, 'notes.txt': 'hello' } });
  await commit(t, priv.id, { updated: { [FILE]: v2 } });
  await runPendingChangesets(t.app.ctx);
  pub = await createProject(t, { name: 'open-data', public: true });
  await commit(t, pub.id, { added: { [FILE]: v1 } });
});

afterAll(async () => {
  await t?.close();
  await s?.cleanup();
});

describe('layers', () => {
  it('lists each feature layer with its CRS, count, extent and columns', async () => {
    const response = await admin.get(`${base(priv)}/layers?${fileQuery('v1')}`);
    expect(response.statusCode, response.body).toBe(200);
    const body = response.json() as MapLayers;
    expect(body.version).toBe('v1');
    expect(body.file).toBe(FILE);
    expect(body.layers.map((l) => l.name)).toEqual(['dense', 'parks', 'plots', 'trees']);
    const byName = Object.fromEntries(body.layers.map((l) => [l.name, l]));
    expect(byName.trees).toMatchObject({
      geometry_type: 'POINT',
      geometry_column: 'geom',
      fid_column: 'fid',
      srs_id: 4326,
      crs: 'EPSG:4326',
      drawable: true,
      feature_count: 3,
      columns: [
        { name: 'name', type: 'text' },
        { name: 'height', type: 'double' },
        { name: 'planted', type: 'date' },
        { name: 'healthy', type: 'boolean' },
      ],
    });
    // From the rtree (single precision, rounded outwards).
    [-0.1276, 48.8566, 13.405, 52.52].forEach((v, i) =>
      expect(byName.trees!.extent![i]).toBeCloseTo(v, 4),
    );
    expect(byName.plots).toMatchObject({
      srs_id: 2180,
      crs: 'EPSG:2180',
      crs_name: 'ETRF2000-PL / CS92',
      feature_count: 2,
    });
    [PLOT.x, PLOT.y, PLOT.x, PLOT.y].forEach((v, i) =>
      expect(byName.plots!.extent![i]).toBeCloseTo(v, -2),
    );
    const [lon, lat] = byName.plots!.extent_4326!;
    expect(lon).toBeCloseTo(PLOT.lon, 6);
    expect(lat).toBeCloseTo(PLOT.lat, 6);
    const [mx] = byName.plots!.extent_3857!;
    expect(mx).toBeCloseTo((PLOT.lon / 180) * 20037508.342789244, 1);
    expect(byName.parks!.extent).toEqual([-0.19, 51.5, -0.15, 51.52]);
  });

  it('keys answers by the content: ETag, 304, and caching by explicit version', async () => {
    const first = await admin.get(`${base(priv)}/layers?${fileQuery('v1')}`);
    const sha = (first.json() as MapLayers).checksum;
    expect(first.headers.etag).toBe(`"${sha}.m2"`);
    expect(first.headers['cache-control']).toBe('private, max-age=300');
    const again = await admin.get(`${base(priv)}/layers?${fileQuery('v1')}`, {
      headers: { 'if-none-match': first.headers.etag as string },
    });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
    // The public project's v1 holds the same bytes: the same key.
    const shared = await anonymous.get(`${base(pub)}/layers?${fileQuery('v1')}`);
    expect(shared.headers.etag).toBe(first.headers.etag);
    const latest = await admin.get(`${base(priv)}/layers?${fileQuery()}`);
    expect((latest.json() as MapLayers).version).toBe('v2');
    expect(latest.headers['cache-control']).toBe('private, no-cache');
    expect(latest.headers.etag).not.toBe(first.headers.etag);
  });
});

describe('tiles', () => {
  const tileUrl = (project: Project, layer: string, z: number, x: number, y: number, v = 'v1') =>
    `${base(project)}/tiles/${layer}/${z}/${x}/${y}.mvt?${fileQuery(v)}`;

  it('places a point where it belongs, with its fid as id and property', async () => {
    const { x, y, px, py } = tileOf(-0.1276, 51.5072, 10);
    const response = await admin.get(tileUrl(priv, 'trees', 10, x, y));
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers['content-type']).toBe('application/vnd.mapbox-vector-tile');
    const layer = decode(response.rawPayload).layers.trees!;
    expect(layer.length).toBe(1);
    const feature = layer.feature(0);
    expect(feature.id).toBe(1);
    expect(feature.properties).toEqual({ fid: 1 });
    const [[point]] = feature.loadGeometry() as [[{ x: number; y: number }]];
    expect(Math.abs(point.x - px)).toBeLessThanOrEqual(1);
    expect(Math.abs(point.y - py)).toBeLessThanOrEqual(1);
  });

  it('reprojects a layer in EPSG:2180 from its own definition', async () => {
    const { x, y, px, py } = tileOf(PLOT.lon, PLOT.lat, 14);
    const response = await admin.get(tileUrl(priv, 'plots', 14, x, y));
    expect(response.statusCode, response.body).toBe(200);
    const feature = decode(response.rawPayload).layers.plots!.feature(0);
    expect(feature.id).toBe(10);
    const [[point]] = feature.loadGeometry() as [[{ x: number; y: number }]];
    expect(Math.abs(point.x - px)).toBeLessThanOrEqual(1);
    expect(Math.abs(point.y - py)).toBeLessThanOrEqual(1);
  });

  it('cuts a polygon layer without an rtree', async () => {
    const { x, y } = tileOf(-0.17, 51.51, 9);
    const response = await admin.get(tileUrl(priv, 'parks', 9, x, y));
    expect(response.statusCode, response.body).toBe(200);
    const feature = decode(response.rawPayload).layers.parks!.feature(0);
    expect(feature.type).toBe(3);
    expect(feature.id).toBe(7);
    const ring = feature.loadGeometry()[0]!;
    const xs = ring.map((p) => p.x);
    const ys = ring.map((p) => p.y);
    const sw = tileOf(-0.19, 51.5, 9);
    const ne = tileOf(-0.15, 51.52, 9);
    expect(Math.abs(Math.min(...xs) - sw.px)).toBeLessThanOrEqual(1);
    expect(Math.abs(Math.max(...xs) - ne.px)).toBeLessThanOrEqual(1);
    expect(Math.abs(Math.max(...ys) - sw.py)).toBeLessThanOrEqual(1);
    expect(Math.abs(Math.min(...ys) - ne.py)).toBeLessThanOrEqual(1);
  });

  it('answers 204 for an empty tile and a whole world tile at zoom 0', async () => {
    const { x, y } = tileOf(-120, -40, 8);
    const empty = await admin.get(tileUrl(priv, 'trees', 8, x, y));
    expect(empty.statusCode).toBe(204);
    expect(empty.body).toBe('');
    const world = await admin.get(tileUrl(priv, 'trees', 0, 0, 0));
    expect(decode(world.rawPayload).layers.trees!.length).toBe(3);
  });

  it('thins dense points at low zoom: one per 8x8-pixel cell', async () => {
    const world = await admin.get(tileUrl(priv, 'dense', 0, 0, 0));
    expect(decode(world.rawPayload).layers.dense!.length).toBe(1);
    // At zoom 14 the 0.01° square spans about 14 cells of 76 m: fewer points than 5,000 but many.
    const { x, y } = tileOf(10.005, 45.005, 14);
    const near = await admin.get(tileUrl(priv, 'dense', 14, x, y));
    const shown = decode(near.rawPayload).layers.dense!.length;
    expect(shown).toBeGreaterThan(100);
    expect(shown).toBeLessThan(5000);
    // Deep enough, every point is drawn.
    let total = 0;
    const z = 18;
    const a = tileOf(10, 45.01, z);
    const b = tileOf(10.01, 45, z);
    for (let tx = a.x; tx <= b.x; tx++) {
      for (let ty = a.y; ty <= b.y; ty++) {
        const tile = await admin.get(tileUrl(priv, 'dense', z, tx, ty));
        if (tile.statusCode !== 200) continue;
        const layer = decode(tile.rawPayload).layers.dense!;
        for (let i = 0; i < layer.length; i++) {
          const [[p]] = layer.feature(i).loadGeometry() as [[{ x: number; y: number }]];
          if (p.x >= 0 && p.x < 4096 && p.y >= 0 && p.y < 4096) total++;
        }
      }
    }
    expect(total).toBe(5000);
  });

  it('rejects bad tile addresses, unknown layers and files', async () => {
    const bad = [
      tileUrl(priv, 'trees', 25, 0, 0),
      tileUrl(priv, 'trees', 2, 4, 0),
      tileUrl(priv, 'trees', 2, 0, 4),
      `${base(priv)}/tiles/trees/a/0/0.mvt?${fileQuery('v1')}`,
      `${base(priv)}/tiles/trees/0/0/0.mvt?${fileQuery('x1')}`,
      `${base(priv)}/tiles/trees/0/0/0.mvt`,
      `${base(priv)}/tiles/trees/0/0/0.mvt?file=notes.txt`,
    ];
    for (const url of bad) {
      const response = await admin.get(url);
      expect(response.statusCode, url).toBe(400);
    }
    const unknown = await admin.get(tileUrl(priv, 'nope', 0, 0, 0));
    expect(unknown.statusCode).toBe(404);
    expect(problem(unknown).detail).toBe('Layer nope not found');
    const injected = await admin.get(
      tileUrl(priv, encodeURIComponent('trees"; DROP TABLE x;--'), 0, 0, 0),
    );
    expect(injected.statusCode).toBe(404);
    const missing = await admin.get(`${base(priv)}/layers?file=missing.gpkg`);
    expect(missing.statusCode).toBe(404);
    const future = await admin.get(`${base(priv)}/layers?${fileQuery('v9')}`);
    expect(future.statusCode).toBe(404);
  });
});

describe('attribute rows', () => {
  const featuresUrl = (layer: string, query: string, v = 'v1') =>
    `${base(priv)}/features/${layer}?${fileQuery(v)}${query}`;

  it('pages, sorts by any column and filters by text', async () => {
    const response = await admin.get(featuresUrl('trees', '&sort=height&order=desc&per_page=2'));
    expect(response.statusCode, response.body).toBe(200);
    const page = response.json() as MapFeaturePage;
    expect(page.count).toBe(3);
    expect(page.per_page).toBe(2);
    expect(page.features.map((f) => f.fid)).toEqual([3, 1]);
    expect(page.features[1]).toEqual({
      fid: 1,
      geometry_type: 'POINT',
      extent_3857: expect.any(Array),
      properties: { name: 'london plane', height: 21.5, planted: '1990-04-01', healthy: true },
    });
    const second = await admin.get(
      featuresUrl('trees', '&sort=height&order=desc&per_page=2&page=2'),
    );
    expect((second.json() as MapFeaturePage).features.map((f) => f.fid)).toEqual([2]);
    const filtered = await admin.get(featuresUrl('trees', '&filter=PARIS'));
    expect((filtered.json() as MapFeaturePage).features.map((f) => f.fid)).toEqual([2]);
    const byNumber = await admin.get(featuresUrl('trees', '&filter=30.2'));
    expect((byNumber.json() as MapFeaturePage).features.map((f) => f.fid)).toEqual([3]);
    const byFids = await admin.get(featuresUrl('trees', '&fids=3,1'));
    expect((byFids.json() as MapFeaturePage).features.map((f) => f.fid)).toEqual([1, 3]);
    const defaults = await admin.get(featuresUrl('dense', ''));
    const all = defaults.json() as MapFeaturePage;
    expect(all.features).toHaveLength(50);
    expect(all.count).toBe(5000);
  });

  it('shows a feature without geometry, and a version before a change', async () => {
    const plot = await admin.get(`${base(priv)}/features/plots/11?${fileQuery('v1')}`);
    expect(plot.json()).toEqual({
      fid: 11,
      geometry_type: null,
      extent_3857: null,
      properties: { code: 'PL-11', area: 90 },
      geometry: null,
    });
    const before = await admin.get(`${base(priv)}/features/trees/1?${fileQuery('v1')}`);
    expect((before.json() as MapFeature).properties.name).toBe('london plane');
    const after = await admin.get(`${base(priv)}/features/trees/1?${fileQuery('v2')}`);
    expect((after.json() as MapFeature).properties.name).toBe('old plane');
    const extent = (before.json() as MapFeature).extent_3857!;
    expect(extent[0]).toBeCloseTo((-0.1276 / 180) * 20037508.342789244, 1);
  });

  it('rejects unknown columns, bad pages and unknown fids with 4xx', async () => {
    const cases: [string, number][] = [
      [featuresUrl('trees', '&sort=nope'), 400],
      [featuresUrl('trees', '&sort=name%22%20--'), 400],
      [featuresUrl('trees', '&per_page=101'), 400],
      [featuresUrl('trees', '&per_page=0'), 400],
      [featuresUrl('trees', '&page=0'), 400],
      [featuresUrl('trees', '&order=up'), 400],
      [featuresUrl('trees', '&fids=1,a'), 400],
      [featuresUrl('trees', `&fids=${Array.from({ length: 1001 }, (_, i) => i).join(',')}`), 400],
      [featuresUrl('nope', ''), 404],
      [`${base(priv)}/features/trees/99?${fileQuery('v1')}`, 404],
      [`${base(priv)}/features/trees/x?${fileQuery('v1')}`, 400],
    ];
    for (const [url, status] of cases) {
      const response = await admin.get(url);
      expect(response.statusCode, url).toBe(status);
    }
  });
});

describe('changes', () => {
  it("lists a version's inserted, updated and deleted features, with the deleted geometry", async () => {
    const response = await admin.get(`${base(priv)}/changes?${fileQuery('v2')}`);
    expect(response.statusCode, response.body).toBe(200);
    const body = response.json() as MapChanges;
    expect(body).toEqual({
      file: FILE,
      version: 'v2',
      truncated: false,
      layers: [
        {
          layer: 'trees',
          inserted: [4],
          updated: [1],
          deleted: [3],
          deleted_features: [
            {
              fid: 3,
              geometry: { type: 'Point', coordinates: [13.405, 52.52] },
              properties: { name: 'berlin oak', height: 30.25, planted: null, healthy: null },
            },
          ],
        },
      ],
    });
  });

  it('answers 404 for a version that did not update the file, 400 for a bad version', async () => {
    const added = await admin.get(`${base(priv)}/changes?${fileQuery('v1')}`);
    expect(added.statusCode).toBe(404);
    const bad = await admin.get(`${base(priv)}/changes?${fileQuery()}`);
    expect(bad.statusCode).toBe(400);
  });
});

describe('access', () => {
  it('is the download permission: public projects for anyone, private ones for readers', async () => {
    const open = await anonymous.get(`${base(pub)}/features/trees?${fileQuery()}`);
    expect(open.statusCode, open.body).toBe(200);
    for (const client of [anonymous, mallory]) {
      const response = await client.get(`${base(priv)}/layers?${fileQuery()}`);
      const download = await client.get(
        `/v1/project/raw/waymark/${priv.name}?${fileQuery().replace('file=', 'file=')}`,
      );
      expect(response.statusCode).toBe(download.statusCode);
      expect([401, 403, 404]).toContain(response.statusCode);
    }
  });
});

describe('unreadable files', () => {
  it('answers 422 for a .gpkg that is not a GeoPackage', async () => {
    const project = await createProject(t, { name: 'broken' });
    await commit(t, project.id, { added: { 'bad.gpkg': 'not sqlite at all' } });
    const response = await admin.get(`${base(project)}/layers?file=bad.gpkg`);
    expect(response.statusCode).toBe(422);
  });
});

describe('basemap', () => {
  it('is absent from /config by default: a fresh install asks no one else for tiles', async () => {
    const response = await anonymous.get('/config');
    expect(response.json()).not.toHaveProperty('basemap');
  });

  it('comes from BASEMAP_URL and BASEMAP_ATTRIBUTION, checked at start', async () => {
    const url = 'https://{a-c}.tile.example.org/{z}/{x}/{y}.png';
    const other = await createTestApp({
      env: { BASEMAP_URL: url, BASEMAP_ATTRIBUTION: '© OpenStreetMap contributors' },
    });
    try {
      const response = await other.client().get('/config');
      expect(response.json().basemap).toEqual({
        url,
        attribution: '© OpenStreetMap contributors',
      });
      // The page may load its tiles (images) and the service worker fetch them: the CSP
      // allows the basemap's hosts, and no other.
      const origins = ['a', 'b', 'c'].map((h) => `https://${h}.tile.example.org`).join(' ');
      const csp = String(response.headers['content-security-policy']);
      expect(csp).toContain(`img-src 'self' data: blob: ${origins};`);
      expect(csp).toContain(`connect-src 'self' ${origins};`);
    } finally {
      await other.close();
    }
    const env = { DATA_DIR: s.dir, SECRET_KEY: 'x'.repeat(40) };
    for (const bad of [
      { BASEMAP_URL: 'https://tile.example.org/{z}/{x}.png' },
      { BASEMAP_URL: 'ftp://tile.example.org/{z}/{x}/{y}.png' },
      { BASEMAP_URL: 'https://tile.example.org/{z}/{x}/{y}.png', BASEMAP_ATTRIBUTION: '<b>x</b>' },
      { BASEMAP_ATTRIBUTION: 'orphan' },
    ]) {
      expect(() => loadConfig({ ...env, ...bad }), JSON.stringify(bad)).toThrow(ConfigError);
    }
  });
});
