/**
 * The upload engine's public types (issue 5, browser sync): what the page hears back from the
 * engine (live progress and a settled outcome). What it hands over is a plan (plan.ts) and
 * the file blobs.
 */
import type { ProjectDetail } from '@contract/projects';

export type { PushPlan } from './plan';

import type { FileOutcome, UploadPhase } from '@/db/uploadQueue';
import type { QueuedFile } from './queued';

export type { UploadPhase };

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
  /** When the upload was queued (ms since epoch). */
  queuedAt?: number;
  /** How many files the plan adds, updates and removes. */
  changes?: ChangeCounts;
  /** Which files the plan adds, updates and removes (issue 31: shown in the list and the Outbox). */
  files?: QueuedFile[];
}

export interface ChangeCounts {
  added: number;
  updated: number;
  removed: number;
}

export type UploadOutcome =
  /**
   * 'finished': UI shows 'Upload finished: {project path}'. 'updated': the push answered
   * without a transaction (removals only, or nothing left after a rebase): 'Project updated'.
   * `files`, for an upload queued offline: what happened to each file.
   */
  | {
      kind: 'finished' | 'updated';
      id: string;
      projectPath: string;
      project: ProjectDetail;
      files?: FileOutcome[];
    }
  | { kind: 'failed'; id: string; projectPath: string; error: string }
  /** 'Operation canceled by the user.' */
  | { kind: 'cancelled'; id: string; projectPath: string };

/** The outcome text of a cancelled upload. */
export const UPLOAD_CANCELLED_MESSAGE = 'Operation canceled by the user.';
