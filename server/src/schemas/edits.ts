/**
 * Field edits (issue 34): feature changes made in the browser, sent as one batch that
 * becomes one new project version. Signed in, with upload rights to the project (writers
 * and above), as pushes.
 *
 * - POST /v2/projects/{id}/edits, body EditBatch → 201 EditResult
 *     Header `Mm-push-id` (a UUID, protocol.ts PUSH_ID_HEADER): a retry with the same id
 *     answers the first request's answer and makes no second version. Send it always.
 *
 *     The server applies the row changes onto the LATEST version of each GeoPackage and
 *     makes one version whose file change carries its changeset (a geodiff diff, as the
 *     desktop plugin pushes it: pulled as a diff, listed by the changeset view). When the
 *     project moved on since `base_version`, the changes are rebased as geodiff's rebase
 *     does (docs/decisions/0112-forms-and-edits.md):
 *       - a field changed on both sides: ours (the batch's value) wins; conflict recorded;
 *       - a field changed to the same value on both sides: nothing to do, no conflict;
 *       - an update of a feature deleted meanwhile: dropped (the delete wins); conflict;
 *       - a delete of a feature deleted meanwhile: dropped; a delete of a feature changed
 *         meanwhile: deleted;
 *       - an insert whose fid is taken: the next free fid (`fids` maps it back).
 *     Conflicts are written, in the same version, as the desktop plugin's edit-conflict file
 *     `<gpkg stem> (edit conflict, <username> v<N>).json` beside the GeoPackage (N = the
 *     version the batch was rebased onto), which the conflicts inbox lists.
 *
 *     Photos are uploaded first as v2 chunks (POST /v2/projects/{id}/chunks, raw bytes of at
 *     most 10 MiB each; answer `{id}`) and listed in `photos` with their chunk ids, as a v2
 *     push lists files. A photo whose path holds the same bytes already is skipped.
 *
 *     200 (same EditResult, `version` = the latest) when nothing is left to change (every
 *         change already held, no photo new): no version is made.
 *     400 malformed batch, no changes and no photos, unknown layer or fid, a value the column cannot hold, a
 *         geometry that is not GeoJSON of the layer's kind;
 *     403 no upload right; 404 no project, base version or file;
 *     409 another upload is running (AnotherUploadRunning): retry later;
 *     422 `EditRefused` with `code`: `UnknownColumn` (a column the layer no longer has,
 *         the client keeps the change), `ReadOnlyLayer`, `NotNull` (a required value
 *         missing), `PhotoChunks` (a photo's chunks are missing or do not make it),
 *         `StorageLimitHit` (the workspace's allowance), `TooComplex` (the file cannot be
 *         edited within the server's limits);
 *     423 project locked.
 */
import { Type, type Static } from '@sinclair/typebox';
import { NullableString, StringEnum, VersionNameSchema } from './common';
import { GeoJsonGeometrySchema, MAX_LAYER_NAME, MapValueSchema, type GeoJsonGeometry } from './map';
import type { MapValue } from './map';

/** Most changes in one batch. */
export const MAX_EDIT_CHANGES = 5000;
/** Most photos in one batch. */
export const MAX_EDIT_PHOTOS = 200;
/** Body limit of the edits call (bytes). */
export const EDITS_BODY_LIMIT = 32 * 1024 * 1024;

export const EDIT_OPS = ['insert', 'update', 'delete'] as const;
export type EditOp = (typeof EDIT_OPS)[number];

/** Column → value, as the map's attribute rows give them (MapValue). */
export const EditValuesSchema = Type.Unsafe<Record<string, MapValue>>({
  type: 'object',
  additionalProperties: {
    anyOf: [{ type: 'string' }, { type: 'number' }, { type: 'boolean' }, { type: 'null' }],
  },
  maxProperties: 2000,
});

