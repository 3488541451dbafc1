import { describe, expect, it } from 'vitest';
import {
  joinPath,
  placeSelection,
  replacesProject,
  topLevelFolders,
  type ChosenFile,
} from './selection';

const chosen = (relativePath: string, size = 1): ChosenFile => ({
  relativePath,
  file: new Blob(['x'.repeat(size)]),
  size,
  lastModified: 0,
});

describe('joinPath', () => {
  it('joins at the current location without stray slashes', () => {
    expect(joinPath('', 'a.gpkg')).toBe('a.gpkg');
    expect(joinPath('data/', '/photos/a.jpg')).toBe('data/photos/a.jpg');
    expect(joinPath('data', './a.txt')).toBe('data/a.txt');
  });
});

describe('the replace-all rule', () => {
  it('applies to a single folder named like the project', () => {
    expect(replacesProject([chosen('survey/a.gpkg'), chosen('survey/b/c.txt')], 'survey')).toBe(
      true,
    );
  });

  it('does not apply to other folders, several entries or loose files', () => {
    expect(replacesProject([chosen('other/a.gpkg')], 'survey')).toBe(false);
    expect(replacesProject([chosen('survey/a.gpkg'), chosen('notes.txt')], 'survey')).toBe(false);
    expect(replacesProject([chosen('survey/a.gpkg'), chosen('other/b.txt')], 'survey')).toBe(false);
    expect(replacesProject([chosen('survey')], 'survey')).toBe(false);
    expect(replacesProject([], 'survey')).toBe(false);
  });

  it('strips the folder name from the paths', () => {
    const placement = placeSelection(
      [chosen('survey/a.gpkg'), chosen('survey/b/c.txt')],
      'data',
      'survey',
    );
    expect(placement.replaceAll).toBe(true);
    expect(placement.files.map((f) => f.path)).toEqual(['a.gpkg', 'b/c.txt']);
  });
});

describe('placeSelection (merge)', () => {
  it('puts files at the current location and replaces dropped folder paths', () => {
    const placement = placeSelection(
      [chosen('photos/a.jpg'), chosen('photos/2024/b.jpg'), chosen('notes.txt')],
      'data',
      'survey',
    );
    expect(placement.replaceAll).toBe(false);
    expect(placement.replacedFolders).toEqual(['data/photos']);
    expect(placement.files.map((f) => f.path)).toEqual([
      'data/photos/a.jpg',
      'data/photos/2024/b.jpg',
      'data/notes.txt',
    ]);
  });

  it('lists top-level folders once', () => {
    expect(topLevelFolders([chosen('a/x'), chosen('a/y/z'), chosen('b/c'), chosen('d')])).toEqual([
      'a',
      'b',
    ]);
  });
});
