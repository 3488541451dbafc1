/**
 * OGC API - Features (issue 32) through app.inject: the landing page, conformance,
 * collections with extent and CRS, items with limit, next links, bbox, datetime, property
 * filters and the layer's own CRS (Part 2), single items, HTML with everything escaped,
 * `latest` and `vN`, and access (sessions, tokens as Bearer or Basic, tokens of users who
 * lost access). GDAL as the client: ogc-gdal.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeBearerToken } from '../../server/src/auth/bearer';
import { hashPassword } from '../../server/src/auth/passwords';
import { deleteProjectMembers, upsertProjectMembers } from '../../server/src/db/queries/projects';
import { insertUser } from '../../server/src/db/queries/users';
import type { Project, User } from '../../server/src/db/schema';
import { CRS84 } from '../../server/src/schemas/ogc';
import { dataOutGeoPackage, PLOT } from './support/data-out';
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
let anonymous: TestClient;
let priv: Project;
let pub: Project;
let reader: User;

const FILE = 'survey/data.gpkg';
const EPSG_2180 = 'http://www.opengis.net/def/crs/EPSG/0/2180';
const EPSG_4326 = 'http://www.opengis.net/def/crs/EPSG/0/4326';

const base = (project: Project, version = 'v1') => `/ogc/waymark/${project.name}/${version}`;

interface Collection {
  id: string;
  title: string;
  extent: { spatial: { bbox: number[][] }; temporal?: { interval: (string | null)[][] } };
  crs: string[];
  storageCrs: string;
  links: { href: string; rel: string; type: string }[];
}
interface Items {
  type: string;
  features: {
    id: number;
    geometry: { coordinates: number[] } | null;
    properties: Record<string, unknown>;
  }[];
  numberMatched?: number;
  numberReturned: number;
  links: { href: string; rel: string; type: string }[];
}

async function items(url: string, client = admin): Promise<Items> {
  const response = await client.get(url);
  expect(response.statusCode, response.body).toBe(200);
  expect(response.headers['content-type']).toBe('application/geo+json');
  return response.json() as Items;
}

const ids = (page: Items) => page.features.map((f) => f.id);
/** The path and query of a link (links are absolute). */
const local = (href: string) => {
  const url = new URL(href);
  return `${url.pathname}${url.search}`;
};

beforeAll(async () => {
  t = await createTestApp();
  s = await scratch();
  admin = t.client();
  await admin.login('admin', ADMIN_PASSWORD);
  anonymous = t.client();
  reader = await insertUser(t.database.db, {
    username: 'reader',
    email: 'reader@example.com',
    passwordHash: await hashPassword('Field-Password-1'),
    verifiedEmail: true,
  });
  priv = await createProject(t, { name: 'survey' });
  await upsertProjectMembers(t.database.db, priv.id, [{ userId: reader.id, role: 'reader' }]);
  await commit(t, priv.id, {
    added: { [FILE]: await dataOutGeoPackage(s.dir, false), 'notes.txt': 'hello' },
  });
  await commit(t, priv.id, {
    updated: { [FILE]: await dataOutGeoPackage(s.dir, true) },
    added: { 'extra.gpkg': await dataOutGeoPackage(s.dir, true) },
  });
  pub = await createProject(t, { name: 'open-data', public: true });
  await commit(t, pub.id, { added: { [FILE]: await dataOutGeoPackage(s.dir, false) } });
});

afterAll(async () => {
  await t?.close();
  await s?.cleanup();
});

