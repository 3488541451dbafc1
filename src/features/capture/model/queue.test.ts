import { describe, expect, it } from 'vitest';
import type { FeatureEdit } from '@/db/editQueue';
import {
  DELETED_FEATURE_MESSAGE,
  countEdits,
  describeEdits,
  mergeSave,
  renumber,
  type SaveContext,
} from './queue';

let ids = 0;
const context = (over: Partial<SaveContext> = {}): SaveContext => ({
  projectPath: 'ws/trees',
  projectId: 'p1',
  file: 'survey.gpkg',
  version: 'v3',
  now: 100,
  newId: () => `row-${++ids}`,
  localFid: () => -1,
  photos: [],
  ...over,
});
const point = { type: 'Point', coordinates: [14.4, 50.1] };

describe('mergeSave', () => {
  it('an insert is a new row with a local fid and the photos its values name', () => {
    const result = mergeSave(
      undefined,
      {
        kind: 'insert',
        layer: 'trees',
        values: { name: 'Oak', photo: 'DCIM/a.jpg' },
        geometry: point,
      },
      context({ photos: ['DCIM/a.jpg', 'DCIM/stale.jpg'] }),
    );
    expect(result.put).toMatchObject({
      kind: 'insert',
      fid: -1,
      layer: 'trees',
      values: { name: 'Oak', photo: 'DCIM/a.jpg' },
      geometry: point,
      photos: ['DCIM/a.jpg'],
      batchId: null,
      baseVersion: 'v3',
    });
    expect(result.dropPhotos).toEqual(['DCIM/stale.jpg']);
  });

  it('an edit of a feature added here changes its insert; a delete drops it with its photos', () => {
    const insert = mergeSave(
      undefined,
      { kind: 'insert', layer: 'trees', values: { name: 'Oak', photo: 'a.jpg' }, geometry: point },
      context({ photos: ['a.jpg'] }),
    ).put as FeatureEdit;
    const moved = { type: 'Point', coordinates: [1, 2] };
    const updated = mergeSave(
      insert,
      {
        kind: 'update',
        layer: 'trees',
        fid: -1,
        values: { name: 'Elm', photo: 'b.jpg' },
        before: { name: 'Oak', photo: 'a.jpg' },
        geometry: moved,
      },
      context({ now: 200, photos: ['b.jpg'] }),
    );
    expect(updated.put).toMatchObject({
      id: insert.id,
      kind: 'insert',
      values: { name: 'Elm', photo: 'b.jpg' },
      geometry: moved,
      photos: ['b.jpg'],
      createdAt: 100,
      updatedAt: 200,
    });
    expect(updated.dropPhotos).toEqual(['a.jpg']);
    const deleted = mergeSave(
      updated.put as FeatureEdit,
      { kind: 'delete', layer: 'trees', fid: -1, before: {} },
      context(),
    );
    expect(deleted).toEqual({ put: null, remove: insert.id, dropPhotos: ['b.jpg'] });
  });

  it('updates of a feature merge, keeping the values first seen; a value set back drops out', () => {
    const first = mergeSave(
      undefined,
      {
        kind: 'update',
        layer: 'trees',
        fid: 7,
        values: { name: 'B', height: 3 },
        before: { name: 'A', height: 2 },
      },
      context(),
    ).put as FeatureEdit;
    expect(first).toMatchObject({
      kind: 'update',
      fid: 7,
      values: { name: 'B', height: 3 },
      before: { name: 'A', height: 2 },
    });
    expect(first).not.toHaveProperty('geometry');
    const second = mergeSave(
      first,
      {
        kind: 'update',
        layer: 'trees',
        fid: 7,
        values: { name: 'C', height: 2 },
        before: { name: 'B', height: 3 },
      },
      context({ version: 'v4', now: 300 }),
    ).put as FeatureEdit;
    // height is back to 2: no change; name's value first seen is A.
    expect(second.values).toEqual({ name: 'C' });
    expect(second.before).toEqual({ name: 'A' });
    expect(second.baseVersion).toBe('v3');
    expect(second.id).toBe(first.id);
    const back = mergeSave(
      second,
      { kind: 'update', layer: 'trees', fid: 7, values: { name: 'A' }, before: { name: 'C' } },
      context(),
    );
    expect(back).toEqual({ put: null, remove: first.id, dropPhotos: [] });
  });

  it('a moved geometry alone is a change', () => {
    const moved = mergeSave(
      undefined,
      { kind: 'update', layer: 'trees', fid: 7, values: {}, before: {}, geometry: point },
      context(),
    ).put as FeatureEdit;
    expect(moved).toMatchObject({ kind: 'update', values: {}, geometry: point });
  });

  it('a delete after an update keeps the values first seen and drops its photos', () => {
    const update = mergeSave(
      undefined,
      {
        kind: 'update',
        layer: 'trees',
        fid: 7,
        values: { photo: 'p.jpg' },
        before: { photo: null },
      },
      context({ photos: ['p.jpg'] }),
    ).put as FeatureEdit;
    expect(update.photos).toEqual(['p.jpg']);
    const result = mergeSave(
      update,
      { kind: 'delete', layer: 'trees', fid: 7, before: { photo: 'p.jpg', name: 'Oak' } },
      context(),
    );
    expect(result.put).toMatchObject({
      id: update.id,
      kind: 'delete',
      values: {},
      before: { photo: null, name: 'Oak' },
      photos: [],
    });
    expect(result.dropPhotos).toEqual(['p.jpg']);
  });

  it('refuses a save of a feature deleted here', () => {
    const deleted = mergeSave(
      undefined,
      { kind: 'delete', layer: 'trees', fid: 7, before: {} },
      context(),
    ).put as FeatureEdit;
    expect(() =>
      mergeSave(
        deleted,
        { kind: 'update', layer: 'trees', fid: 7, values: { a: 1 }, before: { a: 0 } },
        context(),
      ),
    ).toThrow(DELETED_FEATURE_MESSAGE);
  });
});

describe('counts and renumbering', () => {
  const row = (kind: FeatureEdit['kind'], photos: string[] = []): FeatureEdit => ({
    id: `${kind}${photos.length}`,
    projectPath: 'ws/trees',
    projectId: 'p1',
    file: 'survey.gpkg',
    layer: 'trees',
    kind,
    fid: -2,
    values: {},
    before: {},
    photos,
    baseVersion: 'v1',
    batchId: null,
    createdAt: 1,
    updatedAt: 1,
  });

  it('says what a project’s queue holds', () => {
    const counts = countEdits([
      row('insert', ['a.jpg']),
      row('insert'),
      row('update'),
      row('delete'),
    ]);
    expect(counts).toEqual({ added: 2, changed: 1, deleted: 1, photos: 1 });
    expect(describeEdits(counts)).toBe(
      '2 features added · 1 feature changed · 1 feature deleted · 1 photo',
    );
    expect(describeEdits({ added: 0, changed: 3, deleted: 0, photos: 2 })).toBe(
      '3 features changed · 2 photos',
    );
  });

  it('gives rows still queued the fid the server gave their feature', () => {
    const rows = [row('update'), { ...row('update'), layer: 'other' }];
    expect(
      renumber(rows, [{ layer: 'trees', file: 'survey.gpkg', localFid: -2, fid: 41 }]),
    ).toEqual([{ ...rows[0], fid: 41 }]);
  });
});
