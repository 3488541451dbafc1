/**
 * Creating and applying changesets between real GeoPackages made by GDAL's ogr2ogr (with
 * R-tree triggers that call the ST_ functions).
 */
import { copyFile, readFile, writeFile } from 'node:fs/promises';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  geopackageFromFeatures,
  pointFeatures,
  scratch,
  type Feature,
  type Scratch,
} from '../../../tests/server/support/geopackage';
import { applyChangeset, ChangesetConflictError } from './apply';
import { CannotDiffError, createChangeset } from './create';
import { diffSqliteFiles } from '../lib/sqlite-diff';
import { changesetEntries } from './entries';
import { readChangeset } from './format';
import { geometryBounds, registerSpatialFunctions } from './st-functions';

let s: Scratch;
let v1: string;
let v2: string;

const polygon: Feature = {
  id: 500,
  properties: { name: 'park', height: null },
  geometry: {
    type: 'Polygon',
    coordinates: [
      [
        [10, 20],
        [14, 20],
        [14, 26],
        [10, 20],
      ],
    ],
  },
};

beforeAll(async () => {
  s = await scratch();
  const before = [...pointFeatures(40), polygon];
  // v2: 3 rows removed, 4 changed (attribute, geometry, both), 5 added, the polygon moved.
  const after = before
    .filter((f) => ![5, 6, 7].includes(f.id))
    .map((f): Feature => {
      if (f.id === 1) return { ...f, properties: { ...f.properties, name: 'renamed' } };
      if (f.id === 2) return { ...f, geometry: { type: 'Point', coordinates: [-70, -40] } };
      if (f.id === 3) return { ...f, properties: { name: null, height: 99 }, geometry: null };
      if (f.id === 500) {
        return {
          ...f,
          geometry: {
            type: 'Polygon',
            coordinates: [
              [
                [100, 20],
                [140, 20],
                [140, 60],
                [100, 20],
              ],
            ],
          },
        };
      }
      return f;
    })
    .concat(pointFeatures(5, 1000));
  await geopackageFromFeatures(s, 'v1', 'trees', before);
  await geopackageFromFeatures(s, 'v2', 'trees', after);
  v1 = s.file('v1.gpkg');
  v2 = s.file('v2.gpkg');
}, 60_000);

afterAll(() => s.cleanup());

/**
 * Every row of every layer, R-tree index and feature count, ordered, for row-by-row
 * comparison (gpkg_contents is metadata changesets do not carry, as in geodiff).
 */
function rowsOf(file: string): Record<string, unknown[]> {
  const db = new Database(file, { readonly: true });
  try {
    const tables = db
      .prepare(
        `SELECT name FROM sqlite_master WHERE type = 'table'
           AND (name NOT LIKE 'gpkg%' OR name = 'gpkg_ogr_contents')
           AND name NOT LIKE 'sqlite%' AND name NOT LIKE 'rtree%node' AND name NOT LIKE 'rtree%parent'
           AND name NOT LIKE 'rtree%rowid' ORDER BY name`,
      )
      .all() as { name: string }[];
    return Object.fromEntries(
      tables.map(({ name }) => [
        name,
        db
          .prepare(`SELECT * FROM "${name}" ORDER BY 1`)
          .raw(true)
          .all()
          .map((row) =>
            (row as unknown[]).map((v) => (Buffer.isBuffer(v) ? v.toString('hex') : v)),
          ),
      ]),
    );
  } finally {
    db.close();
  }
}

async function copyOf(file: string, name: string): Promise<string> {
  const target = s.file(name);
  await copyFile(file, target);
  return target;
}