describe('landing page and conformance', () => {
  it('links the conformance classes and the collections, as JSON or HTML', async () => {
    const response = await admin.get(base(priv));
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers['content-type']).toBe('application/json');
    const body = response.json() as { title: string; links: { href: string; rel: string }[] };
    expect(body.title).toBe('waymark/survey');
    const rels = body.links.map((l) => `${l.rel} ${local(l.href)}`);
    expect(rels).toContain('conformance /ogc/waymark/survey/v1/conformance');
    expect(rels).toContain('data /ogc/waymark/survey/v1/collections');
    expect(rels.some((r) => r.startsWith('service-doc '))).toBe(true);

    const page = await admin.get(base(priv), {
      headers: { accept: 'text/html,application/xhtml+xml,*/*' },
    });
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(page.body).toContain(
      '<a href="http://localhost:80/ogc/waymark/survey/v1/collections?f=html"',
    );
    expect((await admin.get(`${base(priv)}/?f=html`)).headers['content-type']).toContain(
      'text/html',
    );

    const conformance = (await admin.get(`${base(priv)}/conformance`)).json() as {
      conformsTo: string[];
    };
    expect(conformance.conformsTo).toEqual(
      expect.arrayContaining([
        'http://www.opengis.net/spec/ogcapi-features-1/1.0/conf/core',
        'http://www.opengis.net/spec/ogcapi-features-1/1.0/conf/geojson',
        'http://www.opengis.net/spec/ogcapi-features-1/1.0/conf/html',
        'http://www.opengis.net/spec/ogcapi-features-2/1.0/conf/crs',
      ]),
    );
  });
});

describe('collections', () => {
  it('lists one collection per layer with its extent, CRSs and time', async () => {
    const body = (await admin.get(`${base(priv)}/collections`)).json() as {
      collections: Collection[];
    };
    expect(body.collections.map((c) => c.id)).toEqual(['notes', 'parks', 'plots', 'trees']);
    const byId = Object.fromEntries(body.collections.map((c) => [c.id, c]));
    expect(byId.plots!.crs).toEqual([CRS84, EPSG_2180]);
    expect(byId.plots!.storageCrs).toBe(EPSG_2180);
    expect(byId.trees!.crs).toEqual([CRS84, EPSG_4326]);
    const [w, south, e, n] = byId.trees!.extent.spatial.bbox[0]!;
    expect([w, south, e, n].map((v) => Math.round(v! * 100) / 100)).toEqual([
      -0.13, 48.86, 13.41, 52.52,
    ]);
    expect(byId.trees!.extent.temporal!.interval).toEqual([
      ['1990-04-01T00:00:00Z', '2015-09-30T00:00:00Z'],
    ]);
    expect(byId.parks!.extent.temporal).toBeUndefined();
    const items = byId.trees!.links.find(
      (l) => l.rel === 'items' && l.type === 'application/geo+json',
    );
    expect(local(items!.href)).toBe('/ogc/waymark/survey/v1/collections/trees/items?f=json');
  });

  it('names a layer by its file where two files have a layer of that name', async () => {
    const body = (await admin.get(`${base(priv, 'latest')}/collections`)).json() as {
      collections: Collection[];
    };
    expect(body.collections.map((c) => c.id)).toContain('survey/data.gpkg:trees');
    expect(body.collections.map((c) => c.id)).toContain('extra.gpkg:trees');
    const one = await admin.get(
      `${base(priv, 'latest')}/collections/${encodeURIComponent('extra.gpkg:trees')}`,
    );
    expect(one.statusCode, one.body).toBe(200);
    expect((one.json() as Collection).id).toBe('extra.gpkg:trees');
    expect((await admin.get(`${base(priv)}/collections/nope`)).statusCode).toBe(404);
  });
});

