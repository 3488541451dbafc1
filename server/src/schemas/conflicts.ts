/**
 * Time travel (issue 20): the conflict files the desktop and mobile clients leave in a
 * project, and resolving them. Listing and reading need read access; resolving needs
 * `upload` (writers and above; a reader gets 403) and makes an ordinary new version through
 * the push core (see restore.ts).
 *
 * The clients' names (the Mergin Maps python client, utils.py):
 * - conflicted copy: `<name> (conflicted copy, <user> v<N>)<ext>` where `<ext>` is every
 *   suffix of the original (`a.tar.gz` → `.tar.gz`), with `~` appended for QGIS project
 *   files (`p (conflicted copy, ann v3).qgz~` copies `p.qgz`);
 * - edit conflict: `<name> (edit conflict, <user> v<N>).json` (the original's suffixes are
 *   lost: its original is the GeoPackage / SQLite file `<name>.*` of the same folder),
 *   holding geodiff's rebase conflicts `{"geodiff": [{"table", "type": "conflict", "fid",
 *   "changes": [{"column", "base", "old", "new"}]}]}` where `old` is theirs (the value the
 *   server had, overwritten by the rebase) and `new` ours (the value that was kept).
 *
 * - `GET /app/project/conflicts/{namespace}/{name}` → `ConflictList` (every current file
 *   whose name has one of these forms).
 * - `GET /app/project/conflicts/{namespace}/{name}/edit?path=…` → `EditConflict`: the parsed
 *   edit-conflict file, one row per field with base / ours / theirs and the column's name
 *   (read from the original GeoPackage). 400: not an edit-conflict file or not readable
 *   JSON of that form; 404: not a current file.
 * - `GET /app/project/conflicts/{namespace}/{name}/rows?path=…&page=1&per_page=100`
 *   → `ConflictRows`: for a conflicted copy of a GeoPackage / SQLite file, the rows that
 *   differ between the original (`old` values) and the copy (`new` values), i.e. what 'Keep
 *   this copy' would change, paged as compare's rows (compare.ts). A copy whose original is
 *   gone compares against an empty table set (all inserts). `status: 'error'` when the rows
 *   cannot be compared. 400: not a conflicted copy, or not a GeoPackage / SQLite file;
 *   404: not a current file.
 * - `POST /app/project/conflicts/{namespace}/{name}/resolve`, body `ResolveConflictBody`
 *   → 201 `NewVersion` (restore.ts):
 *   - `keep` a conflicted copy: the original gets the copy's bytes (added if it is gone), the
 *     copy is removed ('Keep this copy');
 *   - `keep` an edit conflict: theirs is written back into the original GeoPackage for every
 *     field that still holds ours (a diff update), and the JSON file is removed;
 *   - `discard`: the conflict file is removed ('Discard copy').
 *   400: not a conflict file (or an edit conflict whose original is gone for `keep`);
 *   404: not a current file; 409/422/423 as for a restore.
 */
import { Type, type Static } from '@sinclair/typebox';
import { NullableString, StringEnum } from './common';
import { ChangesetCellSchema } from './changesets';
import { ProjectPathParamSchema, rowsPageAnswerFields, rowsPageFields } from './compare';

export const ConflictKindSchema = StringEnum(['conflicted_copy', 'edit_conflict']);
export type ConflictKind = Static<typeof ConflictKindSchema>;

export const ConflictFileSchema = Type.Object({
  /** The conflict file. */
  path: Type.String(),
  kind: ConflictKindSchema,
  /** The file it refers to (for an edit conflict: the current GeoPackage it names, else null). */
  original: NullableString(),
  /** Whether `original` is a current file of the project. */
  original_exists: Type.Boolean(),
  /** The user named in the file name. */
  user: Type.String(),
  /** The version named in the file name (`vN`). */
  version: Type.String(),
  size: Type.Integer(),
  checksum: Type.String(),
});
export type ConflictFile = Static<typeof ConflictFileSchema>;

/** GET /app/project/conflicts/{namespace}/{name}. */
export const ConflictListSchema = Type.Object({
  conflicts: Type.Array(ConflictFileSchema),
});
export type ConflictList = Static<typeof ConflictListSchema>;

export const ConflictPathQuerySchema = Type.Object({
  path: ProjectPathParamSchema,
});
export type ConflictPathQuery = Static<typeof ConflictPathQuerySchema>;

/** One conflicting field of one feature. */
export const EditConflictFieldSchema = Type.Object({
  table: Type.String(),
  /** The feature's primary key (geodiff's `fid`). */
  fid: Type.String(),
  column: Type.Integer(),
  /** The column's name in the original (null when the original is gone or has no such column). */
  name: NullableString(),
  base: ChangesetCellSchema,
  /** The value kept in the file (geodiff's `new`). */
  ours: ChangesetCellSchema,
  /** The value the rebase overwrote (geodiff's `old`). */
  theirs: ChangesetCellSchema,
});
export type EditConflictField = Static<typeof EditConflictFieldSchema>;

/** GET /app/project/conflicts/{namespace}/{name}/edit?path=. */
export const EditConflictSchema = Type.Object({
  path: Type.String(),
  original: NullableString(),
  original_exists: Type.Boolean(),
  user: Type.String(),
  version: Type.String(),
  fields: Type.Array(EditConflictFieldSchema),
});
export type EditConflict = Static<typeof EditConflictSchema>;

export const ResolveConflictBodySchema = Type.Object({
  path: ProjectPathParamSchema,
  action: StringEnum(['keep', 'discard']),
});
export type ResolveConflictBody = Static<typeof ResolveConflictBodySchema>;

export const ConflictRowsQuerySchema = Type.Object({
  path: ProjectPathParamSchema,
  ...rowsPageFields,
});
export type ConflictRowsQuery = Static<typeof ConflictRowsQuerySchema>;

/** GET /app/project/conflicts/{namespace}/{name}/rows?path=. */
export const ConflictRowsSchema = Type.Object({
  /** The conflicted copy (the `new` side). */
  path: Type.String(),
  /** The file it copies (the `old` side; null values when it is gone). */
  original: Type.String(),
  original_exists: Type.Boolean(),
  ...rowsPageAnswerFields,
});
export type ConflictRows = Static<typeof ConflictRowsSchema>;