describe('createChangeset and applyChangeset on GeoPackages', () => {
  it('applying the changeset of v1→v2 to v1 reproduces v2 row by row, R-tree included', async () => {
    const diff = createChangeset(v1, v2);
    const tables = readChangeset(diff);
    const trees = tables.find((t) => t.name === 'trees')!;
    const count = (op: string) => trees.changes.filter((c) => c.op === op).length;
    expect([count('insert'), count('update'), count('delete')]).toEqual([5, 4, 3]);
    // An UPDATE carries only the changed columns (plus the key in the old record).
    const renamed = trees.changes.find((c) => c.op === 'update' && c.old![0] === 1n)!;
    expect(renamed.new!.filter((v) => v !== undefined)).toEqual(['renamed']);

    const target = await copyOf(v1, 'apply.gpkg');
    applyChangeset(target, diff);
    const applied = rowsOf(target);
    const expected = rowsOf(v2);
    expect(Object.keys(applied)).toContain('rtree_trees_geom');
    expect(applied.rtree_trees_geom).toEqual(expected.rtree_trees_geom);
    expect(applied).toEqual(expected);
    // Nothing left to change.
    expect(createChangeset(target, v2)).toHaveLength(0);
  });

  it('refuses a changeset for another base and leaves the file unchanged', async () => {
    const diff = createChangeset(v1, v2);
    const target = await copyOf(v2, 'wrong-base.gpkg');
    const before = await readFile(target);
    expect(() => applyChangeset(target, diff)).toThrow(ChangesetConflictError);
    expect((await readFile(target)).equals(before)).toBe(true);
  });

  it('refuses the same changeset applied twice', async () => {
    const diff = createChangeset(v1, v2);
    const target = await copyOf(v1, 'twice.gpkg');
    applyChangeset(target, diff);
    const once = rowsOf(target);
    expect(() => applyChangeset(target, diff)).toThrow(/does not apply/);
    expect(rowsOf(target)).toEqual(once);
  });

  it('refuses an update whose old values differ, naming the row', async () => {
    const diff = createChangeset(v1, v2);
    const target = await copyOf(v1, 'edited.gpkg');
    const db = new Database(target);
    registerSpatialFunctions(db);
    db.prepare(`UPDATE trees SET name = 'changed meanwhile' WHERE fid = 1`).run();
    db.close();
    expect(() => applyChangeset(target, diff)).toThrow(/table trees, row fid=1/);
  });

  it('gives an empty changeset for identical files and refuses schema changes', async () => {
    expect(createChangeset(v1, await copyOf(v1, 'same.gpkg'))).toHaveLength(0);
    const other = await copyOf(v1, 'schema.gpkg');
    const db = new Database(other);
    db.exec('ALTER TABLE trees ADD COLUMN extra TEXT');
    db.close();
    expect(() => createChangeset(v1, other)).toThrow(CannotDiffError);
    await writeFile(s.file('junk.gpkg'), 'not sqlite at all, just text that is long enough');
    expect(() => createChangeset(v1, s.file('junk.gpkg'))).toThrow(CannotDiffError);
  });
});

/** A plain SQLite file made by running `sql`. */
async function sqliteFile(name: string, sql: string): Promise<string> {
  const target = s.file(name);
  const db = new Database(target);
  db.exec(sql);
  db.close();
  return target;
}