describe('items', () => {
  it('pages with limit and next links, with the number matched', async () => {
    let page = await items(`${base(priv)}/collections/trees/items?limit=2`);
    expect(ids(page)).toEqual([1, 2]);
    expect(page.numberMatched).toBe(3);
    expect(page.numberReturned).toBe(2);
    const next = page.links.find((l) => l.rel === 'next')!;
    expect(local(next.href)).toBe(
      '/ogc/waymark/survey/v1/collections/trees/items?limit=2&f=json&cursor=2',
    );
    page = await items(local(next.href));
    expect(ids(page)).toEqual([3]);
    expect(page.links.find((l) => l.rel === 'next')).toBeUndefined();
    expect(page.features[0]).toEqual({
      type: 'Feature',
      id: 3,
      geometry: { type: 'Point', coordinates: [13.405, 52.52] },
      properties: { name: 'berlin oak', height: 30.25, planted: '2015-09-30', healthy: null },
    });
    // Limits: past the most a page serves is served as the most; 0 is refused.
    expect(ids(await items(`${base(priv)}/collections/trees/items?limit=20000`))).toEqual([
      1, 2, 3,
    ]);
    expect((await admin.get(`${base(priv)}/collections/trees/items?limit=0`)).statusCode).toBe(400);
  });

  it('serves v1, vN and latest', async () => {
    const latest = await items(
      `${base(priv, 'latest')}/collections/${encodeURIComponent('survey/data.gpkg:trees')}/items`,
    );
    expect(latest.features.map((f) => f.properties.name)).toEqual([
      'old plane',
      'paris lime',
      'warsaw elm',
    ]);
    const v2 = await items(
      `${base(priv, 'v2')}/collections/${encodeURIComponent('survey/data.gpkg:trees')}/items`,
    );
    expect(ids(v2)).toEqual([1, 2, 4]);
    expect((await admin.get(`${base(priv, 'v9')}/collections`)).statusCode).toBe(404);
    expect((await admin.get(`/ogc/waymark/survey/v1x/collections`)).statusCode).toBe(400);
  });

  it('filters by bbox, in lon/lat or in the layer CRS, with the spatial index', async () => {
    expect(ids(await items(`${base(priv)}/collections/trees/items?bbox=-1,50,14,53`))).toEqual([
      1, 3,
    ]);
    const near = [PLOT.lon - 0.001, PLOT.lat - 0.001, PLOT.lon + 0.001, PLOT.lat + 0.001].join(',');
    expect(ids(await items(`${base(priv)}/collections/plots/items?bbox=${near}`))).toEqual([10]);
    // EPSG:2180 is northing first.
    const own = [PLOT.y - 1, PLOT.x - 1, PLOT.y + 600, PLOT.x + 1001].join(',');
    const page = await items(
      `${base(priv)}/collections/plots/items?bbox=${own}&bbox-crs=${encodeURIComponent(EPSG_2180)}`,
    );
    expect(ids(page)).toEqual([10, 12]);
    expect((await admin.get(`${base(priv)}/collections/trees/items?bbox=1,2,3`)).statusCode).toBe(
      400,
    );
    expect((await admin.get(`${base(priv)}/collections/trees/items?bbox=3,2,1,4`)).statusCode).toBe(
      400,
    );
  });

  it('answers in the layer CRS in its axis order, saying so in Content-Crs', async () => {
    const response = await admin.get(
      `${base(priv)}/collections/plots/items?crs=${encodeURIComponent(EPSG_2180)}`,
    );
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers['content-crs']).toBe(`<${EPSG_2180}>`);
    const page = response.json() as Items;
    expect(page.features[0]!.geometry!.coordinates).toEqual([PLOT.y, PLOT.x]);
    const lonLat = await admin.get(`${base(priv)}/collections/plots/items`);
    expect(lonLat.headers['content-crs']).toBe(`<${CRS84}>`);
    const trees = (
      await admin.get(`${base(priv)}/collections/trees/items?crs=EPSG:4326`)
    ).json() as Items;
    expect(trees.features[0]!.geometry!.coordinates).toEqual([51.5072, -0.1276]);
    const refused = await admin.get(
      `${base(priv)}/collections/trees/items?crs=${encodeURIComponent(EPSG_2180)}`,
    );
    expect(problem(refused)).toMatchObject({
      status: 400,
      detail: 'The collection does not offer this CRS',
    });
  });

  it('filters by datetime on the date column', async () => {
    const url = (datetime: string) =>
      `${base(priv)}/collections/trees/items?datetime=${encodeURIComponent(datetime)}`;
    expect(ids(await items(url('2001-06-15')))).toEqual([2]);
    expect(ids(await items(url('2000-01-01/2016-01-01')))).toEqual([2, 3]);
    expect(ids(await items(url('../2001-06-15')))).toEqual([1, 2]);
    expect(ids(await items(url('2001-06-16T00:00:00Z/..')))).toEqual([3]);
    expect((await admin.get(url('yesterday'))).statusCode).toBe(400);
  });

  it('filters by attribute values, and refuses parameters it does not know', async () => {
    const url = `${base(priv)}/collections/trees/items`;
    expect(ids(await items(`${url}?name=${encodeURIComponent('paris lime')}`))).toEqual([2]);
    expect(ids(await items(`${url}?healthy=true`))).toEqual([1]);
    expect(ids(await items(`${url}?height=30.25`))).toEqual([3]);
    expect(problem(await admin.get(`${url}?colour=red`))).toMatchObject({
      status: 400,
      detail: 'Unknown parameter colour',
    });
    expect((await admin.get(`${url}?height=tall`)).statusCode).toBe(400);
    // Filtered pages do not say how many match in all.
    expect((await items(`${url}?healthy=true`)).numberMatched).toBeUndefined();
  });

  it('serves one item by fid, 404 for another', async () => {
    const response = await admin.get(`${base(priv)}/collections/plots/items/10`);
    expect(response.statusCode, response.body).toBe(200);
    const feature = response.json() as Items['features'][number] & { links: unknown[] };
    expect(feature.id).toBe(10);
    expect(feature.properties).toEqual({ code: 'PL-10', area: 1200 });
    expect(feature.geometry!.coordinates[0]).toBeCloseTo(PLOT.lon, 6);
    expect(feature.links.length).toBeGreaterThan(0);
    expect((await admin.get(`${base(priv)}/collections/plots/items/999`)).statusCode).toBe(404);
    const own = await admin.get(`${base(priv)}/collections/plots/items/10?crs=EPSG:2180`);
    expect((own.json() as Items['features'][number]).geometry!.coordinates).toEqual([
      PLOT.y,
      PLOT.x,
    ]);
  });

  it('escapes every value in HTML', async () => {
    const page = await admin.get(`${base(priv)}/collections/notes/items?f=html&limit=100`);
    expect(page.statusCode).toBe(200);
    expect(page.body).not.toContain('<script>');
    expect(page.body).toContain('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;');
    const one = await admin.get(`${base(priv)}/collections/notes/items/5?f=html`);
    expect(one.body).not.toContain('<script>');
    expect(one.body).toContain('&lt;script&gt;');
    const html = await admin.get(`${base(priv)}/collections?f=html`);
    expect(html.body).toContain('Browse');
  });
});

