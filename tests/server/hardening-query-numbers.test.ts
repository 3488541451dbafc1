/**
 * Issue 29: numbers past the double range in query strings (`1e309`, `-1e309`) are a 400 like
 * `1e308` is, never a 500. Ajv's coercion turns them into an infinite number that no bound
 * checks; the validation layer refuses them for every coerced part (plugins/validation.ts).
 * The walk below takes every integer or number query parameter from the routes the app
 * registers, so a new one is covered without touching this file.
 */
import type { RouteOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Project } from '../../server/src/db/schema';
import {
  editGeoPackage,
  geopackageFromFeatures,
  pointFeatures,
  scratch,
  type Scratch,
} from './support/geopackage';
import { commit, createProject } from './support/seed';
import {
  ADMIN_PASSWORD,
  createTestApp,
  problem,
  type TestApp,
  type TestClient,
} from './support/test-app';

const GPKG = 'data/trees.gpkg';
const PAST_DOUBLE = ['1e309', '-1e309'];
let t: TestApp;
let s: Scratch;
let admin: TestClient;
let anonymous: TestClient;
let project: Project;
const routes: RouteOptions[] = [];

beforeAll(async () => {
  t = await createTestApp({
    extend: (app) => {
      app.addHook('onRoute', (route) => {
        routes.push(route);
      });
    },
  });
  s = await scratch();
  admin = t.client();
  await admin.login('admin', ADMIN_PASSWORD);
  anonymous = t.client();
  await anonymous.init();
  const v1 = await geopackageFromFeatures(s, 'v1', 'trees', pointFeatures(12));
  const v2 = await editGeoPackage(s, v1, `UPDATE trees SET height = height + 1;`);
  project = await createProject(t, { name: 'numbers', public: true });
  await commit(t, project.id, { added: { [GPKG]: v1 } });
  await commit(t, project.id, { updated: { [GPKG]: v2 } });
});
afterAll(async () => t?.close());

interface NumberParam {
  route: string;
  url: string;
  name: string;
  /** The other required parameters, with values that pass their own checks. */
  required: Record<string, string>;
}

/** Values of required parameters the walk fills in (by name). */
const SAMPLE: Record<string, string> = {
  page: '1',
  per_page: '10',
  file: GPKG,
  path: GPKG,
  from: 'v1',
  to: 'v2',
};

function numberParams(): NumberParam[] {
  const found: NumberParam[] = [];
  for (const route of routes) {
    const schema = route.schema?.querystring as
      { properties?: Record<string, { type?: unknown }>; required?: string[] } | undefined;
    if (!schema?.properties) continue;
    for (const [name, property] of Object.entries(schema.properties)) {
      if (!/integer|number/.test(JSON.stringify(property.type))) continue;
      const required = Object.fromEntries(
        (schema.required ?? []).filter((key) => key !== name).map((key) => [key, SAMPLE[key]!]),
      );
      const methods = Array.isArray(route.method) ? route.method : [route.method];
      for (const method of methods) {
        if (method === 'HEAD') continue;
        found.push({ route: `${method} ${route.url}`, url: route.url, name, required });
      }
    }
  }
  return found;
}

/** The route's URL for the test project (path parameters by name). */
function concrete(url: string): string {
  const values: Record<string, string> = {
    namespace: t.config.globalWorkspace,
    name: project.name,
    layer: 'trees',
    id: project.id,
    version: 'latest',
    collectionId: 'trees',
  };
  return url.replace(/:(\w+)/g, (_, key: string) => encodeURIComponent(values[key] ?? 'x'));
}

describe('numbers past the double range in query strings', () => {
  it('finds the integer parameters the issue names (the walk is not empty)', () => {
    const names = numberParams().map((p) => `${p.route} ${p.name}`);
    for (const expected of [
      'GET /v1/project/paginated last_updated_in',
      'GET /app/map/:namespace/:name/features/:layer page',
      'GET /app/map/:namespace/:name/features/:layer per_page',
      'GET /app/project/compare/:namespace/:name/rows page',
      'GET /app/project/compare/:namespace/:name/rows per_page',
    ]) {
      expect(names).toContain(expected);
    }
  });

  it('answers 400 quoting the value for every integer query parameter of every route', async () => {
    const wrong: string[] = [];
    for (const param of numberParams()) {
      for (const value of PAST_DOUBLE) {
        const query = new URLSearchParams({ ...param.required, [param.name]: value });
        const response = await admin.get(`${concrete(param.url)}?${query}`);
        const detail = response.statusCode === 400 ? problem(response).detail : null;
        if (detail !== `'${value}' is not of type 'integer'`) {
          wrong.push(
            `${param.route} ${param.name}=${value}: ${response.statusCode} ${response.body}`,
          );
        }
      }
    }
    expect(wrong).toEqual([]);
  });

  it('the anonymous project list refuses last_updated_in=±1e309 like 1e308', async () => {
    const list = (days: string) =>
      anonymous.get(`/v1/project/paginated?page=1&per_page=10&last_updated_in=${days}`);
    for (const days of ['1e308', ...PAST_DOUBLE, 'Infinity', '-Infinity']) {
      expect((await list(days)).statusCode, days).toBe(400);
    }
    expect((await list('36500')).statusCode).toBe(200);
  });

  it("the map's features refuse page and per_page past the range, and work in it", async () => {
    const features = (query: string) =>
      anonymous.get(
        `/app/map/${t.config.globalWorkspace}/${project.name}/features/trees?file=${encodeURIComponent(GPKG)}&${query}`,
      );
    for (const value of ['1e308', ...PAST_DOUBLE]) {
      expect((await features(`page=${value}`)).statusCode, `page=${value}`).toBe(400);
      expect((await features(`per_page=${value}`)).statusCode, `per_page=${value}`).toBe(400);
    }
    const page = await features('page=2&per_page=5');
    expect(page.statusCode, page.body).toBe(200);
    expect(page.json().features).toHaveLength(5);
  });

  it("the compare rows' paging refuses values past the range, and pages far away answer", async () => {
    const rows = (query: string) =>
      anonymous.get(
        `/app/project/compare/${t.config.globalWorkspace}/${project.name}/rows?from=v1&to=v2&path=${encodeURIComponent(GPKG)}&${query}`,
      );
    for (const value of PAST_DOUBLE) {
      expect((await rows(`page=${value}`)).statusCode, `page=${value}`).toBe(400);
      expect((await rows(`per_page=${value}`)).statusCode, `per_page=${value}`).toBe(400);
    }
    for (const query of ['page=1e308', 'page=9007199254740993', 'per_page=1e308']) {
      expect((await rows(query)).statusCode, query).toBeLessThan(500);
    }
    const first = await rows('page=1&per_page=5');
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json().entries).toHaveLength(5);
  });

  it('finite but huge pages on the other paginated lists answer without a 5xx', async () => {
    const urls = [
      `/v1/project/versions/paginated/${t.config.globalWorkspace}/${project.name}`,
      '/v1/project/paginated',
      '/app/project/access-requests',
    ];
    for (const url of urls) {
      for (const [page, perPage] of [
        ['1e308', '10'],
        ['1', '1e308'],
        ['9007199254740993', '10'],
        ['-1e308', '10'],
        ['1', '-1e308'],
      ]) {
        const response = await admin.get(`${url}?page=${page}&per_page=${perPage}`);
        expect(response.statusCode, `${url} ${page} ${perPage}: ${response.body}`).toBeLessThan(
          500,
        );
      }
    }
  });
});
