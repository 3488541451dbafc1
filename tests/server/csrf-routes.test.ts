/**
 * Every mutating route of the server's route table (app.routeIndex) refuses a request that
 * carries a valid session cookie but no valid CSRF token: none, a forged one, or one minted
 * for another client's secret. The walk takes the routes from the table, so a new mutation
 * route is covered (and fails here) without touching this file; the only exceptions are
 * listed in CSRF_EXEMPT.
 */
import fastifyCookie from '@fastify/cookie';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CSRF_EXPIRED,
  CSRF_INVALID,
  CSRF_MISMATCH,
  CSRF_MISSING,
  CSRF_TTL_SECONDS,
} from '../../server/src/auth/csrf';
import { MUTATING_METHODS } from '../../server/src/plugins/csrf';
import { createRouteIndex, type RouteIndex } from '../../server/src/plugins/route-index';
import { ADMIN_PASSWORD, createTestApp, type TestApp, type TestClient } from './support/test-app';

/** Routes that take mutations without a CSRF token on purpose. */
const CSRF_EXEMPT = new Set([
  // The load balancer's liveness probe: changes nothing.
  'POST /alive',
]);

let t: TestApp;
let victim: TestClient;
let other: TestClient;

beforeAll(async () => {
  t = await createTestApp();
  victim = t.client();
  await victim.login('admin', ADMIN_PASSWORD);
  other = t.client();
  await other.init();
});
afterAll(async () => t.close());

/** A concrete URL for a route pattern (the CSRF check runs before any validation). */
function concrete(url: string): string {
  return url
    .split('/')
    .map((segment) => (segment.startsWith(':') || segment === '*' ? 'x' : segment))
    .join('/');
}

interface Variant {
  name: string;
  token: () => string | undefined;
  detail: string;
}

/**
 * Sends each mutation of the table with the session cookie and a bad token; returns the
 * routes that did not answer 400 with the expected CSRF detail.
 */
async function routesWithoutCsrf(
  app: FastifyInstance,
  index: RouteIndex,
  cookie: string,
  variants: Variant[],
): Promise<string[]> {
  const unprotected: string[] = [];
  for (const { method, url } of index.list()) {
    if (!MUTATING_METHODS.has(method)) continue;
    const key = `${method} ${url}`;
    if (CSRF_EXEMPT.has(key)) continue;
    for (const variant of variants) {
      const token = variant.token();
      const response = await app.inject({
        method: method as 'POST',
        url: concrete(url),
        headers: {
          cookie,
          'content-type': 'application/json',
          ...(token === undefined ? {} : { 'x-csrf-token': token }),
        },
        payload: '{}',
      });
      const detail =
        response.statusCode === 400 ? (response.json() as { detail?: unknown }).detail : null;
      if (detail !== variant.detail) {
        unprotected.push(`${key} (${variant.name}): ${response.statusCode} ${response.body}`);
      }
    }
  }
  return unprotected;
}

const VARIANTS: Variant[] = [
  { name: 'no token', token: () => undefined, detail: CSRF_MISSING },
  { name: 'forged token', token: () => 'abc.123.def', detail: CSRF_INVALID },
  { name: "another client's token", token: () => other.csrfToken!, detail: CSRF_MISMATCH },
];

describe('CSRF on every mutating route', () => {
  it('walks a table that has the mutations in it', () => {
    const mutations = t.app.routeIndex.list().filter((r) => MUTATING_METHODS.has(r.method));
    expect(mutations.length).toBeGreaterThan(20);
    for (const route of [
      'POST /app/auth/login',
      'DELETE /v1/user',
      'POST /v1/project/:namespace',
    ]) {
      expect(mutations.map((r) => `${r.method} ${r.url}`)).toContain(route);
    }
  });

  it(
    'refuses cookie-authenticated mutations without a valid token',
    { timeout: 120_000 },
    async () => {
      const unprotected = await routesWithoutCsrf(
        t.app,
        t.app.routeIndex,
        victim.cookieHeader(),
        VARIANTS,
      );
      expect(unprotected).toEqual([]);
    },
  );

  it('refuses an expired token on the /v1 API with a session cookie', async () => {
    const token = victim.csrfToken!;
    t.clock.advance((CSRF_TTL_SECONDS + 60) * 1000);
    try {
      const response = await victim.post(
        '/v1/project/waymark',
        { name: 'late', public: false },
        {
          headers: { 'x-csrf-token': token },
        },
      );
      expect(response.statusCode).toBe(400);
      expect(response.json().detail).toBe(CSRF_EXPIRED);
    } finally {
      t.clock.advance(-(CSRF_TTL_SECONDS + 60) * 1000);
    }
  });

  it('still lets the session through with its own token (the walk is not vacuous)', async () => {
    const response = await victim.post('/v1/project/waymark', {
      name: 'with-token',
      public: false,
    });
    expect(response.statusCode, response.body).toBe(200);
  });

  it('the walk reports a mutation route that lacks the check', async () => {
    // The same walk over an app without the CSRF plugin finds its route.
    const bare = Fastify();
    const index = createRouteIndex();
    bare.addHook('onRoute', (route) => index.add(route.method, route.url));
    await bare.register(fastifyCookie);
    bare.post('/v1/new-thing/:id', async () => ({ ok: true }));
    await bare.ready();
    try {
      const found = await routesWithoutCsrf(bare, index, 'session=x', VARIANTS);
      expect(found).toHaveLength(VARIANTS.length);
      expect(found[0]).toMatch(/^POST \/v1\/new-thing\/:id \(no token\): 200/);
    } finally {
      await bare.close();
    }
  });
});