describe('access', () => {
  it('serves public projects to anyone, private ones to readers with a session or a token', async () => {
    expect((await anonymous.get(`${base(pub)}/collections/trees/items`)).statusCode).toBe(200);
    expect((await anonymous.get(`${base(priv)}/collections`)).statusCode).toBe(403);
    const { token } = makeBearerToken(t.config.secretKey, reader, t.clock.now());
    const bearer = await anonymous.get(`${base(priv)}/collections/trees/items`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(bearer.statusCode, bearer.body).toBe(200);
    const basic = Buffer.from(`reader:${token}`).toString('base64');
    const viaBasic = await anonymous.get(`${base(priv)}/collections`, {
      headers: { authorization: `Basic ${basic}` },
    });
    expect(viaBasic.statusCode).toBe(200);
    const wrong = Buffer.from('reader:Field-Password-1').toString('base64');
    expect(
      (
        await anonymous.get(`${base(priv)}/collections`, {
          headers: { authorization: `Basic ${wrong}` },
        })
      ).statusCode,
    ).toBe(403);
  });

  it('refuses the token of a user who lost access', async () => {
    const leaver = await insertUser(t.database.db, {
      username: 'leaver',
      email: 'leaver@example.com',
      passwordHash: await hashPassword('Field-Password-1'),
      verifiedEmail: true,
    });
    await upsertProjectMembers(t.database.db, priv.id, [{ userId: leaver.id, role: 'reader' }]);
    const { token } = makeBearerToken(t.config.secretKey, leaver, t.clock.now());
    const headers = { authorization: `Bearer ${token}` };
    expect((await anonymous.get(`${base(priv)}/collections`, { headers })).statusCode).toBe(200);
    await deleteProjectMembers(t.database.db, priv.id, [leaver.id]);
    expect((await anonymous.get(`${base(priv)}/collections`, { headers })).statusCode).toBe(403);
    expect(
      (await anonymous.get(`${base(priv)}/collections/trees/items/1`, { headers })).statusCode,
    ).toBe(403);
  });
});
