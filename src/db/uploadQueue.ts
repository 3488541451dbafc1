/**
 * What the upload queue (features/uploads) keeps in the database's uploads, uploadBlobs and
 * uploadChunks stores (version 2, see db.ts): the plan of each upload and its state, the file
 * bytes, the acknowledged chunks. The shapes live here, with the database that stores them, so
 * db never imports a feature; a stored shape changes only together with a new database version
 * or a reader of the old one.
 */

/** An added or updated file: its checksum is the SHA-1 (hex) computed when it was analysed. */
export interface PlannedFile {
  path: string;
  size: number;
  checksum: string;
  mtime: string;
}

/** A project file to remove with this upload. */
export interface RemovedFile {
  path: string;
  size: number;
  checksum: string;
}

export interface UploadPlan {
  projectId: string;
  namespace: string;
  name: string;
  /** The version the user was looking at, 'v0' for an empty project. */
  baseVersion: string;
  added: PlannedFile[];
  updated: PlannedFile[];
  removed: RemovedFile[];
}

export type UploadPhase =
  | 'queued'
  | 'hashing'
  | 'uploading'
  | 'waiting-network'
  | 'retrying'
  | 'finishing'
  | 'finished'
  | 'failed'
  | 'cancelled';

/** One queued, running or failed upload (finished and cancelled ones are removed). */
export interface UploadRecord {
  id: string;
  plan: UploadPlan;
  /** 'namespace/name' */
  projectPath: string;
  /** Client-generated chunk ids of each added or updated file, by path (one per 10 MB). */
  chunks: Record<string, string[]>;
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
