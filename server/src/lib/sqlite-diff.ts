/**
 * Row-level differences between two versions of a GeoPackage / SQLite file, in the shape of
 * geodiff's JSON changesets (api-reference A.6).
 *
 * Both files are attached read-only to one in-memory SQLite connection (better-sqlite3) and
 * compared per table by primary key with three SQL statements (rows only in the new file,
 * rows only in the old one, rows whose columns differ): SQLite streams through both tables in
 * its own code and hands JavaScript only the changed rows, so a 100,000-row table with a few
 * changes costs about as much as reading it once, and memory stays flat.
 *
 * Compared: every table except SQLite's own, GeoPackage metadata (gpkg_*, but gpkg_contents
 * is compared like geodiff does) and spatial index tables (rtree_*). Nothing is compared
 * (ChangesImpossibleError) when a compared table has no primary key and its rows differ, when
 * a table was added or removed or its columns, types or primary key changed, or when a file
 * is not a readable SQLite database.
 */
import Database from 'better-sqlite3';
import type {
  ChangesetCell,
  ChangesetColumnType,
  ChangesetEntry,
  ColumnChange,
  TableChangeCounts,
} from '../schemas/changesets';
import { changesImpossible } from '../schemas/protocol';
import { geoPackageGeometryToWkt } from './gpkg-geometry';
import { listTables, quote as q, sameColumns, type TableInfo as Table } from './sqlite-tables';

/** Why the changes of a file cannot be calculated. */
export class ChangesImpossibleError extends Error {
  constructor(readonly reason: string) {
    super(changesImpossible(reason));
    this.name = 'ChangesImpossibleError';
  }
}

export const noPrimaryKey = (table: string) => `no primary key in table ${table}`;
export const schemaChanged = (table: string) => `schema changed in table ${table}`;
export const FILE_UNREADABLE = 'file unreadable';

export interface SqliteDiff {
  /** Tables with changes, by name. */
  summary: TableChangeCounts[];
  /** The changed rows (at most `maxEntries`). */
  entries: ChangesetEntry[];
  /** More rows changed than `maxEntries`. */
  truncated: boolean;
}

export interface DiffOptions {
  /** Most entries kept (the summary still counts every row). Default 100,000. */
  maxEntries?: number;
  /** Called every few thousand rows, so a caller can let other work run. */
  onProgress?: () => Promise<void>;
}

const GEOMETRY_TYPES = new Set([
  'GEOMETRY',
  'POINT',
  'LINESTRING',
  'POLYGON',
  'MULTIPOINT',
  'MULTILINESTRING',
  'MULTIPOLYGON',
  'GEOMETRYCOLLECTION',
  'CIRCULARSTRING',
  'COMPOUNDCURVE',
  'CURVEPOLYGON',
  'MULTICURVE',
  'MULTISURFACE',
  'CURVE',
  'SURFACE',
]);

export function columnType(declared: string, geometry: boolean): ChangesetColumnType {
  const t = declared.toUpperCase();
  if (geometry || GEOMETRY_TYPES.has(t)) return 'geometry';
  if (t.includes('BOOL')) return 'boolean';
  if (t.includes('INT')) return 'integer';
  if (t.includes('DATETIME') || t.includes('TIMESTAMP')) return 'datetime';
  if (t.includes('DATE')) return 'date';
  if (t.includes('CHAR') || t.includes('CLOB') || t.includes('TEXT')) return 'text';
  if (t === '' || t.includes('BLOB')) return 'blob';
  return 'double';
}

/** Tables compared (see the module comment). */
function isCompared(name: string): boolean {
  const lower = name.toLowerCase();
  if (lower === 'gpkg_contents') return true;
  return !/^(sqlite_|gpkg_|rtree_)/.test(lower);
}

function listCompared(db: Database.Database, schema: 'o' | 'n'): Map<string, Table> {
  return listTables(db, schema, isCompared);
}

