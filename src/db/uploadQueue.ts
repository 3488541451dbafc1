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
  /**
   * Set for an upload queued without a connection: the plan was made against the version
   * saved on this device; before it is sent it is rebased onto the server's latest version.
   */
  offline?: OfflineBase;
}

/** What an upload queued offline needs to be rebased when it is sent. */
export interface OfflineBase {
  /** The saved file list of the base version (`plan.body.version`): path, size, checksum. */
  baseFiles: { path: string; size: number; checksum: string }[];
  /** Who made the changes: the name in a conflicted copy's file name. */
  username: string;
  /** Set once the plan was rebased (or found current): what happened to each file. */
  rebased?: FileOutcome[];
}

/** What a rebase did with one file of the plan. */
export interface FileOutcome {
  path: string;
  kind:
    | 'sent'
    | 'removed'
    | 'conflicted-copy'
    | 'already-there'
    | 'removal-dropped'
    | 'already-removed'
    | 'added-again';
  /** The conflicted copy's path, for kind 'conflicted-copy'. */
  copy?: string;
}

/**
 * The bytes of one file of an upload: the staged file (`fileId`, its chunks in `stagedChunks`,
 * written while it was hashed) or, in rows of older versions, the File as it was dropped.
 */
export interface UploadBlob {
  uploadId: string;
  path: string;
  blob?: Blob;
  fileId?: string;
}

/** One upload chunk of a chosen file (`index` from 0), written while the file was hashed. */
export interface StagedChunk {
  fileId: string;
  index: number;
  blob: Blob;
  at: number;
}

/** A chunk the server acknowledged (2xx) within `transaction`. */
export interface UploadChunkAck {
  uploadId: string;
  chunkId: string;
  transaction: string;
  size: number;
  at: number;
}
