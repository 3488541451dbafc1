/**
 * Exports of a layer (issue 32): every format from a version that is not the latest, with
 * the attribute table's filter and sort or all rows, read back by GDAL row by row; escaping
 * (CSV formulas, XML); the file name; access as downloads.
 */
import { writeFile } from 'node:fs/promises';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashPassword } from '../../server/src/auth/passwords';
import { insertUser } from '../../server/src/db/queries/users';
import type { Project } from '../../server/src/db/schema';
import { dataOutGeoPackage, NOTE_TEXTS, PLOT } from './support/data-out';
import { gdalFeatures } from './support/gdal';
import { scratch, type Scratch } from './support/geopackage';
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

const FILE = 'survey/data.gpkg';

const url = (project: Project, layer: string, query: Record<string, string>) =>
  `/app/export/waymark/${project.name}/${encodeURIComponent(layer)}?${new URLSearchParams({
    file: FILE,
    ...query,
  })}`;

/** The body of an export, saved to a scratch file for GDAL. */
async function saved(name: string, body: Buffer): Promise<string> {
  const file = s.file(name);
  await writeFile(file, body);
  return file;
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
  priv = await createProject(t, { name: 'survey' });
  await commit(t, priv.id, { added: { [FILE]: await dataOutGeoPackage(s.dir, false) } });
  await commit(t, priv.id, { updated: { [FILE]: await dataOutGeoPackage(s.dir, true) } });
  pub = await createProject(t, { name: 'open-data', public: true });
  await commit(t, pub.id, { added: { [FILE]: await dataOutGeoPackage(s.dir, false) } });
});

afterAll(async () => {
  await t?.close();
  await s?.cleanup();
});

describe('GeoJSON', () => {
  it('exports the filtered, sorted rows of a version that is not the latest, read back by GDAL', async () => {
    const response = await admin.get(
      url(priv, 'trees', {
        version: 'v1',
        format: 'geojson',
        filter: 'o',
        sort: 'height',
        order: 'desc',
      }),
    );
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers['content-type']).toBe('application/geo+json');
    expect(response.headers['content-disposition']).toBe(
      "attachment; filename*=UTF-8''survey-trees-v1.geojson",
    );
    expect(Number(response.headers['content-length'])).toBe(response.rawPayload.length);
    const body = response.json() as {
      type: string;
      crs?: unknown;
      features: { id: number; properties: Record<string, unknown> }[];
    };
    expect(body.type).toBe('FeatureCollection');
    expect(body.crs).toBeUndefined();
    // 'o' is in 'london plane' and 'berlin oak' (v1: not renamed), by height descending.
    expect(body.features.map((f) => f.id)).toEqual([3, 1]);
    expect(body.features[1]!.properties).toEqual({
      name: 'london plane',
      height: 21.5,
      planted: '1990-04-01',
      healthy: true,
    });
    const read = await gdalFeatures(await saved('trees.geojson', response.rawPayload));
    expect(read.map((f) => [f.properties.name, f.geometry])).toEqual([
      ['berlin oak', { type: 'Point', coordinates: [13.405, 52.52] }],
      ['london plane', { type: 'Point', coordinates: [-0.1276, 51.5072] }],
    ]);
  });

  it('reprojects to WGS 84 and winds polygons by the right-hand rule', async () => {
    const plots = (await admin.get(url(priv, 'plots', { format: 'geojson' }))).json() as {
      features: { id: number; geometry: { coordinates: number[] } | null }[];
    };
    const [lon, lat] = plots.features[0]!.geometry!.coordinates as [number, number];
    expect(lon).toBeCloseTo(PLOT.lon, 6);
    expect(lat).toBeCloseTo(PLOT.lat, 6);
    expect(plots.features[1]).toMatchObject({ id: 11, geometry: null });

    const parks = (await admin.get(url(priv, 'parks', { format: 'geojson' }))).json() as {
      features: { geometry: { coordinates: number[][][] } }[];
    };
    const area = (ring: number[][]) =>
      ring.reduce((sum, [x, y], i) => {
        const [nx, ny] = ring[(i + 1) % ring.length]!;
        return sum + (x! * ny! - nx! * y!);
      }, 0);
    for (const park of parks.features) {
      const [outer, ...holes] = park.geometry.coordinates;
      expect(area(outer!)).toBeGreaterThan(0);
      for (const hole of holes) expect(area(hole)).toBeLessThan(0);
    }
  });

  it('keeps integers beyond 2^53 exact', async () => {
    const response = await admin.get(url(priv, 'notes', { format: 'geojson' }));
    expect(response.body).toContain('"big":9007199254740993');
  });
});

describe('CSV', () => {
  it('writes WKT, X and Y in the layer CRS, neutralises formulas, and GDAL reads it back', async () => {
    const response = await admin.get(url(priv, 'plots', { version: 'v1', format: 'csv' }));
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(response.headers['content-disposition']).toContain('survey-plots-v1.csv');
    const text = response.rawPayload.toString('utf8');
    expect(text.startsWith('\ufeffWKT,X,Y,fid,code,area\r\n')).toBe(true);
    expect(text.split('\r\n').slice(1, 4)).toEqual([
      `POINT (${PLOT.x} ${PLOT.y}),${PLOT.x},${PLOT.y},10,PL-10,1200`,
      ',,,11,PL-11,90',
      `POINT (${PLOT.x + 1000} ${PLOT.y + 500}),${PLOT.x + 1000},${PLOT.y + 500},12,PL-12,-40`,
    ]);
    const read = await gdalFeatures(await saved('plots.csv', response.rawPayload));
    expect(read.map((f) => [f.properties.fid, f.properties.code, f.geometry])).toEqual([
      ['10', 'PL-10', { type: 'Point', coordinates: [PLOT.x, PLOT.y] }],
      ['11', 'PL-11', null],
      ['12', 'PL-12', { type: 'Point', coordinates: [PLOT.x + 1000, PLOT.y + 500] }],
    ]);
  });

  it('neutralises cells a spreadsheet would run, and quotes what needs quoting', async () => {
    const response = await admin.get(url(priv, 'notes', { format: 'csv' }));
    const read = await gdalFeatures(await saved('notes.csv', response.rawPayload));
    const expected = NOTE_TEXTS.map((text) => (/^[=+\-@]/.test(text) ? `'${text}` : text));
    expect(read.map((f) => f.properties.text)).toEqual(expected);
    // Numbers stay numbers (a negative one is not text made inert).
    expect(read.map((f) => f.properties.big)).toEqual([
      '9007199254740993',
      ...NOTE_TEXTS.slice(1).map((_, i) => String(-(i + 1))),
    ]);
  });
});