function geometryColumns(db: Database.Database): Map<string, string> {
  const found = new Map<string, string>();
  const exists = db
    .prepare(
      `SELECT 1 FROM n.sqlite_master WHERE type = 'table' AND name = 'gpkg_geometry_columns'`,
    )
    .get();
  if (!exists) return found;
  const rows = db.prepare('SELECT table_name, column_name FROM n.gpkg_geometry_columns').all() as {
    table_name: string;
    column_name: string;
  }[];
  for (const row of rows) {
    found.set(String(row.table_name).toLowerCase(), String(row.column_name).toLowerCase());
  }
  return found;
}

const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);

export function cell(value: unknown, type: ChangesetColumnType): ChangesetCell {
  if (value === null || value === undefined) return null;
  if (typeof value === 'bigint') {
    return value <= MAX_SAFE && value >= -MAX_SAFE ? Number(value) : value.toString();
  }
  if (typeof value === 'number' || typeof value === 'string') return value;
  if (Buffer.isBuffer(value) || value instanceof Uint8Array) {
    const bytes = value as Uint8Array;
    if (type === 'geometry') {
      try {
        return geoPackageGeometryToWkt(bytes);
      } catch {
        // Left as base64 when it cannot be decoded (as the reference does).
      }
    }
    return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64');
  }
  return String(value);
}

const PROGRESS_EVERY = 5000;

/**
 * Compares `oldFile` with `newFile` (paths of SQLite files on disk, opened read-only).
 * Throws ChangesImpossibleError when the changes cannot be calculated.
 */
