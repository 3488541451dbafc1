/** Merged diff names (diff-ids.ts): made and read back, and what is not one. */
import { describe, expect, it } from 'vitest';
import { mergedDiffId, parseMergedDiffId } from './diff-ids';

describe('merged diff ids', () => {
  it('reads back the path and versions of the names it makes', () => {
    for (const [path, first, last] of [
      ['survey.gpkg', 2, 9],
      ['data/my trees.gpkg', 1, 2],
      ['odd-diff-v1-v2.gpkg', 10, 4000],
    ] as const) {
      expect(parseMergedDiffId(mergedDiffId(path, first, last))).toEqual({ path, first, last });
    }
  });

  it('is null for stored diff names and impossible ranges', () => {
    for (const id of [
      'survey.gpkg-diff-1b9fe848-d2e4-4c53-958d-3dd97e5486f6',
      'survey.gpkg-diff-v3-v3',
      'survey.gpkg-diff-v5-v2',
      'survey.gpkg-diff-v0-v2',
      '-diff-v1-v2',
      'survey.gpkg-diff-v1-v9999999999999999',
    ]) {
      expect(parseMergedDiffId(id), id).toBeNull();
    }
  });
});
