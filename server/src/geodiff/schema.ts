/**
 * Which tables of a SQLite / GeoPackage file changesets cover, and their columns, as geodiff
 * decides: every table except GeoPackage metadata (gpkg_*), spatial index tables (rtree_*),
 * SQLite's own (sqlite_*) and virtual tables. The R-tree indexes and feature counts follow
 * the layers through the GeoPackage triggers.
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

export function isCovered(name: string): boolean {
  return !/^(sqlite_|gpkg_|rtree_)/i.test(name);
}

export const quote = (name: string) => `"${name.replace(/"/g, '""')}"`;

/** The covered tables of `schema` ('main' or an attached name), by lower-case name. */
export function coveredTables(db: Database.Database, schema = 'main'): Map<string, TableInfo> {
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
    if (!isCovered(row.name)) continue;
    if (/^\s*create\s+virtual\s+table/i.test(row.sql ?? '')) continue;
    tables.set(row.name.toLowerCase(), {
      name: row.name,
      columns: info.all(row.name, schema) as Column[],
    });
  }
  return tables;
}

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
