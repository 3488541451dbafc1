/**
 * The push core and its two protocols (README.md): v1 (transaction: start, chunks, finish)
 * and v2 (chunks, then one version call), on one set of rules, plan, quota, lock, assembly
 * and commit, with one staging (storage/staging.ts) and one sweep job.
 */
export { LOCK_EXPIRATION_MS, LEASE_MS } from './lock';
export { parsePushVersion } from './rules';
export type { PlanFile, UploadPlan, PushFileInput } from './plan';
export type { PushMeta } from './commit';
export {
  cancelPush,
  chunkTarget,
  finishPush,
  startPush,
  uploadChunk,
  uploadStatus,
  UPLOAD_EXPIRATION_MS,
  type ChunkResult,
  type ChunkTarget,
  type PushInput,
  type PushResult,
  type UploadStatus,
} from './v1';
export {
  chunkProjectV2,
  pushVersionV2,
  uploadChunkV2,
  type ChunkProjectV2,
  type PushV2Input,
} from './v2';
export {
  lockServerPush,
  pushServerVersion,
  retryWhileProjectMoves,
  SERVER_PUSH_ATTEMPTS,
  ServerPushMoved,
  type ServerPushInput,
  type ServerPushLock,
} from './server-push';
export { sweepPushes, sweepPushes as cleanupUploads, type PushSweepResult } from './sweep';
export {
  beginPushId,
  pushIdOnResponse,
  pushIdOnSend,
  replayPushId,
  PUSH_RECORD_TTL_MS,
} from './push-id';
