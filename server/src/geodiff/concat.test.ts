/**
 * Concatenating changesets (concat.ts): each rule of geodiff's concat on one row, and a chain
 * of diffs between real GeoPackages (ogr2ogr) whose merge, applied to the first file, gives
 * the last one row for row.
 */
import { copyFile } from 'node:fs/promises';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  geopackageFromFeatures,
  pointFeatures,
  scratch,
  tableRows,
  type Scratch,
} from '../../../tests/server/support/geopackage';
import { applyChangeset } from './apply';
import { concatChangesets } from './concat';
import { createChangeset } from './create';
import {
  ChangesetFormatError,
  readChangeset,
  writeChangeset,
  type Change,
  type Changeset,
} from './format';
import { registerSpatialFunctions } from './st-functions';

const PK = [true, false, false];
const table = (changes: Change[]): Changeset => [{ name: 'trees', pk: PK, changes }];
const insert = (id: bigint, name: string, h: number): Change => ({
  op: 'insert',
  indirect: false,
  new: [id, name, h],
});
const update = (id: bigint, before: [string?, number?], after: [string?, number?]): Change => ({
  op: 'update',
  indirect: false,
  old: [id, before[0], before[1]],
  new: [undefined, after[0], after[1]],
});
const remove = (id: bigint, name: string, h: number): Change => ({
  op: 'delete',
  indirect: false,
  old: [id, name, h],
});

function merged(...changesets: Changeset[]) {
  return concatChangesets(changesets).changeset.flatMap((t) => t.changes);
}

describe('concatChangesets rules', () => {
  it('INSERT + UPDATE is the INSERT with the new values', () => {
    expect(
      merged(table([insert(1n, 'a', 1)]), table([update(1n, [undefined, 1], [undefined, 5])])),
    ).toEqual([insert(1n, 'a', 5)]);
  });

  it('INSERT + DELETE is nothing, and the table is left out', () => {
    const result = concatChangesets([table([insert(1n, 'a', 1)]), table([remove(1n, 'a', 1)])]);
    expect(result.changeset).toEqual([]);
    expect(writeChangeset(result.changeset).length).toBe(0);
  });

  it('UPDATE + UPDATE goes from the first old values to the last new ones', () => {
    expect(
      merged(
        table([update(1n, ['a', undefined], ['b', undefined])]),
        table([update(1n, ['b', 1], ['c', 2])]),
      ),
    ).toEqual([update(1n, ['a', 1], ['c', 2])]);
  });

  it('UPDATE + UPDATE back to the start is nothing; a column that returns is left out', () => {
    expect(
      merged(
        table([update(1n, ['a', undefined], ['b', undefined])]),
        table([update(1n, ['b', undefined], ['a', undefined])]),
      ),
    ).toEqual([]);
    expect(
      merged(
        table([update(1n, ['a', 1], ['b', 2])]),
        table([update(1n, ['b', undefined], ['a', undefined])]),
      ),
    ).toEqual([update(1n, [undefined, 1], [undefined, 2])]);
  });

  it('UPDATE + DELETE is a DELETE with the original values', () => {
    expect(
      merged(table([update(1n, ['a', undefined], ['b', undefined])]), table([remove(1n, 'b', 3)])),
    ).toEqual([remove(1n, 'a', 3)]);
  });

  it('DELETE + INSERT is an UPDATE of the changed columns, or nothing when equal', () => {
    expect(merged(table([remove(1n, 'a', 3)]), table([insert(1n, 'a', 4)]))).toEqual([
      update(1n, [undefined, 3], [undefined, 4]),
    ]);
    expect(merged(table([remove(1n, 'a', 3)]), table([insert(1n, 'a', 3)]))).toEqual([]);
  });

  it('drops the row on sequences a history cannot hold, counting them', () => {
    const result = concatChangesets([
      table([insert(1n, 'a', 1), remove(2n, 'b', 2)]),
      table([insert(1n, 'a', 1), remove(2n, 'b', 2), insert(3n, 'c', 3)]),
    ]);
    expect(result.unsupported).toBe(2);
    expect(result.changeset.flatMap((t) => t.changes)).toEqual([insert(3n, 'c', 3)]);
  });

  it('keeps rows of other keys and tables in first-seen order', () => {
    const other: Changeset = [{ name: 'roads', pk: [true, false], changes: [] }];
    other[0]!.changes.push({ op: 'insert', indirect: false, new: [7n, 'x'] });
    expect(
      concatChangesets([
        table([insert(2n, 'b', 2)]),
        other,
        table([insert(1n, 'a', 1)]),
      ]).changeset.map((t) => [t.name, t.changes.length]),
    ).toEqual([
      ['trees', 2],
      ['roads', 1],
    ]);
  });

  it('refuses a table whose columns differ between diffs', () => {
    const wider: Changeset = [{ name: 'trees', pk: [true, false, false, false], changes: [] }];
    expect(() => concatChangesets([table([insert(1n, 'a', 1)]), wider])).toThrow(
      ChangesetFormatError,
    );
  });
});

