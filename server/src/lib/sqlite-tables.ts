/**
 * The tables of a SQLite / GeoPackage file and their columns, as both comparisons read them:
 * the row-level diff (sqlite-diff.ts) and geodiff's changesets (geodiff/schema.ts). Each
 * passes which tables it covers; what a table is, and when two are alike, is said here once.
 */
import type Database from 'better-sqlite3';

export interface Column {
  cid: number;
  name: string;
  declared: string;
  /** 1-based position in the primary key, 0 when not part of it. */
  pk: number;
}

export interface TableInfo {
  name: string;
  columns: Column[];
}

/** An SQL identifier, quoted. */
export const quote = (name: string) => `"${name.replace(/"/g, '""')}"`;

/**
 * The ordinary tables of `schema` ('main' or an attached name) that `include` keeps, by
 * lower-case name, with their columns in order. Virtual tables are never listed.
 */
export function listTables(
  db: Database.Database,
  schema: string,
  include: (name: string) => boolean,
): Map<string, TableInfo> {
  const rows = db
    .prepare(
      `SELECT name, sql FROM ${quote(schema)}.sqlite_master WHERE type = 'table' ORDER BY name`,
    )
    .all() as { name: string; sql: string | null }[];
  const info = db.prepare(
    'SELECT cid, name, type AS declared, pk FROM pragma_table_info(?, ?) ORDER BY cid',
  );
  const tables = new Map<string, TableInfo>();
  for (const row of rows) {
    if (!include(row.name)) continue;
    if (/^\s*create\s+virtual\s+table/i.test(row.sql ?? '')) continue;
    tables.set(row.name.toLowerCase(), {
      name: row.name,
      columns: info.all(row.name, schema) as Column[],
    });
  }
  return tables;
}

/** Whether two tables have the same columns: names, declared types and primary key, in order. */
export function sameColumns(a: TableInfo, b: TableInfo): boolean {
  if (a.columns.length !== b.columns.length) return false;
  return a.columns.every((col, i) => {
    const other = b.columns[i]!;
    return (
      col.name.toLowerCase() === other.name.toLowerCase() &&
      col.declared.toUpperCase() === other.declared.toUpperCase() &&
      col.pk === other.pk
    );
  });
}
