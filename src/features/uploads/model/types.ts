/**
 * The upload engine's public types (issue 5, browser sync): what the page hears back from the
 * engine (live progress and a settled outcome). What it hands over is a plan (plan.ts) and
 * the file blobs.
 */
import type { ProjectDetail } from '@contract/projects';

export type { PushPlan } from './plan';

import type { UploadPhase } from '@/db/uploadQueue';

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
