import { describe, expect, it } from 'vitest';
import {
  dateInDays,
  embedSnippet,
  embedUrl,
  endOfDay,
  escapeAttribute,
  ogcAddress,
  shareMapUrl,
  viewLinkUrl,
} from './dataOut';

describe('data out', () => {
  it('makes the OGC API address of latest or a version', () => {
    expect(ogcAddress('https://w.example', 'ws a', 'my/proj')).toBe(
      'https://w.example/ogc/ws%20a/my%2Fproj/latest',
    );
    expect(ogcAddress('https://w.example', 'ws', 'p', 'v3')).toBe('https://w.example/ogc/ws/p/v3');
  });

  it('keeps the view, layers, version and file in share and embed links, nothing else', () => {
    const search = {
      version: 'v2',
      layers: 'trees,parks',
      view: '10,45,7',
      table: 'trees',
      changes: 'true',
    };
    expect(shareMapUrl('https://w.example', 'ws', 'p', search)).toBe(
      'https://w.example/projects/ws/p/map?version=v2&layers=trees%2Cparks&view=10%2C45%2C7',
    );
    expect(embedUrl('https://w.example', 'ws', 'p', {})).toBe('https://w.example/embed/ws/p');
  });

  it('escapes what lands in the iframe snippet', () => {
    expect(escapeAttribute(`a"b'<c>&`)).toBe('a&quot;b&#39;&lt;c&gt;&amp;');
    const snippet = embedSnippet(
      'https://w.example/embed/ws/p?layers=a&view=1,2,3',
      'Trees "map" <x>',
    );
    expect(snippet).toContain('src="https://w.example/embed/ws/p?layers=a&amp;view=1,2,3"');
    expect(snippet).toContain('title="Trees &quot;map&quot; &lt;x&gt;"');
    expect(snippet).not.toContain('<x>');
  });

  it('makes view link addresses and expiry dates', () => {
    expect(viewLinkUrl('https://w.example', '12.abc_-')).toBe('https://w.example/view/12.abc_-');
    expect(dateInDays(new Date(2026, 0, 30), 7)).toBe('2026-02-06');
    const end = new Date(endOfDay('2026-02-06')!);
    expect([end.getFullYear(), end.getMonth(), end.getDate(), end.getHours()]).toEqual([
      2026, 1, 6, 23,
    ]);
    expect(endOfDay('soon')).toBeNull();
  });
});
