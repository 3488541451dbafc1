import { describe, expect, it } from 'vitest';
import {
  detailsNotAvailable,
  editedCount,
  pendingChangesets,
  versionListParams,
  type VersionDetail,
  type VersionFileChange,
} from './version';

/** An updated file as the contract describes it. */
const updated = (path: string): VersionFileChange => ({
  path,
  size: 1,
  checksum: 'c',
  mtime: null,
  change: 'updated',
  expiration: null,
});

describe('versions', () => {
  it('asks 50 versions per page, newest first or oldest first', () => {
    expect(versionListParams(2, 'newest')).toEqual({ page: 2, per_page: 50, descending: true });
    expect(versionListParams(1, 'oldest')).toEqual({ page: 1, per_page: 50, descending: false });
  });

  it('counts full and diff updates as edited files', () => {
    expect(editedCount({ added: 0, updated: 1, updated_diff: 2, removed: 0 })).toBe(3);
  });

  it('knows which edited GeoPackages still wait for their changeset', () => {
    const detail: Pick<VersionDetail, 'changes' | 'changesets'> = {
      changes: {
        added: [],
        updated: ['a.gpkg', 'b.GPKG', 'c.txt', 'd.sqlite', 'e.gpkg', 'f.gpkg'].map(updated),
        removed: [],
      },
      changesets: {
        'a.gpkg': { status: 'done', size: 1, summary: [] },
        'e.gpkg': { status: 'pending', size: 0 },
        'f.gpkg': { status: 'error', size: 0, error: 'Changes cannot be calculated' },
      },
    };
    expect(pendingChangesets(detail)).toEqual(['b.GPKG', 'd.sqlite', 'e.gpkg']);
  });

  it("words the missing details as 'Details not available: {error}'", () => {
    expect(detailsNotAvailable('Changes cannot be calculated')).toBe(
      'Details not available: Changes cannot be calculated',
    );
  });
});
