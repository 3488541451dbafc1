import { describe, expect, it } from 'vitest';
import type { PushPlan } from './plan';
import {
  baseFilesOf,
  composeOutcomes,
  conflictedCopyName,
  describeFileOutcome,
  rebaseOfflinePlan,
  type FileOutcome,
} from './offlineRebase';

describe('conflictedCopyName (the desktop client naming)', () => {
  it('puts the note before every extension, beside the file', () => {
    expect(conflictedCopyName('data.gpkg', 'martin', 5)).toBe(
      'data (conflicted copy, martin v5).gpkg',
    );
    expect(conflictedCopyName('photos/site 1.jpg', 'ana', 12)).toBe(
      'photos/site 1 (conflicted copy, ana v12).jpg',
    );
    expect(conflictedCopyName('archive.tar.gz', 'ana', 3)).toBe(
      'archive (conflicted copy, ana v3).tar.gz',
    );
    expect(conflictedCopyName('README', 'ana', 3)).toBe('README (conflicted copy, ana v3)');
    expect(conflictedCopyName('.profile', 'ana', 3)).toBe('.profile (conflicted copy, ana v3)');
  });

  it("adds '~' after the extension of QGIS project files", () => {
    expect(conflictedCopyName('project.qgs', 'martin', 5)).toBe(
      'project (conflicted copy, martin v5).qgs~',
    );
    expect(conflictedCopyName('maps/Survey.QGZ', 'martin', 7)).toBe(
      'maps/Survey (conflicted copy, martin v7).QGZ~',
    );
  });
});

const file = (path: string, checksum: string, size = 4) => ({ path, checksum, size });

const plan: PushPlan = {
  pushId: 'push',
  projectId: 'p',
  namespace: 'ws',
  name: 'survey',
  body: {
    version: 'v2',
    changes: {
      added: [{ ...file('new.txt', 'n1'), mtime: 't', chunks: ['c1'] }],
      updated: [
        { ...file('both.gpkg', 'mine'), mtime: 't', chunks: ['c2'] },
        { ...file('only-mine.txt', 'mine'), mtime: 't', chunks: ['c3'] },
        { ...file('gone.txt', 'mine'), mtime: 't', chunks: ['c4'] },
        { ...file('same.txt', 'same-now'), mtime: 't', chunks: ['c5'] },
      ],
      removed: [file('del-kept.txt', 'b'), file('del-ok.txt', 'b'), file('del-gone.txt', 'b')],
    },
  },
};

const base = {
  username: 'martin',
  baseFiles: [
    file('both.gpkg', 'b'),
    file('only-mine.txt', 'b'),
    file('gone.txt', 'b'),
    file('same.txt', 'b'),
    file('del-kept.txt', 'b'),
    file('del-ok.txt', 'b'),
    file('del-gone.txt', 'b'),
  ],
};

describe('rebaseOfflinePlan', () => {
  it('leaves the plan as it is when the project did not move', () => {
    const result = rebaseOfflinePlan(plan, base, { version: 'v2', files: base.baseFiles });
    expect(result.plan).toBe(plan);
    expect(result.moved).toEqual([]);
    expect(result.outcome.map((o) => o.kind)).toEqual([
      'sent',
      'sent',
      'sent',
      'sent',
      'sent',
      'removed',
      'removed',
      'removed',
    ]);
  });

  it('carries each file over onto the latest version as the desktop plugin does', () => {
    const latest = {
      version: 'v4',
      files: [
        file('both.gpkg', 'theirs', 9),
        file('only-mine.txt', 'b'),
        file('same.txt', 'same-now'),
        file('del-kept.txt', 'changed'),
        file('del-ok.txt', 'b', 7),
      ],
    };
    const { plan: next, outcome, moved } = rebaseOfflinePlan(plan, base, latest);
    expect(next.body.version).toBe('v4');
    expect(next.body.changes.added.map((f) => [f.path, f.chunks])).toEqual([
      ['new.txt', ['c1']],
      ['both (conflicted copy, martin v4).gpkg', ['c2']],
      ['gone.txt', ['c4']],
    ]);
    expect(next.body.changes.updated.map((f) => f.path)).toEqual(['only-mine.txt']);
    expect(next.body.changes.removed).toEqual([{ path: 'del-ok.txt', checksum: 'b', size: 7 }]);
    expect(moved).toEqual([['both.gpkg', 'both (conflicted copy, martin v4).gpkg']]);
    expect(outcome.map(describeFileOutcome)).toEqual([
      'new.txt: uploaded',
      "both.gpkg: changed on the server too; the server's version stays and yours was uploaded as both (conflicted copy, martin v4).gpkg",
      'only-mine.txt: uploaded',
      'gone.txt: deleted on the server meanwhile; yours was uploaded again',
      'same.txt: the server already had the same content',
      'del-kept.txt: not deleted, because it changed on the server meanwhile',
      'del-ok.txt: deleted',
      'del-gone.txt: already deleted on the server',
    ]);
  });
});

describe('a second rebase (the project moved on again)', () => {
  it('bases itself on the files of the version the plan was rebased onto', () => {
    const latest = {
      version: 'v4',
      files: [file('only-mine.txt', 'b'), file('del-ok.txt', 'b'), file('elsewhere.txt', 'x')],
    };
    const { plan: rebased } = rebaseOfflinePlan(plan, base, latest);
    expect(baseFilesOf(rebased, latest)).toEqual([
      file('only-mine.txt', 'b'),
      file('del-ok.txt', 'b'),
    ]);
  });

  it('tells what happened to each file of the original plan', () => {
    const first: FileOutcome[] = [
      { path: 'a.txt', kind: 'sent' },
      { path: 'b.gpkg', kind: 'conflicted-copy', copy: 'b (conflicted copy, ana v2).gpkg' },
      { path: 'c.txt', kind: 'sent' },
      { path: 'd.txt', kind: 'removed' },
      { path: 'e.txt', kind: 'already-there' },
      { path: 'f.txt', kind: 'sent' },
    ];
    const again: FileOutcome[] = [
      { path: 'a.txt', kind: 'sent' },
      { path: 'b (conflicted copy, ana v2).gpkg', kind: 'sent' },
      { path: 'c.txt', kind: 'conflicted-copy', copy: 'c (conflicted copy, ana v3).txt' },
      { path: 'd.txt', kind: 'removal-dropped' },
      { path: 'f.txt', kind: 'added-again' },
    ];
    expect(composeOutcomes(first, again)).toEqual([
      { path: 'a.txt', kind: 'sent' },
      { path: 'b.gpkg', kind: 'conflicted-copy', copy: 'b (conflicted copy, ana v2).gpkg' },
      { path: 'c.txt', kind: 'conflicted-copy', copy: 'c (conflicted copy, ana v3).txt' },
      { path: 'd.txt', kind: 'removal-dropped' },
      { path: 'e.txt', kind: 'already-there' },
      { path: 'f.txt', kind: 'added-again' },
    ]);
  });
});
