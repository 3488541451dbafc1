/**
 * The whole wire is in the contract (record 0081, issue 35): every route of the API declares
 * its success answer in `schema.response` (a server/src/schemas/ schema), besides its errors.
 * The walk takes the routes as the app registers them, so a new route without a declared
 * answer fails here without touching this file.
 */
import type { RouteOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_PREFIXES } from '../../server/src/app';
import { createTestApp, type TestApp } from './support/test-app';

interface Seen {
  route: string;
  statuses: string[];
}

const seen: Seen[] = [];
let t: TestApp;

function isApi(url: string): boolean {
  return API_PREFIXES.some((prefix) => url === prefix || url.startsWith(`${prefix}/`));
}

function record(route: RouteOptions): void {
  if (!isApi(route.url)) return;
  const methods = Array.isArray(route.method) ? route.method : [route.method];
  const response = (route.schema?.response ?? {}) as Record<string, unknown>;
  for (const method of methods) {
    seen.push({ route: `${method} ${route.url}`, statuses: Object.keys(response) });
  }
}

beforeAll(async () => {
  t = await createTestApp({ extend: (app) => app.addHook('onRoute', record) });
});
afterAll(async () => t.close());

describe('the wire contract', () => {
  it('walks the API routes (the hook sees them)', () => {
    expect(seen.length).toBeGreaterThan(100);
    expect(seen.map((entry) => entry.route)).toContain(
      'GET /v1/resource/changesets/:namespace/:name/:version',
    );
  });

  it('every API route declares its success answer', () => {
    const success = (status: string) => /^[23](\d\d|xx)$/.test(status);
    const missing = seen
      .filter((entry) => !entry.statuses.some(success))
      .map((entry) => `${entry.route} (declares ${entry.statuses.join(', ') || 'nothing'})`);
    expect(missing).toEqual([]);
  });
});
