import { describe, expect, it } from 'vitest';
import type { ProjectFile } from '@contract/projects';
import {
  applyPlacement,
  changesByPath,
  computeDiff,
  filesOfProject,
  hasChanges,
  stageDeletion,
  summarize,
  unanalysed,
  withChecksum,
} from './pending';
import { placeSelection, type ChosenFile } from './selection';

const BASE: ProjectFile[] = [
  { path: 'survey.gpkg', size: 10, checksum: 'aaa', mtime: '2026-01-01T00:00:00Z' },
  { path: 'data/notes.txt', size: 5, checksum: 'bbb', mtime: '2026-01-01T00:00:00Z' },
  { path: 'data/photos/a.jpg', size: 7, checksum: 'ccc', mtime: '2026-01-01T00:00:00Z' },
];

const chosen = (relativePath: string, size: number): ChosenFile => ({
  relativePath,
  file: new Blob(['x'.repeat(size)]),
  size,
  lastModified: Date.UTC(2026, 10, 20),
});

describe('pending upload', () => {
  it('adds, updates (checksum differs) and removes against the viewed version', () => {
    let files = filesOfProject(BASE);
    const placed = placeSelection([chosen('survey.gpkg', 12), chosen('new.csv', 3)], '', 'p');
    files = applyPlacement(files, placed).files;
    expect(unanalysed(files).map((f) => f.path)).toEqual(['survey.gpkg', 'new.csv']);
    files = withChecksum(files, 'survey.gpkg', 'ddd');
    files = withChecksum(files, 'new.csv', 'eee');
    files = stageDeletion(files, 'data/notes.txt', false);
    const diff = computeDiff(BASE, files);
    expect(diff.added.map((f) => f.path)).toEqual(['new.csv']);
    expect(diff.updated.map((f) => f.path)).toEqual(['survey.gpkg']);
    expect(diff.removed.map((f) => f.path)).toEqual(['data/notes.txt']);
    expect(summarize(diff)).toEqual({ added: 1, updated: 1, removed: 1, size: 15 });
    expect(changesByPath(diff).get('data/notes.txt')).toBe('removed');
    expect(diff.added[0]?.mtime).toBe('2026-11-20T00:00:00.000Z');
  });

  it('finds no changes for an identical re-upload', () => {
    let files = applyPlacement(
      filesOfProject(BASE),
      placeSelection([chosen('survey.gpkg', 10)], '', 'p'),
    ).files;
    files = withChecksum(files, 'survey.gpkg', 'aaa');
    expect(hasChanges(computeDiff(BASE, files))).toBe(false);
  });

  it('stages the deletion of a folder by prefix', () => {
    const files = stageDeletion(filesOfProject(BASE), 'data', true);
    expect([...files.keys()]).toEqual(['survey.gpkg']);
    expect(computeDiff(BASE, files).removed.map((f) => f.path)).toEqual([
      'data/notes.txt',
      'data/photos/a.jpg',
    ]);
  });

  it('replaces the files under a dropped folder path', () => {
    const { files } = applyPlacement(
      filesOfProject(BASE),
      placeSelection([chosen('photos/b.jpg', 2)], 'data', 'p'),
    );
    expect([...files.keys()].sort()).toEqual([
      'data/notes.txt',
      'data/photos/b.jpg',
      'survey.gpkg',
    ]);
  });

  it('replaces everything for a folder named like the project', () => {
    const { files } = applyPlacement(
      filesOfProject(BASE),
      placeSelection([chosen('p/survey.gpkg', 10)], 'data', 'p'),
    );
    const diff = computeDiff(BASE, withChecksum(files, 'survey.gpkg', 'aaa'));
    expect(diff.removed.map((f) => f.path)).toEqual(['data/notes.txt', 'data/photos/a.jpg']);
    expect(diff.updated).toEqual([]);
  });

  it('leaves out ignored names and reports them', () => {
    const result = applyPlacement(
      filesOfProject([]),
      placeSelection(
        [chosen('a.gpkg', 1), chosen('a.gpkg-wal', 1), chosen('.mergin/x.json', 1)],
        '',
        'p',
      ),
      { dirs: ['.mergin'], files: [] },
    );
    expect([...result.files.keys()]).toEqual(['a.gpkg']);
    expect(result.ignored).toEqual(['a.gpkg-wal', '.mergin/x.json']);
  });
});
