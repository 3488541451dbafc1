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
 * Each new version repeats the stores it keeps and says why it exists. Never change a released
 * version.
 */
import { Dexie, type EntityTable, type Table } from 'dexie';
import type { PushPlan, UploadPhase } from '../features/uploads/model/types';

import { DATABASE_NAME } from './names';

export { DATABASE_NAME };

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

/** One queued, running or failed upload (finished and cancelled ones are removed). */
export interface UploadRecord {
  id: string;
  /** What is sent: the push body with its chunk ids, and the push id (see the plan's type). */
  plan: PushPlan;
  /** 'namespace/name' */
  projectPath: string;
  /** The server's transaction, once the push started; null before (or after it was lost). */
  transaction: string | null;
  /** The last phase a tab recorded: 'queued', a running phase, or 'failed'. */
  phase: UploadPhase;
  error: string | null;
  totalBytes: number;
  /** Bytes the server acknowledged, as last recorded (for other tabs and after a reload). */
  loadedBytes: number;
  createdAt: number;
  updatedAt: number;
}

/** The bytes of one file of an upload (a File from a drop is stored as it is). */
export interface UploadBlob {
  uploadId: string;
  path: string;
  blob: Blob;
}

/** A chunk the server acknowledged (2xx) within `transaction`. */
export interface UploadChunkAck {
  uploadId: string;
  chunkId: string;
  transaction: string;
  size: number;
  at: number;
}

/** The last answer of one cacheable GET call (see features/offline/model/offlineCache.ts). */
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
};

export function openDatabase(name: string = DATABASE_NAME): WaymarkDatabase {
  const db = new Dexie(name) as WaymarkDatabase;
  // Version 1: the foundation. closedElements remembers dismissed banners (spec's
  // 'closed elements' key); lastWorkspace remembers each user's current workspace.
  db.version(1).stores({
    closedElements: 'id',
    lastWorkspace: 'userId',
  });
  // Version 2: the upload queue (issue 5). uploads holds each plan and its state (ordered by
  // createdAt); uploadBlobs the file bytes by [uploadId+path]; uploadChunks every chunk the
  // server acknowledged by [uploadId+chunkId], so a resumed upload never sends one twice.
  db.version(2).stores({
    closedElements: 'id',
    lastWorkspace: 'userId',
    uploads: 'id, createdAt',
    uploadBlobs: '[uploadId+path], uploadId',
    uploadChunks: '[uploadId+chunkId], uploadId',
  });
  // Version 3: offline copies of project data (issue 8), by [owner+key]; the owner index lets
  // sign-out delete a user's private entries at once.
  db.version(3).stores({
    closedElements: 'id',
    lastWorkspace: 'userId',
    uploads: 'id, createdAt',
    uploadBlobs: '[uploadId+path], uploadId',
    uploadChunks: '[uploadId+chunkId], uploadId',
    offlineEntries: '[owner+key], owner',
  });
  return db;
}

export const db = openDatabase();
