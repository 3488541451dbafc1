/**
 * Which tables of a SQLite / GeoPackage file changesets cover, and their columns, as geodiff
 * decides: every table except GeoPackage metadata (gpkg_*), spatial index tables (rtree_*),
 * SQLite's own (sqlite_*) and virtual tables. The R-tree indexes and feature counts follow
 * the layers through the GeoPackage triggers.
 */
import type Database from 'better-sqlite3';
import { listTables, type TableInfo } from '../lib/sqlite-tables';

export { quote, sameColumns, type Column, type TableInfo } from '../lib/sqlite-tables';

export function isCovered(name: string): boolean {
  return !/^(sqlite_|gpkg_|rtree_)/i.test(name);
}

/** The covered tables of `schema` ('main' or an attached name), by lower-case name. */
export function coveredTables(db: Database.Database, schema = 'main'): Map<string, TableInfo> {
  return listTables(db, schema, isCovered);
}
