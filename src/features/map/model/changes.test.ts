import { describe, expect, it } from 'vitest';
import type { MapChanges } from '@contract/map';
import { changeCounts, changeLookup, presentChangedFids } from './changes';
import { CHANGE_COLOURS, featureColour } from './colours';

const changes: MapChanges = {
  file: 'survey.gpkg',
  version: 'v2',
  truncated: false,
  layers: [
    { layer: 'points', inserted: [4], updated: [1, 2], deleted: [3], deleted_features: [] },
    { layer: 'areas', inserted: [], updated: [1], deleted: [], deleted_features: [] },
  ],
};

describe('changes on the map', () => {
  it('finds each feature’s change by layer and fid', () => {
    const lookup = changeLookup(changes);
    expect(lookup('points', 4)).toBe('insert');
    expect(lookup('points', 1)).toBe('update');
    expect(lookup('points', 3)).toBe('delete');
    expect(lookup('points', 5)).toBeUndefined();
    expect(lookup('areas', 1)).toBe('update');
    expect(lookup('areas', 4)).toBeUndefined();
    expect(lookup('other', 1)).toBeUndefined();
  });

  it('colours features by their change', () => {
    const lookup = changeLookup(changes);
    expect(featureColour(0, lookup('points', 4))).toBe(CHANGE_COLOURS.insert);
    expect(featureColour(0, lookup('points', 2))).toBe(CHANGE_COLOURS.update);
    expect(featureColour(0, lookup('points', 3))).toBe(CHANGE_COLOURS.delete);
    expect(Object.values(CHANGE_COLOURS)).not.toContain(featureColour(0, lookup('points', 9)));
  });

  it('lists the changed features still in the version and counts each kind', () => {
    expect(presentChangedFids(changes.layers[0])).toEqual([4, 1, 2]);
    expect(presentChangedFids(undefined)).toEqual([]);
    expect(changeCounts(changes.layers[0])).toEqual({ insert: 1, update: 2, delete: 1 });
  });
});
