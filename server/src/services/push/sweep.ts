/**
 * The push's one sweep job (the scheduler's UPLOAD_CLEANUP_JOB), across all instances:
 *
 * - v1 uploads without requests for UPLOAD_EXPIRATION_MS, and their staged files;
 * - v2 chunks that arrived CHUNK_TTL_MS ago or earlier;
 * - staged bytes whose owner is neither an upload nor a v2 chunk (a crash, a deleted
 *   project);
 * - the records of finished pushes and Mm-push-id answers after PUSH_RECORD_TTL_MS.
 */
import type { AppContext } from '../../context';
import { deletePushRecordsBefore } from '../../db/queries/push-records';
import { deleteUploadsIdleSince, existingUploadIds } from '../../db/queries/uploads';
import { existingV2ChunkIds } from '../../db/queries/v2-chunks';
import { ChunkStore } from '../../storage/chunk-store';
import { stagingOf } from '../../storage/staging';
import { PUSH_RECORD_TTL_MS } from './push-id';
import { UPLOAD_EXPIRATION_MS } from './v1';

/** Owners looked up per query. */
const BATCH = 500;

export interface PushSweepResult {
  /** Expired v1 uploads. */
  uploads: number;
  /** Staged owners without an upload or a chunk row. */
  folders: number;
  /** Expired v2 chunks. */
  chunks: number;
  /** Push records (finished pushes, Mm-push-id answers) past their time. */
  records: number;
}

export async function sweepPushes(ctx: AppContext): Promise<PushSweepResult> {
  const db = ctx.database.db;
  const now = ctx.now();
  const staging = stagingOf(ctx.blobStore);
  const expired = await deleteUploadsIdleSince(db, new Date(now.getTime() - UPLOAD_EXPIRATION_MS));
  for (const id of expired) await staging.remove(id);
  const chunks = await new ChunkStore(ctx).sweepExpired(now);

  const owners = await staging.list();
  const live = new Set<string>();
  for (let i = 0; i < owners.length; i += BATCH) {
    const batch = owners.slice(i, i + BATCH);
    for (const id of await existingUploadIds(db, batch)) live.add(id);
    for (const id of await existingV2ChunkIds(db, batch)) live.add(id);
  }
  const orphans = owners.filter((id) => !live.has(id));
  for (const id of orphans) await staging.remove(id);
  const records = await deletePushRecordsBefore(db, new Date(now.getTime() - PUSH_RECORD_TTL_MS));

  const result = { uploads: expired.length, folders: orphans.length, chunks, records };
  if (result.uploads + result.folders + result.chunks > 0) {
    ctx.log.info(result, `Removed ${result.uploads} abandoned upload(s)`);
  }
  return result;
}
