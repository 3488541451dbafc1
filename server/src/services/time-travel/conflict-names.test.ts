import { describe, expect, it } from 'vitest';
import { originalOfEditConflict, parseConflictName } from './conflict-names';

describe('parseConflictName', () => {
  it('reads conflicted copies and their originals, as the python client names them', () => {
    expect(parseConflictName('data (conflicted copy, martin v5).gpkg')).toEqual({
      kind: 'conflicted_copy',
      dir: '',
      stem: 'data',
      user: 'martin',
      version: 5,
      original: 'data.gpkg',
    });
    expect(parseConflictName('a/b/arch (conflicted copy, jo v12).tar.gz')?.original).toBe(
      'a/b/arch.tar.gz',
    );
    expect(parseConflictName('proj (conflicted copy, ann v3).qgz~')?.original).toBe('proj.qgz');
    expect(parseConflictName('notes (conflicted copy, ann v3)')?.original).toBe('notes');
    expect(parseConflictName('x (conflicted copy,  v-1).txt')).toMatchObject({
      user: '',
      version: -1,
      original: 'x.txt',
    });
  });

  it('reads edit-conflict files', () => {
    expect(parseConflictName('survey/geo (edit conflict, jack v10).json')).toEqual({
      kind: 'edit_conflict',
      dir: 'survey/',
      stem: 'geo',
      user: 'jack',
      version: 10,
      original: null,
    });
  });

  it('leaves other names alone', () => {
    for (const path of [
      'data.gpkg',
      'data (copy).gpkg',
      'data (conflicted copy, martin).gpkg',
      'data (edit conflict, jack v10).gpkg',
      'dir (conflicted copy, a v1).x/file.txt',
    ]) {
      expect(parseConflictName(path)).toBeNull();
    }
  });
});

describe('originalOfEditConflict', () => {
  it('finds the GeoPackage of the same folder and stem', () => {
    const conflict = { dir: 'survey/', stem: 'geo' };
    expect(
      originalOfEditConflict(conflict, ['geo.gpkg', 'survey/geo.sqlite', 'survey/geo.gpkg']),
    ).toBe('survey/geo.gpkg');
    expect(originalOfEditConflict(conflict, ['survey/geo.sqlite', 'survey/geo.txt'])).toBe(
      'survey/geo.sqlite',
    );
    expect(originalOfEditConflict(conflict, ['survey/geodata.gpkg'])).toBeNull();
  });
});
