/**
 * Time travel (issue 20): comparing any two versions of a project. Read access (as the
 * history: anonymous on a public project), so readers may compare.
 *
 * - `GET /app/project/compare/{namespace}/{name}?from=vA&to=vB` → `Comparison`: the files
 *   added, updated and removed going from `from` to `to` (either order: swapping them swaps
 *   added/removed and each file's sides). A file counts as updated when its bytes differ
 *   (SHA-1); `versioned` marks .gpkg/.sqlite files whose rows can be compared.
 *   400: a version not `vN`; 404: no such version.
 * - `GET /app/project/compare/{namespace}/{name}/rows?from=vA&to=vB&path=…&page=1&per_page=100`
 *   → `CompareRows`: the net row-level changes of one versioned file between the two
 *   versions (a row edited in several versions appears once, from its value in `from` to
 *   its value in `to`; a row inserted and deleted in between does not appear). A file
 *   present on one side only compares against an empty table set: all inserts or all
 *   deletes. `summary` counts every changed row; `entries` is the page asked for (tables by
 *   name; in each, inserts, updates, then deletes); `count` the number of entries in all
 *   pages (at most 50,000 are kept; `summary` still counts all).
 *   `status: 'error'` (with `error`) when the rows cannot be compared (a table's columns
 *   changed, no primary key, not a readable SQLite file): the file still compares as bytes.
 *   400: bad versions, page or a path that is not a versioned file; 404: the file is in
 *   neither version.
 */
import { Type, type Static } from '@sinclair/typebox';
import { ChangesetSchema, TableChangeCountsSchema } from './changesets';
import { NullableObject, NullableString, StringEnum, VersionNameSchema } from './common';

export const CompareQuerySchema = Type.Object({
  from: VersionNameSchema,
  to: VersionNameSchema,
});
export type CompareQuery = Static<typeof CompareQuerySchema>;

/** A file as one side of the comparison holds it. */
export const CompareFileSideSchema = Type.Object({
  /** The version that last changed the file (`vK`, K ≤ the side's version). */
  version: Type.String(),
  size: Type.Integer(),
  checksum: Type.String(),
});
export type CompareFileSide = Static<typeof CompareFileSideSchema>;

export const CompareFileSchema = Type.Object({
  path: Type.String(),
  change: StringEnum(['added', 'updated', 'removed']),
  /** A GeoPackage / SQLite file: its rows can be compared (…/rows). */
  versioned: Type.Boolean(),
  /** The file in `from` (null: added). */
  from: NullableObject(CompareFileSideSchema),
  /** The file in `to` (null: removed). */
  to: NullableObject(CompareFileSideSchema),
});
export type CompareFile = Static<typeof CompareFileSchema>;

/** GET /app/project/compare/{namespace}/{name}. */
export const ComparisonSchema = Type.Object({
  from: Type.String(),
  to: Type.String(),
  /** Changed files by path (unchanged files are left out). */
  files: Type.Array(CompareFileSchema),
});
export type Comparison = Static<typeof ComparisonSchema>;

export const COMPARE_ROWS_MAX_PER_PAGE = 500;

/** A project file's path as a query param (compare rows, conflicts). */
export const ProjectPathParamSchema = Type.String({ minLength: 1, maxLength: 1024 });

/** `page` and `per_page` of row listings (compare rows, conflict rows). */
export const rowsPageFields = {
  page: Type.Optional(Type.Integer({ minimum: 1, default: 1 })),
  per_page: Type.Optional(
    Type.Integer({ minimum: 1, maximum: COMPARE_ROWS_MAX_PER_PAGE, default: 100 }),
  ),
};

export const CompareRowsQuerySchema = Type.Object({
  from: VersionNameSchema,
  to: VersionNameSchema,
  path: ProjectPathParamSchema,
  ...rowsPageFields,
});
export type CompareRowsQuery = Static<typeof CompareRowsQuerySchema>;

/** The keys of a page of changed rows (compared versions, a conflicted copy's rows). */
export const rowsPageAnswerFields = {
  status: StringEnum(['done', 'error']),
  /** Why the rows cannot be compared (status error). */
  error: NullableString(),
  summary: Type.Array(TableChangeCountsSchema),
  /** Entries in all pages. */
  count: Type.Integer(),
  page: Type.Integer(),
  per_page: Type.Integer(),
  entries: ChangesetSchema,
};

/** GET /app/project/compare/{namespace}/{name}/rows. */
export const CompareRowsSchema = Type.Object({
  path: Type.String(),
  from: Type.String(),
  to: Type.String(),
  ...rowsPageAnswerFields,
});
export type CompareRows = Static<typeof CompareRowsSchema>;