describe('KML', () => {
  it('writes well-formed, escaped KML in WGS 84 that GDAL reads back', async () => {
    const response = await admin.get(url(priv, 'notes', { format: 'kml' }));
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers['content-type']).toBe('application/vnd.google-earth.kml+xml');
    expect(response.body).not.toContain('<script>');
    expect(response.body).toContain('&lt;script&gt;');
    expect(response.body).not.toContain('\u0001');
    const read = await gdalFeatures(await saved('notes.kml', response.rawPayload));
    expect(read.map((f) => f.properties.text)).toEqual(
      NOTE_TEXTS.map((text) => text.replace('\u0001', '\ufffd')),
    );
    expect(read[0]!.geometry).toEqual({ type: 'Point', coordinates: [10, 45] });
    const plots = await gdalFeatures(
      await saved('plots.kml', (await admin.get(url(priv, 'plots', { format: 'kml' }))).rawPayload),
    );
    const [lon, lat] = plots[0]!.geometry!.coordinates as [number, number];
    expect(lon).toBeCloseTo(PLOT.lon, 6);
    expect(lat).toBeCloseTo(PLOT.lat, 6);
  });
});

describe('GeoPackage', () => {
  it('writes the layer alone in its own CRS with its spatial index, read back by GDAL', async () => {
    const response = await admin.get(url(priv, 'plots', { version: 'v1', format: 'gpkg' }));
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers['content-disposition']).toContain('survey-plots-v1.gpkg');
    const file = await saved('plots.gpkg', response.rawPayload);
    const db = new Database(file, { readonly: true });
    try {
      const tables = (
        db
          .prepare(`SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name`)
          .pluck()
          .all() as string[]
      ).filter((name) => !/^gpkg_|_(node|parent|rowid)$/.test(name));
      expect(tables).toEqual(['plots', 'rtree_plots_geom', 'sqlite_sequence']);
      expect(db.prepare('SELECT count(*) FROM rtree_plots_geom').pluck().get()).toBe(2);
      expect(
        db.prepare(`SELECT count(*) FROM sqlite_master WHERE type = 'trigger'`).pluck().get(),
      ).toBe(6);
      expect(
        db
          .prepare('SELECT organization_coordsys_id FROM gpkg_spatial_ref_sys WHERE srs_id = 2180')
          .pluck()
          .get(),
      ).toBe(2180);
    } finally {
      db.close();
    }
    const read = await gdalFeatures(file);
    expect(read.map((f) => [f.properties.code, f.properties.area, f.geometry])).toEqual([
      ['PL-10', 1200, { type: 'Point', coordinates: [PLOT.x, PLOT.y] }],
      ['PL-11', 90, null],
      ['PL-12', -40, { type: 'Point', coordinates: [PLOT.x + 1000, PLOT.y + 500] }],
    ]);
    // GDAL uses the index for a spatial filter.
    const near = await gdalFeatures(file, {
      args: [
        '-spat',
        String(PLOT.x - 1),
        String(PLOT.y - 1),
        String(PLOT.x + 1),
        String(PLOT.y + 1),
      ],
    });
    expect(near.map((f) => f.properties.code)).toEqual(['PL-10']);
  });

  it('keeps only the filtered rows', async () => {
    const response = await admin.get(url(priv, 'trees', { format: 'gpkg', filter: 'elm' }));
    const read = await gdalFeatures(await saved('elm.gpkg', response.rawPayload));
    expect(read.map((f) => f.properties.name)).toEqual(['warsaw elm']);
  });
});

describe('requests', () => {
  it('refuses what it cannot do with a clear 4xx', async () => {
    expect((await admin.get(url(priv, 'nope', { format: 'csv' }))).statusCode).toBe(404);
    const badSort = await admin.get(url(priv, 'trees', { format: 'csv', sort: 'nope' }));
    expect(problem(badSort)).toMatchObject({ status: 400, detail: 'Unknown column nope' });
    expect((await admin.get(url(priv, 'trees', { format: 'shp' }))).statusCode).toBe(400);
    expect((await admin.get(url(priv, 'trees', { format: 'csv', version: 'v9' }))).statusCode).toBe(
      404,
    );
    expect(
      (await admin.get(`/app/export/waymark/survey/trees?format=csv&file=notes.txt`)).statusCode,
    ).toBe(404);
  });

  it('has the permissions of downloads', async () => {
    expect((await anonymous.get(url(priv, 'trees', { format: 'csv' }))).statusCode).toBe(403);
    expect((await mallory.get(url(priv, 'trees', { format: 'csv' }))).statusCode).toBe(403);
    expect((await anonymous.get(url(pub, 'trees', { format: 'csv' }))).statusCode).toBe(200);
  });
});
