/**
 * The row-level changes of one versioned file (GeoPackage / SQLite), in the shape of geodiff's
 * JSON changesets (api-reference A.6): the answer of GET /v1/resource/changesets/…, the rows
 * of a comparison (compare.ts) and of a conflict (conflicts.ts). lib/sqlite-diff.ts and
 * geodiff/entries.ts produce it, services/map/changes.ts reads it, and the web app shows it
 * (`import type … from '@contract/changesets'`).
 */
import { Type, type Static } from '@sinclair/typebox';
import { StringEnum } from './common';

/** How a column's values are written: geometries as WKT, blobs as base64. */
export const CHANGESET_COLUMN_TYPES = [
  'integer',
  'double',
  'text',
  'blob',
  'boolean',
  'date',
  'datetime',
  'geometry',
] as const;
export const ChangesetColumnTypeSchema = StringEnum(CHANGESET_COLUMN_TYPES);
export type ChangesetColumnType = Static<typeof ChangesetColumnTypeSchema>;

/** A cell's value: numbers, text, WKT for geometries, base64 for blobs, SQL NULL as null. */
export const ChangesetCellSchema = Type.Unsafe<number | string | null>({
  type: ['number', 'string', 'null'],
});
export type ChangesetCell = Static<typeof ChangesetCellSchema>;

export const CHANGE_TYPES = ['insert', 'update', 'delete'] as const;
export const ChangeTypeSchema = StringEnum(CHANGE_TYPES);
export type ChangeType = Static<typeof ChangeTypeSchema>;

/** One column of a changed row. */
export const ColumnChangeSchema = Type.Object({
  /** The column's position in its table (SQLite's cid). */
  column: Type.Integer(),
  name: Type.String(),
  type: ChangesetColumnTypeSchema,
  /** Value before (absent for inserts). */
  old: Type.Optional(ChangesetCellSchema),
  /** Value after (absent for deletes and for the unchanged columns of updates). */
  new: Type.Optional(ChangesetCellSchema),
});
export type ColumnChange = Static<typeof ColumnChangeSchema>;

/** A row inserted, updated or deleted. */
export const ChangesetEntrySchema = Type.Object({
  table: Type.String(),
  type: ChangeTypeSchema,
  changes: Type.Array(ColumnChangeSchema),
});
export type ChangesetEntry = Static<typeof ChangesetEntrySchema>;

/** 200 of GET /v1/resource/changesets/{namespace}/{name}/{version}?path=. */
export const ChangesetSchema = Type.Array(ChangesetEntrySchema);
export type Changeset = Static<typeof ChangesetSchema>;

/** How many rows of one table a version inserted, updated and deleted. */
export const TableChangeCountsSchema = Type.Object({
  table: Type.String(),
  insert: Type.Integer(),
  update: Type.Integer(),
  delete: Type.Integer(),
});
export type TableChangeCounts = Static<typeof TableChangeCountsSchema>;
