import { describe, expect, it } from 'vitest';
import { layersParam, visibleLayers } from './layers';
import { readMapSearch } from './params';
import { validateMapSearch } from './search';
import { formatView, parseView } from './view';

describe('map search params', () => {
  it('keeps the map’s params given once as text, and only those', () => {
    const search = {
      version: 'v12',
      file: 'data/survey.gpkg',
      layers: 'points,areas',
      view: '19.5,51.25,12',
      changes: 'true',
      table: 'points',
    };
    expect(validateMapSearch({ ...search, other: 'x' })).toEqual(search);
    // A repeated key or a value that is not text is dropped.
    expect(validateMapSearch({ layers: ['a,b', 'c'], version: 3, file: { a: 1 } })).toEqual({});
  });

  it('reads valid values and takes invalid ones as absent', () => {
    expect(
      readMapSearch({
        version: 'v12',
        file: 'a.gpkg',
        layers: 'points',
        view: '19.5,51.25,12',
        changes: 'true',
        table: 'points',
      }),
    ).toEqual({
      version: 'v12',
      file: 'a.gpkg',
      layers: 'points',
      view: { lon: 19.5, lat: 51.25, zoom: 12 },
      changes: true,
      table: 'points',
    });
    expect(
      readMapSearch({ version: '12', file: '', view: '200,10,3', changes: 'yes', table: '' }),
    ).toEqual({
      version: undefined,
      file: undefined,
      layers: undefined,
      view: null,
      changes: false,
      table: undefined,
    });
    // What the router merges in as it came (a repeated key) counts as absent.
    expect(
      readMapSearch({ view: ['1,2,3', '4,5,6'], layers: ['a', 'b'], version: ['v1'] }),
    ).toEqual(readMapSearch({}));
    // Changes belong to a version.
    expect(readMapSearch({ changes: 'true' }).changes).toBe(false);
    expect(readMapSearch({ version: 'v1x' }).version).toBeUndefined();
  });

  it('keeps an empty layer list (no layer visible) apart from an absent one (all)', () => {
    expect(validateMapSearch({ layers: '' })).toEqual({ layers: '' });
    expect(readMapSearch({ layers: '' }).layers).toBe('');
    expect(visibleLayers(undefined, ['a', 'b'])).toEqual(['a', 'b']);
    expect(visibleLayers('', ['a', 'b'])).toEqual([]);
    expect(visibleLayers('b,gone', ['a', 'b'])).toEqual(['b']);
    expect(layersParam(['a', 'b'], ['a', 'b'])).toBeUndefined();
    expect(layersParam([], ['a', 'b'])).toBe('');
    expect(layersParam(['b'], ['a', 'b'])).toBe('b');
  });

  it('reads and writes the view, within its ranges', () => {
    expect(parseView('-0.1275,51.507222,9.5')).toEqual({ lon: -0.1275, lat: 51.507222, zoom: 9.5 });
    expect(parseView(undefined)).toBeNull();
    expect(parseView('200,10,3')).toBeNull();
    expect(parseView('1,2,40')).toBeNull();
    expect(parseView('1,2')).toBeNull();
    expect(parseView('1,,4')).toBeNull();
    expect(parseView('a,b,c')).toBeNull();
    expect(formatView({ lon: 19.123456789, lat: -51.5, zoom: 12.3456 })).toBe(
      '19.123457,-51.5,12.35',
    );
    expect(parseView(formatView({ lon: 1, lat: 2, zoom: 3 }))).toEqual({ lon: 1, lat: 2, zoom: 3 });
  });
});
