/**
 * GDAL as the client of OGC API - Features (issue 32): ogrinfo and ogr2ogr (Debian's
 * gdal-bin) read every collection of a test project through the `OAPIF:` driver from a
 * listening server, page by page, with a bbox, and (GDAL 3.6's OAPIF driver asks for CRS84
 * only) through its GeoJSON driver in the layer's own CRS; the copy has the same features
 * and attributes as the GeoPackage, compared row by row.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeBearerToken } from '../../server/src/auth/bearer';
import { hashPassword } from '../../server/src/auth/passwords';
import { upsertProjectMembers } from '../../server/src/db/queries/projects';
import { insertUser } from '../../server/src/db/queries/users';
import type { User } from '../../server/src/db/schema';
import { dataOutGeoPackage, PLOT } from './support/data-out';
import { gdalFeatures, gdalInfo, gdalRead, type GdalFeature } from './support/gdal';
import { scratch, type Scratch } from './support/geopackage';
import { commit, createProject } from './support/seed';
import { createTestApp, type TestApp } from './support/test-app';

let t: TestApp;
let s: Scratch;
let origin: string;
let gpkgFile: string;
let reader: User;
let token: string;

const FILE = 'survey/data.gpkg';
const LAYERS = ['notes', 'parks', 'plots', 'trees'];

beforeAll(async () => {
  t = await createTestApp();
  s = await scratch();
  const bytes = await dataOutGeoPackage(s.dir, false);
  gpkgFile = s.file('source.gpkg');
  await (await import('node:fs/promises')).writeFile(gpkgFile, bytes);
  reader = await insertUser(t.database.db, {
    username: 'reader',
    email: 'reader@example.com',
    passwordHash: await hashPassword('Field-Password-1'),
    verifiedEmail: true,
  });
  const project = await createProject(t, { name: 'survey' });
  await upsertProjectMembers(t.database.db, project.id, [{ userId: reader.id, role: 'reader' }]);
  await commit(t, project.id, { added: { [FILE]: bytes } });
  await commit(t, project.id, { added: { 'notes.txt': 'later' } });
  token = makeBearerToken(t.config.secretKey, reader, t.clock.now()).token;
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const address = t.app.server.address();
  if (!address || typeof address === 'string') throw new Error('not listening');
  origin = `http://127.0.0.1:${address.port}`;
});

afterAll(async () => {
  await t?.close();
  await s?.cleanup();
});

const landing = () => `${origin}/ogc/waymark/survey/v1`;
const auth = () => ({ GDAL_HTTP_HEADERS: `Authorization: Bearer ${token}` });

/** Rows by the source's fid (GDAL's FID: the GeoPackage's, or the OAPIF feature id), geometry rounded to 1e-8° (about a millimetre). */
function byFid(features: GdalFeature[]) {
  const round = (value: unknown): unknown =>
    Array.isArray(value)
      ? value.map(round)
      : typeof value === 'number'
        ? Math.round(value * 1e8) / 1e8
        : value;
  return new Map(
    features.map((f) => {
      const { source_fid: fid, ...properties } = f.properties;
      return [
        Number(fid),
        {
          properties,
          geometry: f.geometry && {
            type: f.geometry.type,
            coordinates: round(f.geometry.coordinates),
          },
        },
      ];
    }),
  );
}

describe('GDAL OAPIF', () => {
  it('lists every collection with ogrinfo (a token in the Authorization header)', async () => {
    const info = await gdalInfo(`OAPIF:${landing()}`, { env: auth() });
    for (const layer of LAYERS) expect(info).toContain(`Layer name: ${layer}`);
    expect(info).toMatch(/Layer name: trees[\s\S]*Feature Count: 3/);
    // Without the token the project is private.
    await expect(gdalInfo(`OAPIF:${landing()}`)).rejects.toThrow();
  });

  it('copies every collection page by page with the same rows as the GeoPackage', async () => {
    for (const layer of LAYERS) {
      const { features, log } = await gdalRead(`OAPIF:${landing()}`, {
        layer,
        withFid: true,
        args: ['-oo', 'PAGE_SIZE=2'],
        env: { ...auth(), CPL_DEBUG: 'ON' },
      });
      // In WGS 84 as GDAL reprojects the GeoPackage itself (proj and proj4js agree to 1e-8°).
      const direct = await gdalFeatures(gpkgFile, {
        layer,
        withFid: true,
        args: ['-t_srs', 'EPSG:4326', '-lco', 'RFC7946=YES', '-lco', 'COORDINATE_PRECISION=12'],
      });
      const copy = byFid(features);
      const expected = byFid(direct);
      expect(copy.size, layer).toBe(direct.length);
      expect([...copy.keys()].sort(), layer).toEqual([...expected.keys()].sort());
      for (const [fid, row] of expected) {
        const got = copy.get(fid)!;
        expect(got.properties, `${layer} ${fid}`).toEqual(row.properties);
        expect(got.geometry, `${layer} ${fid}`).toEqual(row.geometry);
      }
      // More rows than a page: GDAL followed the next links.
      if (direct.length > 2) expect(log, layer).toMatch(/items\?limit=2&f=json&cursor=\d+/);
    }
  });

  it('asks with the bbox of a spatial filter', async () => {
    const { features, log } = await gdalRead(`OAPIF:${landing()}`, {
      layer: 'trees',
      args: ['-spat', '-1', '50', '14', '53'],
      env: { ...auth(), CPL_DEBUG: 'ON' },
    });
    expect(features.map((f) => f.properties.name).sort()).toEqual(['berlin oak', 'london plane']);
    expect(log).toMatch(/bbox=-1(\.0+)?,50/);
  });

  it("reads a layer in its own CRS (GDAL's GeoJSON driver), in the CRS's axis order", async () => {
    const url = `${landing()}/collections/plots/items?f=json&limit=100&crs=${encodeURIComponent(
      'http://www.opengis.net/def/crs/EPSG/0/2180',
    )}`;
    const features = await gdalFeatures(url, { env: auth() });
    const direct = await gdalFeatures(gpkgFile, { layer: 'plots' });
    expect(features).toHaveLength(direct.length);
    features.forEach((feature, i) => {
      const own = direct[i]!.geometry?.coordinates as number[] | undefined;
      // EPSG:2180 is northing, easting: the file's x and y swapped.
      expect(feature.geometry?.coordinates ?? null).toEqual(own ? [own[1], own[0]] : null);
      expect(feature.properties.code).toBe(direct[i]!.properties.code);
    });
    expect(features[0]!.geometry!.coordinates).toEqual([PLOT.y, PLOT.x]);
  });
});
