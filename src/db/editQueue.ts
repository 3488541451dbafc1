/**
 * What the field edit queue (features/capture, issue 34) keeps in the database's featureEdits,
 * editPhotos and editBatches stores (version 5, see db.ts): the net change of each feature
 * edited on this device and not sent yet, the photos taken for them, and the batches in
 * flight. The shapes live here, with the database that stores them (db imports no feature);
 * a stored shape changes only together with a new database version or a reader of the old one.
 */

/** An attribute value as stored and sent (dates and times as ISO text). */
export type EditValue = string | number | boolean | null;

/** A GeoJSON geometry in EPSG:4326 (lon, lat). */
export interface EditGeometry {
  type: string;
  coordinates: unknown;
}

export type EditKind = 'insert' | 'update' | 'delete';

/**
 * The net change of one feature not sent yet (one row per feature and batch: a later save of the
 * same feature merges into its open row; see features/capture/model/queue.ts).
 */
export interface FeatureEdit {
  /** A UUID made with the row. */
  id: string;
  /** 'namespace/name' */
  projectPath: string;
  /** The project's id (the edits call is /v2/projects/{id}/edits). */
  projectId: string;
  /** The GeoPackage's project path. */
  file: string;
  layer: string;
  kind: EditKind;
  /**
   * The feature's fid. A feature added on this device has a negative one until its insert
   * landed (the server gives the real fid; rows still queued are renumbered then).
   */
  fid: number;
  /** insert: every value set; update: the changed columns' new values; delete: {}. */
  values: Record<string, EditValue>;
  /** update and delete: the values as seen before the first change (the changed columns). */
  before: Record<string, EditValue>;
  /** insert: the geometry (null for none); update: the new geometry when moved; else absent. */
  geometry?: EditGeometry | null;
  /**
   * What the map draws while the row is queued (EPSG:4326): the new or moved geometry, or the
   * one the feature had when it was changed or deleted; null when not known. Not sent.
   */
  display?: EditGeometry | null;
  /** The project paths of the photos this row adds (their bytes in editPhotos). */
  photos: string[];
  /** The version the feature was seen at when first changed. */
  baseVersion: string;
  /** The batch the row went out in; null while it is open for more saves. */
  batchId: string | null;
  /** The order of saves (ms since epoch of the first and last one). */
  createdAt: number;
  updatedAt: number;
}

/** A photo taken or chosen for a queued edit: its bytes until the edit landed. */
export interface QueuedPhoto {
  projectPath: string;
  /** Project path where it will be stored (the ExternalResource's default path + name). */
  path: string;
  blob: Blob;
  /** The edit row that references it. */
  editId: string;
  at: number;
}

/** A batch: the open rows of a project at one moment, sent as one new version. */
export interface QueuedBatch {
  /** A UUID made with the batch: the server answers a repeated batch with its first outcome. */
  id: string;
  projectPath: string;
  editIds: string[];
  projectId: string;
  /** 'sending' until the server answered; 'refused' with the server's message (kept). */
  phase: 'sending' | 'refused';
  /**
   * The photos uploaded as chunks so far, by path: their checksum, size and the chunk ids the
   * server gave, valid until `validUntil` (ms since epoch); a resumed batch uploads the rest.
   */
  photoChunks: Record<string, UploadedPhoto>;
  error: string | null;
  createdAt: number;
  updatedAt: number;
}

/** A photo's bytes on the server as upload chunks (POST /v2/projects/{id}/chunks). */
export interface UploadedPhoto {
  checksum: string;
  size: number;
  chunks: string[];
  validUntil: number;
}
