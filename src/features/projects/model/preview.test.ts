// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { previewKind, previewText, rotate, zoomIn, zoomOut } from './preview';

describe('preview type', () => {
  it('previews raster images by extension and Content-Type', () => {
    for (const name of ['a.png', 'a.jpg', 'a.JPEG', 'a.gif', 'a.webp']) {
      expect(previewKind(name, 10, 'image/png')).toBe('image');
    }
    expect(previewKind('a.bin', 10, 'image/png')).toBe('none');
    expect(previewKind('a.png', 10, 'application/octet-stream')).toBe('none');
  });
  it('shows text/* as text, and SVG and HTML as text instead of rendering them', () => {
    expect(previewKind('a.json', 10, 'text/plain; charset=utf-8')).toBe('text');
    expect(previewKind('a.svg', 10, 'image/svg+xml')).toBe('text');
    expect(previewKind('a.html', 10, 'text/html')).toBe('text');
  });
  it('previews nothing from 100 MB on or without a type', () => {
    expect(previewKind('a.png', 104857600, 'image/png')).toBe('none');
    expect(previewKind('a.txt', 104857599, 'text/plain')).toBe('text');
    expect(previewKind('a.txt', 1, null)).toBe('none');
    expect(previewKind('a.gpkg', 1, 'application/vnd.sqlite3')).toBe('none');
  });
  it('shows at most 50 lines and 10000 characters', () => {
    const lines = Array.from({ length: 80 }, (_, i) => `line ${i}`).join('\n');
    expect(previewText(lines).split('\n')).toHaveLength(50);
    expect(previewText('x'.repeat(20000))).toHaveLength(10000);
  });
});

describe('image controls', () => {
  it('zooms from 0.5 to 1.5 in steps of 0.1', () => {
    expect(zoomIn(1)).toBe(1.1);
    expect(zoomIn(1.4)).toBe(1.5);
    expect(zoomIn(1.5)).toBe(1.5);
    expect(zoomOut(0.6)).toBe(0.5);
    expect(zoomOut(0.5)).toBe(0.5);
    let zoom = 1;
    for (let i = 0; i < 20; i += 1) zoom = zoomIn(zoom);
    expect(zoom).toBe(1.5);
  });
  it('rotates by 90 degrees', () => {
    expect(rotate(0)).toBe(90);
    expect(rotate(270)).toBe(0);
  });
});
