import { describe, expect, it } from 'vitest';
import type { ProjectFile } from '@contract/projects';
import type { Diff, PendingFile } from './pending';
import { isEmptyChanges, rebaseChanges, versionedConflicts } from './rebase';

const f = (path: string, checksum: string, size = 1): ProjectFile => ({
  path,
  checksum,
  size,
  mtime: '2026-01-01T00:00:00Z',
});
const p = (path: string, checksum: string, size = 1): PendingFile => ({
  path,
  checksum,
  size,
  mtime: '2026-01-01T00:00:00Z',
  blob: new Blob(['x']),
});

describe('versionedConflicts', () => {
  const viewed = [f('survey.gpkg', 'v1'), f('other.sqlite', 's1'), f('notes.txt', 'n1')];
  const diff: Diff = {
    added: [],
    updated: [p('survey.gpkg', 'mine'), p('notes.txt', 'mine')],
    removed: [f('other.sqlite', 's1')],
  };

  it('lists updated or removed versioned files that changed on the server', () => {
    const latest = [f('survey.gpkg', 'theirs'), f('other.sqlite', 's2'), f('notes.txt', 'n2')];
    expect(versionedConflicts(diff, viewed, latest)).toEqual(['survey.gpkg', 'other.sqlite']);
  });

  it('is empty when only other files changed', () => {
    const latest = [f('survey.gpkg', 'v1'), f('other.sqlite', 's1'), f('notes.txt', 'n2')];
    expect(versionedConflicts(diff, viewed, latest)).toEqual([]);
  });

  it('counts a versioned file removed on the server', () => {
    expect(versionedConflicts(diff, viewed, [f('other.sqlite', 's1')])).toEqual(['survey.gpkg']);
  });
});

describe('rebaseChanges', () => {
  it('carries the changes onto the latest files', () => {
    const diff: Diff = {
      added: [p('new.csv', 'c1'), p('same.txt', 'x1')],
      updated: [p('gone.txt', 'g2'), p('kept.txt', 'k2')],
      removed: [f('old.txt', 'o1'), f('already-removed.txt', 'r1')],
    };
    const latest = [f('same.txt', 'x1'), f('kept.txt', 'k1'), f('old.txt', 'o2', 9)];
    const rebased = rebaseChanges(diff, latest);
    expect(rebased.added.map((c) => c.path)).toEqual(['new.csv', 'gone.txt']);
    expect(rebased.updated.map((c) => c.path)).toEqual(['kept.txt']);
    expect(rebased.removed).toEqual([{ path: 'old.txt', checksum: 'o2', size: 9 }]);
    expect(isEmptyChanges(rebased)).toBe(false);
  });

  it('is empty when the latest version already holds the changes', () => {
    const diff: Diff = { added: [p('a.txt', 'a')], updated: [], removed: [f('b.txt', 'b')] };
    expect(isEmptyChanges(rebaseChanges(diff, [f('a.txt', 'a')]))).toBe(true);
  });
});
