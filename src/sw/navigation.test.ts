// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { isClientRoute } from './navigation';

describe('isClientRoute', () => {
  it('serves the app for client routes', () => {
    for (const path of [
      '/',
      '/login',
      '/login/reset',
      '/dashboard',
      '/projects/ns/p/tree/a/b',
      '/projects/ns/survey.2024/tree/data.v2',
      '/projects/ns/p/history/v3/data/points.gpkg',
      '/confirm-email/ImFAYi5jIg.ZmXy.abc',
      '/change-password/abc.def',
      '/some/unknown/page',
      '/application',
      '/view/12.abc',
      '/embedded',
    ]) {
      expect(isClientRoute(path), path).toBe(true);
    }
  });

  it('leaves API, instance endpoints and files to the network', () => {
    for (const path of [
      '/v1/project/paginated',
      '/v2/projects/x',
      '/app/init',
      '/app',
      '/ping',
      '/config',
      '/alive',
      '/ogc/ns/p/latest/collections',
      '/embed/ns/p',
      '/sw.js',
      '/manifest.webmanifest',
      '/favicon.svg',
      '/assets/index-abc.js',
      '/icons/icon-192.png',
    ]) {
      expect(isClientRoute(path), path).toBe(false);
    }
  });
});
