import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compressedCopies } from '../../scripts/compress-assets';
import { createTestApp, problem, type TestApp } from './support/test-app';

let t: TestApp;
let dist: string;
const INDEX = '<!doctype html><title>Waymark</title><div id="root"></div>';
const BIG = Buffer.from('export const rows = [\n' + '  { a: 1, b: "two" },\n'.repeat(500) + '];\n');

beforeAll(async () => {
  dist = fs.mkdtempSync(path.join(os.tmpdir(), 'waymark-dist-'));
  fs.mkdirSync(path.join(dist, 'assets'));
  fs.writeFileSync(path.join(dist, 'index.html'), INDEX);
  fs.writeFileSync(path.join(dist, 'assets', 'index-3f2a9c.js'), 'console.log("app");');
  fs.writeFileSync(path.join(dist, 'sw.js'), 'self.addEventListener("fetch", () => {});');
  fs.writeFileSync(path.join(dist, 'registerSW.js'), '/* register */');
  fs.writeFileSync(path.join(dist, 'manifest.webmanifest'), '{"name":"Waymark"}');
  fs.writeFileSync(path.join(dist, '.env'), 'SECRET=1');
  // A bundle as the build writes it: the file and its compressed copies beside it.
  for (const [ext, data] of await compressedCopies('big.js', BIG)) {
    fs.writeFileSync(path.join(dist, 'assets', `big-9a8b7c.js${ext}`), data);
  }
  fs.writeFileSync(path.join(dist, 'assets', 'big-9a8b7c.js'), BIG);
  t = await createTestApp({ distDir: dist });
});

afterAll(async () => {
  await t?.close();
  fs.rmSync(dist, { recursive: true, force: true });
});

const html = { accept: 'text/html,application/xhtml+xml,*/*;q=0.8' };

describe('static PWA files', () => {
  it('serves hashed assets as immutable', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/assets/index-3f2a9c.js' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/javascript/);
    expect(response.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(response.body).toBe('console.log("app");');
  });

  it.each([
    ['/sw.js', /javascript/],
    ['/registerSW.js', /javascript/],
    ['/manifest.webmanifest', /manifest\+json/],
  ])('serves %s with no-cache', async (url, type) => {
    const response = await t.app.inject({ method: 'GET', url });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(type);
    expect(response.headers['cache-control']).toBe('no-cache');
  });

  it('sends the compressed copy the browser accepts, and the file itself to others', async () => {
    const url = '/assets/big-9a8b7c.js';
    const br = await t.app.inject({
      method: 'GET',
      url,
      headers: { 'accept-encoding': 'gzip, deflate, br' },
    });
    expect(br.statusCode).toBe(200);
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers['content-type']).toMatch(/javascript/);
    expect(br.headers.vary).toMatch(/accept-encoding/i);
    expect(br.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(br.rawPayload.byteLength).toBeLessThan(BIG.byteLength / 10);
    expect(zlib.brotliDecompressSync(br.rawPayload)).toEqual(BIG);

    const gz = await t.app.inject({ method: 'GET', url, headers: { 'accept-encoding': 'gzip' } });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(zlib.gunzipSync(gz.rawPayload)).toEqual(BIG);

    const plain = await t.app.inject({
      method: 'GET',
      url,
      headers: { 'accept-encoding': 'identity' },
    });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.rawPayload).toEqual(BIG);

    // A file without copies (small: not worth one) goes as it is to every browser.
    const small = await t.app.inject({
      method: 'GET',
      url: '/assets/index-3f2a9c.js',
      headers: { 'accept-encoding': 'br' },
    });
    expect(small.headers['content-encoding']).toBeUndefined();
    expect(small.body).toBe('console.log("app");');
    expect(await compressedCopies('small.js', Buffer.from('x'.repeat(100)))).toEqual(new Map());
    expect(await compressedCopies('photo.png', BIG)).toEqual(new Map());
  });

  it('serves index.html at / and for SPA routes that accept HTML', async () => {
    for (const url of [
      '/',
      '/index.html',
      '/dashboard',
      '/projects/a/b/tree/x',
      '/login?redirect=%2Fprofile',
    ]) {
      const response = await t.app.inject({ method: 'GET', url, headers: html });
      expect(response.statusCode, url).toBe(200);
      expect(response.headers['content-type']).toMatch(/^text\/html/);
      expect(response.headers['cache-control']).toBe('no-cache');
      expect(response.body).toBe(INDEX);
    }
  });

  it('answers HEAD like GET without a body', async () => {
    const response = await t.app.inject({ method: 'HEAD', url: '/dashboard', headers: html });
    expect(response.statusCode).toBe(200);
    expect(response.body).toBe('');
  });

  it('never falls back to index.html under the API prefixes', async () => {
    for (const url of ['/v1/x', '/v2/projects/x', '/app/x', '/ping/x', '/config/x', '/alive/x']) {
      const response = await t.app.inject({ method: 'GET', url, headers: html });
      expect(response.statusCode, url).toBe(404);
      expect(problem(response).status).toBe(404);
    }
  });

  it('answers 404 for missing assets and for non-HTML requests of unknown paths', async () => {
    const asset = await t.app.inject({
      method: 'GET',
      url: '/assets/missing-1234.js',
      headers: html,
    });
    expect(asset.statusCode).toBe(404);
    const json = await t.app.inject({
      method: 'GET',
      url: '/dashboard',
      headers: { accept: 'application/json' },
    });
    expect(json.statusCode).toBe(404);
  });

  it('does not serve dotfiles or escape the dist folder', async () => {
    for (const url of [
      '/.env',
      '/assets/../.env',
      '/%2e%2e/%2e%2e/etc/passwd',
      '/..%2f..%2fetc/passwd',
    ]) {
      const response = await t.app.inject({ method: 'GET', url });
      expect(response.statusCode, url).toBe(404);
      expect(response.body).not.toContain('SECRET');
    }
  });

  it('supports conditional requests', async () => {
    const first = await t.app.inject({ method: 'GET', url: '/sw.js' });
    const etag = first.headers.etag as string;
    expect(etag).toBeTruthy();
    const second = await t.app.inject({
      method: 'GET',
      url: '/sw.js',
      headers: { 'if-none-match': etag },
    });
    expect(second.statusCode).toBe(304);
  });
});
