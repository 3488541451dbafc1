import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { ChangesImpossibleError, diffSqliteFiles } from './sqlite-diff';

const dir = mkdtempSync(path.join(tmpdir(), 'waymark-sqlite-diff-'));
let n = 0;

afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A SQLite file made by running `sql`. */
function file(sql: string, params: Record<string, unknown[]> = {}): string {
  const target = path.join(dir, `db-${++n}.sqlite`);
  const db = new Database(target);
  db.exec(sql);
  for (const [statement, values] of Object.entries(params)) db.prepare(statement).run(...values);
  db.close();
  return target;
}

const SCHEMA = `CREATE TABLE visits (site TEXT, day INTEGER, count INTEGER, note TEXT,
  PRIMARY KEY (site, day)) WITHOUT ROWID;`;

describe('diffSqliteFiles', () => {
  it('compares by a composite primary key, with every value type', async () => {
    const before = file(
      `${SCHEMA} INSERT INTO visits VALUES ('a', 1, 5, NULL), ('a', 2, 7, 'x'), ('b', 1, 1, 'y');`,
    );
    const after = file(
      `${SCHEMA} INSERT INTO visits VALUES ('a', 1, 5, 'now noted'), ('a', 2, 9007199254740993, 'x'),
         ('c', 1, 2.5, NULL);`,
    );
    const diff = await diffSqliteFiles(before, after);
    expect(diff.summary).toEqual([{ table: 'visits', insert: 1, update: 2, delete: 1 }]);
    expect(diff.entries).toEqual([
      {
        table: 'visits',
        type: 'insert',
        changes: [
          { column: 0, name: 'site', type: 'text', new: 'c' },
          { column: 1, name: 'day', type: 'integer', new: 1 },
          { column: 2, name: 'count', type: 'integer', new: 2.5 },
          { column: 3, name: 'note', type: 'text', new: null },
        ],
      },
      {
        table: 'visits',
        type: 'update',
        changes: [
          { column: 0, name: 'site', type: 'text', old: 'a' },
          { column: 1, name: 'day', type: 'integer', old: 1 },
          { column: 3, name: 'note', type: 'text', old: null, new: 'now noted' },
        ],
      },
      {
        table: 'visits',
        type: 'update',
        changes: [
          { column: 0, name: 'site', type: 'text', old: 'a' },
          { column: 1, name: 'day', type: 'integer', old: 2 },
          // Beyond 2^53: as a decimal string.
          { column: 2, name: 'count', type: 'integer', old: 7, new: '9007199254740993' },
        ],
      },
      {
        table: 'visits',
        type: 'delete',
        changes: [
          { column: 0, name: 'site', type: 'text', old: 'b' },
          { column: 1, name: 'day', type: 'integer', old: 1 },
          { column: 2, name: 'count', type: 'integer', old: 1 },
          { column: 3, name: 'note', type: 'text', old: 'y' },
        ],
      },
    ]);
    expect(diff.truncated).toBe(false);
  });

  it('finds nothing between equal files, and ignores metadata and index tables', async () => {
    const sql = `CREATE TABLE t (id INTEGER PRIMARY KEY, v BLOB);
      CREATE TABLE gpkg_spatial_ref_sys (srs_id INTEGER PRIMARY KEY, name TEXT);
      CREATE TABLE loose (v TEXT); INSERT INTO loose VALUES ('same');
      CREATE VIRTUAL TABLE rtree_t_geom USING rtree(id, minx, maxx, miny, maxy);`;
    const before = file(`${sql} INSERT INTO gpkg_spatial_ref_sys VALUES (1, 'a');`, {
      'INSERT INTO t VALUES (1, ?)': [Buffer.from([0, 1, 2])],
    });
    const after = file(
      `${sql} INSERT INTO gpkg_spatial_ref_sys VALUES (2, 'b');
       INSERT INTO rtree_t_geom VALUES (1, 0, 1, 0, 1);`,
      { 'INSERT INTO t VALUES (1, ?)': [Buffer.from([0, 1, 2])] },
    );
    expect(await diffSqliteFiles(before, after)).toEqual({
      summary: [],
      entries: [],
      truncated: false,
    });
  });

  it('shows blobs as base64 and undecodable geometries unchanged', async () => {
    const sql = `CREATE TABLE t (id INTEGER PRIMARY KEY, raw BLOB, shape POINT);`;
    const before = file(sql);
    const after = file(sql, {
      'INSERT INTO t VALUES (1, ?, ?)': [Buffer.from('hello'), Buffer.from('GP?')],
    });
    const [entry] = (await diffSqliteFiles(before, after)).entries;
    expect(entry!.changes).toEqual([
      { column: 0, name: 'id', type: 'integer', new: 1 },
      { column: 1, name: 'raw', type: 'blob', new: 'aGVsbG8=' },
      { column: 2, name: 'shape', type: 'geometry', new: 'R1A/' },
    ]);
  });

  it('keeps at most maxEntries rows but counts them all', async () => {
    const sql = 'CREATE TABLE t (id INTEGER PRIMARY KEY, v INTEGER);';
    const before = file(sql);
    const after = file(
      `${sql} WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 50)
       INSERT INTO t SELECT i, i FROM n;`,
    );
    const diff = await diffSqliteFiles(before, after, { maxEntries: 10 });
    expect(diff.summary).toEqual([{ table: 't', insert: 50, update: 0, delete: 0 }]);
    expect(diff.entries).toHaveLength(10);
    expect(diff.truncated).toBe(true);
  });

  it('refuses changed tables without a primary key, schema changes and unreadable files', async () => {
    const refused = async (before: string, after: string) => {
      const error = await diffSqliteFiles(before, after).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ChangesImpossibleError);
      return (error as ChangesImpossibleError).message;
    };
    expect(
      await refused(
        file("CREATE TABLE loose (v TEXT); INSERT INTO loose VALUES ('a');"),
        file("CREATE TABLE loose (v TEXT); INSERT INTO loose VALUES ('b');"),
      ),
    ).toBe('Changes cannot be calculated: no primary key in table loose');
    expect(
      await refused(
        file('CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT);'),
        file('CREATE TABLE t (id INTEGER PRIMARY KEY, v INTEGER);'),
      ),
    ).toBe('Changes cannot be calculated: schema changed in table t');
    expect(
      await refused(
        file('CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT);'),
        file('CREATE TABLE t (id INTEGER, v TEXT PRIMARY KEY);'),
      ),
    ).toBe('Changes cannot be calculated: schema changed in table t');
    expect(
      await refused(
        file('CREATE TABLE t (id INTEGER PRIMARY KEY);'),
        file('CREATE TABLE t (id INTEGER PRIMARY KEY); CREATE TABLE u (id INTEGER PRIMARY KEY);'),
      ),
    ).toBe('Changes cannot be calculated: schema changed in table u');
    const junk = path.join(dir, 'junk.gpkg');
    writeFileSync(junk, 'this is not a database, only some text that is long enough');
    expect(await refused(file('CREATE TABLE t (id INTEGER PRIMARY KEY);'), junk)).toBe(
      'Changes cannot be calculated: file unreadable',
    );
  });
});
