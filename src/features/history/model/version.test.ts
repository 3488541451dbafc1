import { describe, expect, it } from 'vitest';
import {
  detailsNotAvailable,
  editedCount,
  pendingChangesets,
  toVersionDetail,
  toVersionList,
  versionListParams,
} from './version';

describe('versions', () => {
  it('asks 50 versions per page, newest first or oldest first', () => {
    expect(versionListParams(2, 'newest')).toEqual({ page: 2, per_page: 50, descending: true });
    expect(versionListParams(1, 'oldest')).toEqual({ page: 1, per_page: 50, descending: false });
  });

  it('reads the list leniently', () => {
    expect(toVersionList(undefined)).toEqual({ versions: [], count: 0 });
    const list = toVersionList({
      count: 1,
      versions: [{ name: 'v1', created: 'x', project_size: 5, changes: { added: 2 } }],
    });
    expect(list.versions[0]?.changes).toEqual({
      added: 2,
      updated: 0,
      updated_diff: 0,
      removed: 0,
    });
  });

  it('counts full and diff updates as edited files', () => {
    expect(editedCount({ added: 0, updated: 1, updated_diff: 2, removed: 0 })).toBe(3);
  });

  it('reads the detail leniently', () => {
    const detail = toVersionDetail({
      name: 'v2',
      changes: { added: [{ path: 'a.txt', size: 1 }, { size: 2 }], updated: null },
      changesets: [],
    });
    expect(detail.changes).toEqual({
      added: [{ path: 'a.txt', size: 1 }],
      updated: [],
      removed: [],
    });
    expect(detail.changesets).toEqual({});
    expect(detail.project_size).toBe(0);
  });

  it('knows which edited GeoPackages still wait for their changeset', () => {
    const detail = toVersionDetail({
      name: 'v2',
      changes: {
        updated: [
          { path: 'a.gpkg', size: 1 },
          { path: 'b.GPKG', size: 1 },
          { path: 'c.txt', size: 1 },
          { path: 'd.sqlite', size: 1 },
          { path: 'e.gpkg', size: 1 },
          { path: 'f.gpkg', size: 1 },
        ],
      },
      changesets: {
        'a.gpkg': { status: 'done', size: 1, summary: [] },
        'e.gpkg': { status: 'pending', size: 0 },
        'f.gpkg': { status: 'error', size: 0, error: 'Changes cannot be calculated' },
      },
    });
    expect(pendingChangesets(detail)).toEqual(['b.GPKG', 'd.sqlite', 'e.gpkg']);
  });

  it("words the missing details as 'Details not available: {error}'", () => {
    expect(detailsNotAvailable('Changes cannot be calculated')).toBe(
      'Details not available: Changes cannot be calculated',
    );
  });
});
