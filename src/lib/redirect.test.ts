// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { safeRedirectTarget } from './redirect';

describe('safeRedirectTarget', () => {
  it('keeps same-origin relative paths with their search and hash', () => {
    expect(safeRedirectTarget('/projects')).toBe('/projects');
    expect(safeRedirectTarget('/projects/ns/p/tree/a/b?file_path=a%2Fb.gpkg#x')).toBe(
      '/projects/ns/p/tree/a/b?file_path=a%2Fb.gpkg#x',
    );
  });
  it('falls back to /dashboard for anything else', () => {
    for (const bad of [
      undefined,
      null,
      42,
      '',
      'projects',
      'https://evil.example/x',
      '//evil.example/x',
      '/\\evil.example',
      'javascript:alert(1)',
      '/ok\nbad',
      '/login',
      '/login/reset',
    ]) {
      expect(safeRedirectTarget(bad)).toBe('/dashboard');
    }
  });
  it('accepts another fallback', () => {
    expect(safeRedirectTarget('//x', '/')).toBe('/');
  });
});
