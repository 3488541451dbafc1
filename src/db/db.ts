/**
 * The one IndexedDB database of the web app (Dexie), named 'waymark'.
 *
 * What it keeps, and for how long:
 * - closedElements: banners and tips the user closed, so they stay closed on this device
 *   (spec 000 §2 "closed elements"); kept until the browser's site data is cleared.
 * - lastWorkspace: the workspace each user last worked in on this device (spec 000 §3/§4), so
 *   the app reopens there; one row per user, removed when the user has no workspace left.
 *
 * Later versions add tables (cached project metadata, the upload queue); each new version
 * repeats the stores it keeps and says why it exists. Never change a released version.
 */
import { Dexie, type EntityTable } from 'dexie';

export const DATABASE_NAME = 'waymark';

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

export type WaymarkDatabase = Dexie & {
  closedElements: EntityTable<ClosedElement, 'id'>;
  lastWorkspace: EntityTable<LastWorkspace, 'userId'>;
};

export function openDatabase(name: string = DATABASE_NAME): WaymarkDatabase {
  const db = new Dexie(name) as WaymarkDatabase;
  // Version 1: the foundation. closedElements remembers dismissed banners (spec's
  // 'closed elements' key); lastWorkspace remembers each user's current workspace.
  db.version(1).stores({
    closedElements: 'id',
    lastWorkspace: 'userId',
  });
  return db;
}

export const db = openDatabase();
