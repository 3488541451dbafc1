// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { isImagePreviewRequest, ownerOfCache, previewCacheName } from './offline';

const request = (url: string, destination = 'image', method = 'GET') => ({
  url: `http://localhost${url}`,
  destination,
  method,
});

describe('isImagePreviewRequest', () => {
  it('takes image loads of a project file only', () => {
    expect(isImagePreviewRequest(request('/v1/project/raw/ns/p?file=a.png'))).toBe(true);
    // Downloads (fetch, links), whole archives and other calls are never cached.
    expect(isImagePreviewRequest(request('/v1/project/raw/ns/p?file=a.png', ''))).toBe(false);
    expect(isImagePreviewRequest(request('/v1/project/raw/ns/p?file=a.png', 'document'))).toBe(
      false,
    );
    expect(isImagePreviewRequest(request('/v1/project/raw/ns/p?file=a.png', 'image', 'HEAD'))).toBe(
      false,
    );
    expect(isImagePreviewRequest(request('/v1/project/download/ns/p?format=zip'))).toBe(false);
    expect(isImagePreviewRequest(request('/v1/project/raw/ns/p'))).toBe(false);
    expect(isImagePreviewRequest(request('/icons/icon-192.png'))).toBe(false);
  });
});

describe('preview cache names', () => {
  it('name the owner, and only preview caches have one', () => {
    expect(ownerOfCache(previewCacheName('user:3'))).toBe('user:3');
    expect(ownerOfCache(previewCacheName('public'))).toBe('public');
    expect(ownerOfCache('workbox-precache-v2')).toBeNull();
  });
});
