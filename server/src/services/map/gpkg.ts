/**
 * A GeoPackage's feature layers, read once per file content: gpkg_geometry_columns joined
 * with gpkg_contents and gpkg_spatial_ref_sys, the table's columns, its spatial index when it
 * has one (an R*Tree: GeoPackage's rtree_<table>_<column>, SpatiaLite's idx_<table>_<column>),
 * its feature count and extent.
 *
 * Identifiers in SQL are the file's own names (quoted), looked up from its metadata: a name
 * a request gives is only ever used to find one of these layers.
 */
import type Database from 'better-sqlite3';
import { columnType } from '../../lib/sqlite-diff';
import type { Extent, MapColumn, MapLayer } from '../../schemas/map';
import {
  crsCode,
  extentTo3857,
  layerTransform,
  transformExtent,
  type LayerTransform,
  type SrsRow,
} from './crs';
import { decodeGeometry, geometryExtent, headerEnvelope } from './geometry';
import { realName, sqliteLayerSources, type LayerSource } from './sqlite-layers';

/** A quoted SQL identifier. */
export const q = (name: string) => `"${name.replace(/"/g, '""')}"`;

export interface LayerColumn extends MapColumn {
  /** The declared SQL type. */
  declared: string;
}

export interface LayerInfo {
  name: string;
  title: string | null;
  geometryColumn: string;
  geometryType: string;
  fidColumn: string;
  srsId: number;
  crs: string | null;
  crsName: string | null;
  /** Layer CRS ⇄ lon/lat; null when the layer cannot be reprojected. */
  transform: LayerTransform | null;
  /** Attribute columns (not the fid, not the geometry). */
  columns: LayerColumn[];
  /** The spatial index, or null. */
  index: SpatialIndex | null;
  featureCount: number;
  extent: Extent | null;
  extent4326: Extent | null;
  extent3857: Extent | null;
}

/**
 * A layer's spatial index: an SQLite R*Tree virtual table of one box per feature, its columns
 * (named differently by GeoPackage and SpatiaLite) in the module's order: the id (the
 * feature's fid, its rowid), then min x, max x, min y, max y in the layer's CRS.
 */
export interface SpatialIndex {
  table: string;
  id: string;
  minx: string;
  maxx: string;
  miny: string;
  maxy: string;
}

