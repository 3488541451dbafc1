import { describe, expect, it } from 'vitest';
import { visibleLayers, layersParam } from './layers';
import { validateMapSearch } from './search';
import { formatView, parseView } from './view';

describe('map search params', () => {
  it('keeps valid params', () => {
    expect(
      validateMapSearch({
        version: 'v12',
        file: 'data/survey.gpkg',
        layers: 'points,areas',
        view: '19.5,51.25,12',
        changes: 'true',
        table: 'points',
      }),
    ).toEqual({
      version: 'v12',
      file: 'data/survey.gpkg',
      layers: 'points,areas',
      view: '19.5,51.25,12',
      changes: 'true',
      table: 'points',
    });
  });

  it('drops what is not valid, so the map uses its defaults', () => {
    expect(
      validateMapSearch({
        version: '12',
        file: '',
        view: '1;2;3',
        changes: 'yes',
        table: ['', 'x'],
      }),
    ).toEqual({});
    expect(validateMapSearch({ version: 'v1x', view: '1,2' })).toEqual({});
    expect(validateMapSearch({ view: '1,,4' })).toEqual({});
    expect(validateMapSearch({ view: 'a,b,c' })).toEqual({});
    expect(validateMapSearch({ version: 3, file: { a: 1 } })).toEqual({});
    // Out of range: the map reads no view from it and fits the data.
    expect(parseView('200,10,3')).toBeNull();
    expect(parseView('1,2,40')).toBeNull();
    expect(parseView('1,2')).toBeNull();
  });

  it('keeps an empty layer list (no layer visible) apart from an absent one (all)', () => {
    expect(validateMapSearch({ layers: '' })).toEqual({ layers: '' });
    // A repeated key: the first one counts (links write one comma-separated list).
    expect(validateMapSearch({ layers: ['a,b', 'c'] })).toEqual({ layers: 'a,b' });
    expect(visibleLayers(undefined, ['a', 'b'])).toEqual(['a', 'b']);
    expect(visibleLayers('', ['a', 'b'])).toEqual([]);
    expect(visibleLayers('b,gone', ['a', 'b'])).toEqual(['b']);
    expect(layersParam(['a', 'b'], ['a', 'b'])).toBeUndefined();
    expect(layersParam([], ['a', 'b'])).toBe('');
    expect(layersParam(['b'], ['a', 'b'])).toBe('b');
  });

  it('reads and writes the view', () => {
    expect(parseView('-0.1275,51.507222,9.5')).toEqual({ lon: -0.1275, lat: 51.507222, zoom: 9.5 });
    expect(parseView(undefined)).toBeNull();
    expect(formatView({ lon: 19.123456789, lat: -51.5, zoom: 12.3456 })).toBe(
      '19.123457,-51.5,12.35',
    );
    expect(parseView(formatView({ lon: 1, lat: 2, zoom: 3 }))).toEqual({ lon: 1, lat: 2, zoom: 3 });
  });
});