export const EditChangeSchema = Type.Object({
  /** The client's own id of the change (echoed in answers). */
  id: Type.Optional(Type.String({ maxLength: 100 })),
  /** The GeoPackage (project path), as in FormLayer.file. */
  file: Type.String({ minLength: 1, maxLength: 1024 }),
  /** The table, as in FormLayer.table. */
  layer: Type.String({ minLength: 1, maxLength: MAX_LAYER_NAME }),
  op: StringEnum(EDIT_OPS),
  /**
   * update / delete: the feature. insert: a client-made id; negative (temporary, the
   * server picks the fid) or a proposed fid (kept when free). Several changes of one
   * batch may name the same inserted fid: they apply in order (e.g. insert then update).
   */
  fid: Type.Integer({ minimum: -(2 ** 53 - 1), maximum: 2 ** 53 - 1 }),
  /**
   * insert: the columns to set (others: NULL / the column's SQL default);
   * update: the changed columns only. Booleans are stored as 1 / 0; DATE columns take
   * `YYYY-MM-DD`, DATETIME columns an ISO 8601 date-time (stored in UTC, `…T…Z`).
   */
  values: Type.Optional(EditValuesSchema),
  /**
   * update: what the client saw in the changed columns before its change (optional):
   * the base of the three-way comparison for those columns instead of `base_version`'s
   * row, for a row the device read at a later version.
   */
  old: Type.Optional(EditValuesSchema),
  /**
   * insert / update: the geometry as GeoJSON in EPSG:4326 (lon, lat), reprojected by the
   * server to the layer's CRS; null: no geometry; absent on update: unchanged.
   */
  geometry: Type.Optional(
    Type.Unsafe<GeoJsonGeometry | null>({ type: ['object', 'null'], additionalProperties: true }),
  ),
});
export type EditChange = Static<typeof EditChangeSchema>;

/** A photo uploaded as v2 chunks. */
export const EditPhotoSchema = Type.Object({
  /** Project path (e.g. `photos/IMG_0001.jpg`, as the form's photo widget `directory` says). */
  path: Type.String({ minLength: 1, maxLength: 1024 }),
  size: Type.Integer({ minimum: 1 }),
  /** SHA-1 hex of the bytes. */
  checksum: Type.String({ pattern: '^[0-9a-fA-F]{40}$' }),
  /** The ids POST /v2/projects/{id}/chunks answered, in order (10 MiB each, the last less). */
  chunks: Type.Array(Type.String({ minLength: 1, maxLength: 256 }), { maxItems: 1000 }),
});
export type EditPhoto = Static<typeof EditPhotoSchema>;

/** Body of POST /v2/projects/{id}/edits. */
export const EditBatchSchema = Type.Object({
  /** The version whose data the changes were made on (`vN`). */
  base_version: VersionNameSchema,
  changes: Type.Array(EditChangeSchema, { maxItems: MAX_EDIT_CHANGES }),
  photos: Type.Optional(Type.Array(EditPhotoSchema, { maxItems: MAX_EDIT_PHOTOS })),
});
export type EditBatch = Static<typeof EditBatchSchema>;

/** An inserted feature's fid in the new version. */
export const EditFidSchema = Type.Object({
  file: Type.String(),
  layer: Type.String(),
  /** The fid the batch named. */
  client_fid: Type.Integer(),
  fid: Type.Integer(),
});
export type EditFid = Static<typeof EditFidSchema>;

/** A change the rebase dropped or changed, and why. */
export const EditConflictNoteSchema = Type.Object({
  file: Type.String(),
  layer: Type.String(),
  fid: Type.Integer(),
  /** The change's `id`, when it had one. */
  change_id: NullableString(),
  /**
   * `both_changed` (ours kept, theirs recorded), `deleted_meanwhile` (the update was
   * dropped), `already_deleted` (the delete was not needed).
   */
  kind: StringEnum(['both_changed', 'deleted_meanwhile', 'already_deleted']),
  /** The columns concerned. */
  columns: Type.Array(Type.String()),
});
export type EditConflictNote = Static<typeof EditConflictNoteSchema>;

/** Answer of POST /v2/projects/{id}/edits (201). */
export const EditResultSchema = Type.Object({
  /** The new version (`vN`). */
  version: Type.String(),
  /** The version the batch was rebased onto (`vN`): base_version when nothing moved. */
  rebased_onto: Type.String(),
  /** Rows written, over every GeoPackage. */
  inserted: Type.Integer(),
  updated: Type.Integer(),
  deleted: Type.Integer(),
  fids: Type.Array(EditFidSchema),
  conflicts: Type.Array(EditConflictNoteSchema),
  /** The edit-conflict files written (project paths). */
  conflict_files: Type.Array(Type.String()),
  /** Photo paths stored (skipped ones, already holding the bytes, are left out). */
  photos: Type.Array(Type.String()),
});
export type EditResult = Static<typeof EditResultSchema>;

export { GeoJsonGeometrySchema, MapValueSchema };