describe('concatChangesets on GeoPackage diffs', () => {
  let s: Scratch;
  const files: string[] = [];

  const rows = (file: string) => tableRows(file, 'trees');

  async function next(sql: string): Promise<void> {
    const file = s.file(`v${files.length + 1}.gpkg`);
    await copyFile(files.at(-1)!, file);
    const db = new Database(file);
    registerSpatialFunctions(db);
    db.exec(sql);
    db.close();
    files.push(file);
  }

  beforeAll(async () => {
    s = await scratch();
    await geopackageFromFeatures(s, 'v1', 'trees', pointFeatures(50));
    files.push(s.file('v1.gpkg'));
    await next(`UPDATE trees SET name = 'one' WHERE fid = 1;
      INSERT INTO trees (fid, geom, name, height) SELECT 100, geom, 'new', 1 FROM trees WHERE fid = 2;
      INSERT INTO trees (fid, geom, name, height) SELECT 101, geom, 'brief', 1 FROM trees WHERE fid = 3;
      UPDATE trees SET height = 77 WHERE fid = 4;
      DELETE FROM trees WHERE fid = 5;`);
    await next(`UPDATE trees SET name = 'two', height = 2 WHERE fid = 1;
      UPDATE trees SET name = 'grown' WHERE fid = 100;
      DELETE FROM trees WHERE fid IN (101, 4);
      INSERT INTO trees (fid, geom, name, height) SELECT 5, geom, 'back', 5 FROM trees WHERE fid = 6;`);
    await next(`UPDATE trees SET name = 'tree 1', height = 1.5 WHERE fid = 1;
      UPDATE trees SET geom = (SELECT geom FROM trees WHERE fid = 9) WHERE fid = 8;`);
  }, 60_000);

  afterAll(async () => {
    await s?.cleanup();
  });

  it('merges a chain whose result, applied to the first file, gives the last', async () => {
    const diffs: Changeset[] = [];
    for (let i = 1; i < files.length; i++) {
      diffs.push(readChangeset(createChangeset(files[i - 1]!, files[i]!)));
    }
    const { changeset, unsupported } = concatChangesets(diffs);
    expect(unsupported).toBe(0);
    const bytes = writeChangeset(changeset);
    const target = s.file('merged.gpkg');
    await copyFile(files[0]!, target);
    applyChangeset(target, readChangeset(bytes));
    expect(rows(target)).toEqual(rows(files.at(-1)!));
    expect(rows(target)).not.toEqual(rows(files[0]!));
    // fid 1 went round to its first values: nothing left of it; 101 came and went.
    const ops = changeset.flatMap((t) => t.changes.map((c) => `${c.op}:${(c.old ?? c.new)![0]}`));
    expect(ops).not.toContain('update:1');
    expect(ops.some((op) => op.endsWith(':101'))).toBe(false);
    expect(ops).toContain('insert:100');
    expect(ops).toContain('delete:4');
    expect(ops).toContain('update:5');
    // The merged diff is no larger than the diffs it replaces.
    const total = diffs.reduce((sum, d) => sum + writeChangeset(d).length, 0);
    expect(bytes.length).toBeLessThan(total);
  });
});
