/**
 * The upload engine's public types (issue 5, browser sync): what the UI hands to the engine
 * (a plan and the file blobs) and what it hears back (live progress and a settled outcome).
 */
import type { ProjectDetail } from '../../projects/model/project';

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

export interface UploadProgress {
  id: string;
  /** 'namespace/name' */
  projectPath: string;
  phase: UploadPhase;
  loadedBytes: number;
  totalBytes: number;
  chunksDone: number;
  chunksTotal: number;
  /** Over a moving window; null until measurable. */
  bytesPerSecond: number | null;
  secondsLeft: number | null;
  /** While 'retrying': seconds until the next attempt. */
  retryInSeconds: number | null;
  error: string | null;
  updatedAt: number;
}

export type UploadOutcome =
  /** UI shows 'Upload finished: {project path}'. */
  | { kind: 'finished'; id: string; projectPath: string; project: ProjectDetail }
  /** The push answered without a transaction (removals only): 'Project updated'. */
  | { kind: 'updated'; id: string; projectPath: string; project: ProjectDetail }
  | { kind: 'failed'; id: string; projectPath: string; error: string }
  /** 'Operation canceled by the user.' */
  | { kind: 'cancelled'; id: string; projectPath: string };

/** The outcome text of a cancelled upload. */
export const UPLOAD_CANCELLED_MESSAGE = 'Operation canceled by the user.';