/** The R*Tree named `name` (matched without case), or null when there is no such table. */
function spatialIndexOf(
  db: Database.Database,
  tables: Set<string>,
  name: string | null,
): SpatialIndex | null {
  const table = name === null ? undefined : realName(tables, name);
  if (!table) return null;
  const sql = db
    .prepare(`SELECT sql FROM sqlite_master WHERE type = 'table' AND name = ?`)
    .pluck()
    .get(table);
  // rtree, not rtree_i32 (integer boxes) nor any other module.
  if (typeof sql !== 'string' || !/\busing\s+rtree\s*\(/i.test(sql)) return null;
  const columns = db.prepare('SELECT name FROM pragma_table_info(?)').pluck().all(table);
  if (columns.length !== 5) return null;
  const [id, minx, maxx, miny, maxy] = columns as [string, string, string, string, string];
  return { table, id, minx, maxx, miny, maxy };
}

interface TableColumn {
  name: string;
  type: string;
  pk: number;
}

function tableNames(db: Database.Database): Set<string> {
  const rows = db
    .prepare(`SELECT name FROM sqlite_master WHERE type IN ('table', 'view')`)
    .all() as { name: string }[];
  return new Set(rows.map((row) => row.name));
}

/**
 * The tables that can be layers: plain tables of the main schema (not views, virtual or
 * shadow tables), by name, with whether they lack a rowid. A view can run any query, without
 * end (a recursive one); it is not offered as a layer (decision record 0111).
 */
function plainTables(db: Database.Database): Map<string, { withoutRowid: boolean }> {
  const rows = db
    .prepare(`SELECT name, wr FROM pragma_table_list WHERE schema = 'main' AND type = 'table'`)
    .all() as { name: string; wr: number }[];
  return new Map(rows.map((row) => [row.name, { withoutRowid: row.wr === 1 }]));
}

function finiteExtent(values: unknown[]): Extent | null {
  const numbers = values.map((v) => (typeof v === 'number' ? v : NaN));
  return numbers.every(Number.isFinite) ? numbers : null;
}

/** The features' extent: from the spatial index, else every geometry's header (or coordinates). */
function layerExtent(db: Database.Database, layer: LayerInfo): Extent | null {
  const index = layer.index;
  if (index) {
    const row = db
      .prepare(
        `SELECT min(${q(index.minx)}), min(${q(index.miny)}), max(${q(index.maxx)}),
                max(${q(index.maxy)}) FROM ${q(index.table)}`,
      )
      .raw()
      .get() as unknown[];
    return finiteExtent(row);
  }
  const out = [Infinity, Infinity, -Infinity, -Infinity];
  const rows = db
    .prepare(`SELECT ${q(layer.geometryColumn)} FROM ${q(layer.name)}`)
    .raw()
    .iterate() as Iterable<[unknown]>;
  for (const [blob] of rows) {
    let box = headerEnvelope(blob);
    if (!box) {
      const geometry = decodeGeometry(blob);
      box = geometry ? geometryExtent(geometry, (x, y) => [x, y]) : null;
    }
    if (!box) continue;
    out[0] = Math.min(out[0]!, box[0]!);
    out[1] = Math.min(out[1]!, box[1]!);
    out[2] = Math.max(out[2]!, box[2]!);
    out[3] = Math.max(out[3]!, box[3]!);
  }
  return finiteExtent(out);
}

/** An attribute's kind (another geometry column is shown as a blob). */
function attributeType(declared: string): MapColumn['type'] {
  const kind = columnType(declared, false);
  return kind === 'geometry' ? 'blob' : kind;
}

/** The feature layers of a GeoPackage's metadata (gpkg_geometry_columns, gpkg_contents). */
function geoPackageSources(db: Database.Database, tables: Set<string>): LayerSource[] {
  const hasContents = tables.has('gpkg_contents');
  const hasSrs = tables.has('gpkg_spatial_ref_sys');
  const rows = db
    .prepare(
      `SELECT g.table_name AS name, g.column_name AS geom, g.geometry_type_name AS type,
              g.srs_id AS srs, ${hasContents ? 'c.identifier' : 'NULL'} AS title
         FROM gpkg_geometry_columns g
         ${hasContents ? 'LEFT JOIN gpkg_contents c ON c.table_name = g.table_name' : ''}
        ORDER BY g.table_name`,
    )
    .all() as { name: string; geom: string; type: string; srs: number; title: unknown }[];
  const srsOf = (id: number): SrsRow | undefined =>
    hasSrs
      ? (db
          .prepare(
            `SELECT srs_id, srs_name, organization, organization_coordsys_id, definition
               FROM gpkg_spatial_ref_sys WHERE srs_id = ?`,
          )
          .get(id) as SrsRow | undefined)
      : undefined;
  return rows.map((row) => ({
    name: String(row.name),
    geometryColumn: String(row.geom),
    geometryType: String(row.type).toUpperCase(),
    srsId: Number(row.srs),
    srs: srsOf(Number(row.srs)),
    title: typeof row.title === 'string' && row.title !== '' ? row.title : null,
    indexTable: `rtree_${String(row.name)}_${String(row.geom)}`,
  }));
}

/**
 * The feature layers of an open GeoPackage, or of a SQLite file's geometry tables
 * (sqlite-layers.ts: SpatiaLite, GDAL); none for a SQLite file without either.
 */
export function readLayers(db: Database.Database): LayerInfo[] {
  const tables = tableNames(db);
  const plain = plainTables(db);
  const sources = tables.has('gpkg_geometry_columns')
    ? geoPackageSources(db, tables)
    : sqliteLayerSources(db, tables);
  const layers: LayerInfo[] = [];
  for (const source of sources) {
    const { name, srsId, srs } = source;
    // A layer is its table: a second geometry column of a table is left out.
    const table = plain.get(name);
    if (!table || layers.some((layer) => layer.name === name)) continue;
    const columns = db
      .prepare('SELECT name, type, pk FROM pragma_table_info(?)')
      .all(name) as TableColumn[];
    const geometryColumn = columns.find(
      (c) => c.name.toLowerCase() === source.geometryColumn.toLowerCase(),
    );
    if (!geometryColumn) continue;
    const keys = columns.filter((c) => c.pk > 0);
    const fid =
      keys.length === 1 && keys[0]!.type.toUpperCase() === 'INTEGER' ? keys[0]!.name : 'rowid';
    // Without a rowid and an integer key, its features could not be named.
    if (fid === 'rowid' && table.withoutRowid) continue;
    const layer: LayerInfo = {
      name,
      title: source.title,
      geometryColumn: geometryColumn.name,
      geometryType: source.geometryType,
      fidColumn: fid,
      srsId,
      crs: crsCode(srs),
      crsName: srs?.srs_name ?? null,
      transform: layerTransform(srsId, srs),
      columns: columns
        .filter((c) => c !== geometryColumn && c.name !== fid)
        .map((c) => ({ name: c.name, declared: c.type, type: attributeType(c.type) })),
      index: spatialIndexOf(db, tables, source.indexTable),
      featureCount: 0,
      extent: null,
      extent4326: null,
      extent3857: null,
    };
    const count = db.prepare(`SELECT count(*) AS n FROM ${q(name)}`).get() as { n: number };
    layer.featureCount = Number(count.n);
    layer.extent = layerExtent(db, layer);
    if (layer.extent && layer.transform) {
      layer.extent4326 = transformExtent(layer.extent, layer.transform.toLonLat);
      layer.extent3857 = layer.extent4326 && extentTo3857(layer.extent4326);
    }
    layers.push(layer);
  }
  return layers;
}

/** A layer as the contract shows it. */
export function layerView(layer: LayerInfo): MapLayer {
  return {
    name: layer.name,
    title: layer.title,
    geometry_column: layer.geometryColumn,
    geometry_type: layer.geometryType,
    fid_column: layer.fidColumn,
    srs_id: layer.srsId,
    crs: layer.crs,
    crs_name: layer.crsName,
    drawable: layer.transform !== null,
    feature_count: layer.featureCount,
    extent: layer.extent,
    extent_4326: layer.extent4326,
    extent_3857: layer.extent3857,
    columns: layer.columns.map(({ name, type }) => ({ name, type })),
  };
}
