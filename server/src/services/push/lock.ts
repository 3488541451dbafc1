/**
 * The project's push lock and the finish lease.
 *
 * - The lock is the project's upload row (one per project). A row without requests for
 *   LOCK_EXPIRATION_MS may be taken over by another push (LOCKFILE_EXPIRATION).
 * - A finish (v1) marks its upload 'finishing', a v2 version call holds 'committing'; both
 *   ping the row every LEASE_PING_MS. One whose process died (kill -9, power loss) is known
 *   by its missing pings: on PostgreSQL after LEASE_MS, on PGlite at once (one process owns
 *   the database, so a lease this process is not running is dead). The upload is then open
 *   again for a retried finish, or taken over by the next push; nothing waits for
 *   LOCK_EXPIRATION_MS after a restart (services/push/README.md, crash recovery).
 */
import { randomUUID } from 'node:crypto';
import type { AppContext } from '../../context';
import {
  acquireUpload,
  claimUploadForFinish,
  reopenUpload,
  touchUpload,
  type UploadHead,
  type UploadRow,
} from '../../db/queries/uploads';
import type { HttpProblem } from '../../errors';
import { stagingOf } from '../../storage/staging';
import type { PushDialect } from './dialect';
import type { UploadPlan } from './plan';

/** A push lock without requests for this long may be taken over (LOCKFILE_EXPIRATION). */
export const LOCK_EXPIRATION_MS = 5 * 60 * 1000;
/** How often a running finish or version call refreshes its upload's last_ping_at. */
export const LEASE_PING_MS = 500;
/** A finish or version call without a ping for this long died (PostgreSQL). */
export const LEASE_MS = 2500;

/** Uploads whose finish or version call runs in this process. */
const running = new Set<string>();

/** Pings before this instant are stale for a lease (PGlite: every ping not running here). */
export function leaseStaleBefore(ctx: AppContext): Date {
  if (ctx.database.kind === 'pglite') return new Date('9999-01-01T00:00:00Z');
  return new Date(ctx.now().getTime() - LEASE_MS);
}

/** The project is locked by an administrator (lockedUntil in the future). */
export function lockedProblem(
  lockedUntil: Date | null,
  now: Date,
  dialect: Pick<PushDialect, 'locked'>,
): HttpProblem | null {
  if (!lockedUntil || lockedUntil.getTime() <= now.getTime()) return null;
  return dialect.locked();
}

/**
 * Takes the project's push lock for `plan` (status open: v1, chunks follow; committing: a v2
 * version call, which holds the lease, returned, until it ends); staging of pushes taken
 * over is dropped. Throws dialect.busy() when another push holds it.
 */
export async function takePushLock(
  ctx: AppContext,
  values: {
    projectId: string;
    baseVersion: number;
    userId: number;
    plan: UploadPlan;
    status: 'open' | 'committing';
  },
  dialect: Pick<PushDialect, 'busy'>,
): Promise<{ upload: UploadRow; lease: Lease | null }> {
  const now = ctx.now();
  // A v2 call's row is 'committing' from its insert: its id is running before it exists.
  const id = randomUUID();
  const committing = values.status === 'committing';
  if (committing) running.add(id);
  let acquired: Awaited<ReturnType<typeof acquireUpload>> | null = null;
  try {
    acquired = await acquireUpload(
      ctx.database.db,
      { ...values, id, changes: values.plan, at: now },
      {
        before: new Date(now.getTime() - LOCK_EXPIRATION_MS),
        leaseBefore: leaseStaleBefore(ctx),
        running: [...running].filter((other) => other !== id),
      },
    );
  } finally {
    if (!acquired?.upload) running.delete(id);
  }
  const { upload, replaced } = acquired;
  const lease = upload && committing ? hold(ctx, upload.id) : null;
  for (const other of replaced) await stagingOf(ctx.blobStore).remove(other);
  if (replaced.length > 0) {
    ctx.log.info(
      { project: values.projectId, replaced },
      'Push artefact removed by subsequent push',
    );
  }
  if (!upload) throw dialect.busy();
  return { upload, lease };
}

/** Whether a finish of `upload` runs (here, or on another instance that still pings). */
export function finishRunning(ctx: AppContext, upload: UploadHead): boolean {
  // A finish of this process first: `upload` may have been read a few seconds ago.
  if (running.has(upload.id)) return true;
  if (upload.status === 'open') return false;
  return upload.lastPingAt.getTime() >= leaseStaleBefore(ctx).getTime();
}

export interface Lease {
  /** Ends the lease; `reopen`: the upload is open again (the finish did not end it). */
  end(reopen: boolean): Promise<void>;
}

/** Pings `uploadId` until the lease ends. */
function hold(ctx: AppContext, uploadId: string): Lease {
  running.add(uploadId);
  const db = ctx.database.db;
  const ping = setInterval(() => {
    touchUpload(db, uploadId, ctx.now()).catch(() => {});
  }, LEASE_PING_MS);
  ping.unref();
  return {
    async end(reopen) {
      clearInterval(ping);
      running.delete(uploadId);
      if (reopen) await reopenUpload(db, uploadId, ctx.now());
    },
  };
}

/** open → finishing for one finish (null: another finish runs); a dead finish is taken over. */
export async function claimFinish(ctx: AppContext, uploadId: string): Promise<Lease | null> {
  if (running.has(uploadId)) return null;
  // Reserved before the claim's await, so no other finish of this process claims too.
  running.add(uploadId);
  let claimed = false;
  try {
    claimed = await claimUploadForFinish(
      ctx.database.db,
      uploadId,
      ctx.now(),
      leaseStaleBefore(ctx),
    );
  } finally {
    if (!claimed) running.delete(uploadId);
  }
  return claimed ? hold(ctx, uploadId) : null;
}