describe('applyChangeset on plain SQLite files', () => {
  const schema = `CREATE TABLE plots (id INTEGER PRIMARY KEY, code TEXT UNIQUE NOT NULL,
      seen DATETIME);
    CREATE TABLE audit (id INTEGER PRIMARY KEY, plot INTEGER, what TEXT);
    CREATE TRIGGER plots_audit AFTER UPDATE ON plots BEGIN
      INSERT INTO audit (plot, what) VALUES (NEW.id, 'update'); END;`;

  it('sets the file’s own triggers aside (the diff holds what they did) and keeps them', async () => {
    const base = await sqliteFile(
      'trig-base.sqlite',
      `${schema} INSERT INTO plots VALUES (1, 'a', '2024-05-04T10:00:00.5Z');`,
    );
    const modified = await copyOf(base, 'trig-mod.sqlite');
    const db = new Database(modified);
    db.exec(`UPDATE plots SET code = 'b' WHERE id = 1`);
    db.close();
    const diff = createChangeset(base, modified);
    expect(readChangeset(diff).map((t) => t.name)).toEqual(['audit', 'plots']);
    const target = await copyOf(base, 'trig-target.sqlite');
    applyChangeset(target, diff);
    expect(rowsOfPlain(target)).toEqual(rowsOfPlain(modified));
    const check = new Database(target, { readonly: true });
    const triggers = check.prepare(`SELECT name FROM sqlite_master WHERE type = 'trigger'`).all();
    check.close();
    expect(triggers).toEqual([{ name: 'plots_audit' }]);
  });

  it('applies changes a UNIQUE constraint refuses in the order given, by trying them again', async () => {
    const base = await sqliteFile(
      'swap-base.sqlite',
      `${schema} DROP TRIGGER plots_audit; INSERT INTO plots VALUES (1, 'a', NULL), (2, 'b', NULL);`,
    );
    const modified = await copyOf(base, 'swap-mod.sqlite');
    const db = new Database(modified);
    // The changeset lists the update (to 'b') before the delete that frees 'b'.
    db.exec(`DELETE FROM plots WHERE id = 2; UPDATE plots SET code = 'b' WHERE id = 1;
      INSERT INTO plots VALUES (3, 'c', NULL);`);
    db.close();
    const target = await copyOf(base, 'swap-target.sqlite');
    const diff = createChangeset(base, modified);
    expect(readChangeset(diff)[0]!.changes.map((c) => c.op)).toEqual([
      'insert',
      'update',
      'delete',
    ]);
    applyChangeset(target, diff);
    expect(rowsOfPlain(target)).toEqual(rowsOfPlain(modified));
  });

  it('matches DATETIME old values however their fractional seconds are written', async () => {
    const base = await sqliteFile(
      'dt-base.sqlite',
      `${schema} DROP TRIGGER plots_audit; INSERT INTO plots VALUES (1, 'a', '2024-05-04 10:00:00.500');`,
    );
    const target = await sqliteFile(
      'dt-target.sqlite',
      `${schema} DROP TRIGGER plots_audit; INSERT INTO plots VALUES (1, 'a', '2024-05-04 10:00:00.5');`,
    );
    const modified = await copyOf(base, 'dt-mod.sqlite');
    const db = new Database(modified);
    db.exec(`UPDATE plots SET seen = '2025-01-01 00:00:00.000' WHERE id = 1`);
    db.close();
    applyChangeset(target, createChangeset(base, modified));
    expect(rowsOfPlain(target)).toEqual(rowsOfPlain(modified));
  });
});

function rowsOfPlain(file: string): Record<string, unknown[]> {
  const db = new Database(file, { readonly: true });
  try {
    return Object.fromEntries(
      ['plots', 'audit'].map((name) => [
        name,
        db.prepare(`SELECT * FROM ${name} ORDER BY 1`).all(),
      ]),
    );
  } finally {
    db.close();
  }
}

describe('changesetEntries', () => {
  it('gives the same row-level history as comparing the two files', async () => {
    const db = new Database(v2, { readonly: true });
    const fromDiff = changesetEntries(db, readChangeset(createChangeset(v1, v2)));
    db.close();
    const compared = await diffSqliteFiles(v1, v2);
    const key = (e: unknown) => JSON.stringify(e);
    // The comparison also lists gpkg_contents, which changesets leave out.
    const layers = compared.entries.filter((e) => e.table === 'trees');
    expect(fromDiff.entries.map(key).sort()).toEqual(layers.map(key).sort());
    expect(fromDiff.summary).toEqual(compared.summary.filter((t) => t.table === 'trees'));
    expect(fromDiff.truncated).toBe(false);
  });
});

describe('spatial functions', () => {
  it('reads bounds from the envelope or, for points, from the WKB', () => {
    const db = new Database(v1, { readonly: true });
    const point = (db.prepare('SELECT geom FROM trees WHERE fid = 3').get() as { geom: Buffer })
      .geom;
    const park = (db.prepare('SELECT geom FROM trees WHERE fid = 500').get() as { geom: Buffer })
      .geom;
    db.close();
    expect(geometryBounds(point)).toMatchObject({
      empty: false,
      type: 'POINT',
      minX: 3,
      maxX: 3,
      minY: 0.5,
      maxY: 0.5,
      srsId: 4326,
    });
    expect(geometryBounds(park)).toMatchObject({ minX: 10, maxX: 14, minY: 20, maxY: 26 });
    expect(geometryBounds(Buffer.from('nope'))).toBeNull();
    expect(geometryBounds(null)).toBeNull();
  });
});
