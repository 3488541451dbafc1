/**
 * The one IndexedDB database of the web app (Dexie), named 'waymark'.
 *
 * What it keeps, and for how long:
 * - closedElements: banners and tips the user closed, so they stay closed on this device
 *   (spec 000 §2 "closed elements"); kept until the browser's site data is cleared.
 * - lastWorkspace: the workspace each user last worked in on this device (spec 000 §3/§4), so
 *   the app reopens there; one row per user, removed when the user has no workspace left.
 *
 * - uploads, uploadBlobs, uploadChunks (version 2): the browser upload queue (issue 5). An
 *   upload's plan, the file blobs it sends and every chunk the server acknowledged, so an
 *   upload resumes after a dropped connection, a reload or a crash; removed when the upload
 *   finishes, is cancelled or a failed one is dismissed.
 *
 * - offlineEntries (version 3): project data this browser last received (project lists, a
 *   project with its files, versions, text previews), so pages opened before render offline
 *   (issue 8). Each entry is tagged with its owner: 'public' for what an anonymous visitor
 *   saw, 'user:<id>' for what a signed-in user saw; signing out deletes every 'user:' entry.
 *   An entry is replaced each time the same call answers again.
 *
 * - stagedChunks (version 4): the bytes of each file chosen for an upload, cut into upload
 *   chunks and written while the file is hashed (the user's file is read once, issue 16). An
 *   upload's `uploadBlobs` row names the staged file it sends; the rows go with the upload.
 *   Rows of a file never queued (its pending changes discarded, the tab closed) are removed
 *   when it is replaced or discarded, or by the queue a day later.
 *
 * - featureEdits, editPhotos, editBatches (version 5): field edits made on this device (issue
 *   34): the net change of each feature not sent yet, the photos taken for them, and the batch
 *   each went out in (features/capture). Kept until the server confirmed the batch's version;
 *   a batch the server refused stays, with its message, until the user discards it.
 *
 * Each new version repeats the stores it keeps and says why it exists. Never change a released
 * version.
 */
import { Dexie, type EntityTable, type Table } from 'dexie';
import { DATABASE_NAME } from './names';
import type { QueuedBatch, QueuedPhoto, FeatureEdit } from './editQueue';
import type { StagedChunk, UploadBlob, UploadChunkAck, UploadRecord } from './uploadQueue';

export { DATABASE_NAME };
export type {
  QueuedBatch,
  EditGeometry,
  EditKind,
  QueuedPhoto,
  EditValue,
  FeatureEdit,
  UploadedPhoto,
} from './editQueue';
export type {
  FileOutcome,
  OfflineBase,
  PushPlan,
  StagedChunk,
  UploadBlob,
  UploadChunkAck,
  UploadPhase,
  UploadRecord,
} from './uploadQueue';

/** A dismissed UI element, e.g. the mobile-app banner. */
export interface ClosedElement {
  /** Stable id of the element, e.g. 'mobile-app-banner'. */
  id: string;
  /** When it was closed (ms since epoch). */
  closedAt: number;
}

/** The workspace a user last worked in on this device. */
export interface LastWorkspace {
  /** The user this entry belongs to (primary key: one entry per user). */
  userId: number;
  /** Workspace id. */
  id: number;
  /** When the user last worked in it (ms since epoch). */
  lastSeen: number;
}

/** The last answer of one cacheable GET call (see src/offline/offlineCache.ts). */
export interface OfflineEntry {
  /** 'public' (saved by an anonymous visitor) or 'user:<id>' (saved by that signed-in user). */
  owner: string;
  /** The call, e.g. 'project:ns/name' or 'projects:{…params}'. */
  key: string;
  /** What the call returned, as the app uses it. */
  data: unknown;
  /** When it was saved (ms since epoch). */
  savedAt: number;
}

export type WaymarkDatabase = Dexie & {
  closedElements: EntityTable<ClosedElement, 'id'>;
  lastWorkspace: EntityTable<LastWorkspace, 'userId'>;
  uploads: EntityTable<UploadRecord, 'id'>;
  uploadBlobs: Table<UploadBlob, [string, string]>;
  uploadChunks: Table<UploadChunkAck, [string, string]>;
  offlineEntries: Table<OfflineEntry, [string, string]>;
  stagedChunks: Table<StagedChunk, [string, number]>;
  featureEdits: EntityTable<FeatureEdit, 'id'>;
  editPhotos: Table<QueuedPhoto, [string, string]>;
  editBatches: EntityTable<QueuedBatch, 'id'>;
};

export function openDatabase(name: string = DATABASE_NAME): WaymarkDatabase {
  const db = new Dexie(name) as WaymarkDatabase;
  // Each version's stores are the previous version's and what it adds (the same declarations
  // Dexie has always been given, so no upgrade changes).
  // Version 1: the foundation. closedElements remembers dismissed banners (spec's
  // 'closed elements' key); lastWorkspace remembers each user's current workspace.
  const v1 = { closedElements: 'id', lastWorkspace: 'userId' };
  // Version 2: the upload queue (issue 5). uploads holds each plan and its state (ordered by
  // createdAt); uploadBlobs the file bytes by [uploadId+path]; uploadChunks every chunk the
  // server acknowledged by [uploadId+chunkId], so a resumed upload never sends one twice.
  const v2 = {
    ...v1,
    uploads: 'id, createdAt',
    uploadBlobs: '[uploadId+path], uploadId',
    uploadChunks: '[uploadId+chunkId], uploadId',
  };
  // Version 3: offline copies of project data (issue 8), by [owner+key]; the owner index lets
  // sign-out delete a user's private entries at once.
  const v3 = { ...v2, offlineEntries: '[owner+key], owner' };
  // Version 4: the chunks of chosen files written while they are hashed (issue 16), by
  // [fileId+index]; the fileId index lets an upload's or a discarded file's rows go at once.
  const v4 = { ...v3, stagedChunks: '[fileId+index], fileId' };
  // Version 5: field edits (issue 34). featureEdits holds each feature's net change by id,
  // found per project (and its batch); editPhotos the photos' bytes by [projectPath+path];
  // editBatches the batches in flight or refused, per project.
  const v5 = {
    ...v4,
    featureEdits: 'id, projectPath, batchId, createdAt',
    editPhotos: '[projectPath+path], projectPath, editId',
    editBatches: 'id, projectPath, createdAt',
  };
  [v1, v2, v3, v4, v5].forEach((stores, index) => db.version(index + 1).stores(stores));
  return db;
}

export const db = openDatabase();