export async function diffSqliteFiles(
  oldFile: string,
  newFile: string,
  options: DiffOptions = {},
): Promise<SqliteDiff> {
  const maxEntries = options.maxEntries ?? 100_000;
  let db: Database.Database;
  try {
    db = new Database(':memory:');
  } catch (error) {
    throw new Error('SQLite could not be opened', { cause: error });
  }
  try {
    let tables: { old: Map<string, Table>; new: Map<string, Table> };
    let geometry: Map<string, string>;
    try {
      db.pragma('trusted_schema = OFF');
      db.prepare('ATTACH DATABASE ? AS o').run(oldFile);
      db.prepare('ATTACH DATABASE ? AS n').run(newFile);
      db.pragma('query_only = ON');
      tables = { old: listCompared(db, 'o'), new: listCompared(db, 'n') };
      geometry = geometryColumns(db);
    } catch (error) {
      if (error instanceof Database.SqliteError) throw new ChangesImpossibleError(FILE_UNREADABLE);
      throw error;
    }

    // Schema first: any difference means nothing is compared.
    const names = [...new Set([...tables.old.keys(), ...tables.new.keys()])].sort();
    for (const key of names) {
      const before = tables.old.get(key);
      const after = tables.new.get(key);
      if (!before || !after)
        throw new ChangesImpossibleError(schemaChanged((after ?? before)!.name));
      if (!sameColumns(before, after)) throw new ChangesImpossibleError(schemaChanged(after.name));
    }

    const summary: TableChangeCounts[] = [];
    const entries: ChangesetEntry[] = [];
    let truncated = false;
    let sinceProgress = 0;
    const tick = async () => {
      if (++sinceProgress >= PROGRESS_EVERY) {
        sinceProgress = 0;
        await options.onProgress?.();
      }
    };

    try {
      for (const key of names) {
        const table = tables.new.get(key)!;
        const t = q(table.name);
        const geometryColumn = geometry.get(key);
        const types = table.columns.map((c) =>
          columnType(c.declared, c.name.toLowerCase() === geometryColumn),
        );
        const pk = table.columns.filter((c) => c.pk > 0).sort((a, b) => a.pk - b.pk);
        if (pk.length === 0) {
          const same = db
            .prepare(
              `SELECT (SELECT count(*) FROM o.${t}) = (SELECT count(*) FROM n.${t})
                 AND NOT EXISTS (SELECT * FROM o.${t} EXCEPT SELECT * FROM n.${t})
                 AND NOT EXISTS (SELECT * FROM n.${t} EXCEPT SELECT * FROM o.${t}) AS same`,
            )
            .get() as { same: number };
          if (same.same) continue;
          throw new ChangesImpossibleError(noPrimaryKey(table.name));
        }
        const join = pk.map((c) => `a.${q(c.name)} = b.${q(c.name)}`).join(' AND ');
        const order = (alias: string) => pk.map((c) => `${alias}.${q(c.name)}`).join(', ');
        const counts: TableChangeCounts = { table: table.name, insert: 0, update: 0, delete: 0 };
        const keep = (): boolean => {
          if (entries.length < maxEntries) return true;
          truncated = true;
          return false;
        };
        /** Whole rows only on one side: inserts (new side) or deletes (old side). */
        const wholeRows = async (type: 'insert' | 'delete') => {
          const [side, other, alias] = type === 'insert' ? ['n', 'o', 'b'] : ['o', 'n', 'a'];
          const otherAlias = alias === 'a' ? 'b' : 'a';
          const stmt = db
            .prepare(
              `SELECT ${alias}.* FROM ${side}.${t} AS ${alias} WHERE NOT EXISTS
                 (SELECT 1 FROM ${other}.${t} AS ${otherAlias} WHERE ${join})
               ORDER BY ${order(alias)}`,
            )
            .raw(true)
            .safeIntegers(true);
          const key = type === 'insert' ? 'new' : 'old';
          for (const row of stmt.iterate() as Iterable<unknown[]>) {
            counts[type]++;
            if (keep()) {
              entries.push({
                table: table.name,
                type,
                changes: table.columns.map((c, i) => ({
                  column: c.cid,
                  name: c.name,
                  type: types[i]!,
                  [key]: cell(row[i], types[i]!),
                })),
              });
            }
            await tick();
          }
        };

        await wholeRows('insert');

        const others = table.columns.filter((c) => c.pk === 0);
        if (others.length > 0) {
          const select = table.columns.map((c) => `a.${q(c.name)}, b.${q(c.name)}`).join(', ');
          const differs = others.map((c) => `a.${q(c.name)} IS NOT b.${q(c.name)}`).join(' OR ');
          const updates = db
            .prepare(
              `SELECT ${select} FROM n.${t} AS b JOIN o.${t} AS a ON ${join}
               WHERE ${differs} ORDER BY ${order('b')}`,
            )
            .raw(true)
            .safeIntegers(true);
          for (const row of updates.iterate() as Iterable<unknown[]>) {
            counts.update++;
            if (keep()) {
              const changes: ColumnChange[] = [];
              table.columns.forEach((c, i) => {
                const type = types[i]!;
                const before = row[2 * i];
                const after = row[2 * i + 1];
                if (c.pk > 0) {
                  changes.push({ column: c.cid, name: c.name, type, old: cell(before, type) });
                } else if (!sameValue(before, after)) {
                  changes.push({
                    column: c.cid,
                    name: c.name,
                    type,
                    old: cell(before, type),
                    new: cell(after, type),
                  });
                }
              });
              entries.push({ table: table.name, type: 'update', changes });
            }
            await tick();
          }
        }

        await wholeRows('delete');

        if (counts.insert + counts.update + counts.delete > 0) summary.push(counts);
      }
    } catch (error) {
      if (error instanceof Database.SqliteError) throw new ChangesImpossibleError(FILE_UNREADABLE);
      throw error;
    }
    return { summary, entries, truncated };
  } finally {
    db.close();
  }
}

/** SQLite's `IS` for two values read from it (same type and same value). */
function sameValue(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (a === null || b === null || a === undefined || b === undefined) return false;
  if (Buffer.isBuffer(a) && Buffer.isBuffer(b)) return a.equals(b);
  // An integer and a real that SQLite compares equal (1 and 1.0).
  if (typeof a === 'bigint' && typeof b === 'number') return Number(a) === b;
  if (typeof a === 'number' && typeof b === 'bigint') return a === Number(b);
  return false;
}
