/**
 * What the upload queue (features/uploads) keeps in the database's uploads, uploadBlobs and
 * uploadChunks stores (version 2, see db.ts): the plan of each upload and its state, the file
 * bytes, the acknowledged chunks. The shapes live here, with the database that stores them, so
 * db never imports a feature; a stored shape changes only together with a new database version
 * or a reader of the old one.
 */
import type { PushStartBody } from '@contract/push';

/**
 * The one plan of an upload (features/uploads/model/plan.ts builds it): the project it goes
 * to, its push id, and the push request's body exactly as it is sent (the contract's
 * `PushStartBody`: base version and changes, each uploaded file with its chunk ids).
 */
export interface PushPlan {
  /**
   * A UUID made with the plan and stored with it: the `Mm-push-id` header of its finish call,
   * so a finish repeated after a lost answer gets the first outcome again (a new one is made
   * only after the server answered a finish with a refusal the engine recovers from).
   */
  pushId: string;
  projectId: string;
  namespace: string;
  name: string;
  /** The body of `POST /v1/project/push/{namespace}/{name}`; `version` is the base version. */
  body: PushStartBody & { version: string };
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
  /** What is sent: the push body with its chunk ids, and the push id. */
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
