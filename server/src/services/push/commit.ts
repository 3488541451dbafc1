/**
 * Making the version of a push, one database transaction: the upload row (the lock) goes,
 * the version is written (services/versions.ts), the allowance is checked with the real
 * sizes, and the push is recorded for a finish retried after a lost answer.
 */
import type { ClientMeta } from '../../auth/sessions';
import type { AppContext } from '../../context';
import { actorOf, auditInsert } from '../audit';
import { claimCommit, recordPushCommit } from '../../db/queries/push-records';
import type { UploadRow } from '../../db/queries/uploads';
import type { User } from '../../db/schema';
import { PUSH_REFUSALS } from '../../schemas/protocol';
import type { VersionOrigin } from '../../schemas/restore';
import {
  commitVersion,
  InvalidChangesError,
  VersionMismatchError,
  type CommitFile,
} from '../versions';
import type { PushDialect } from './dialect';
import type { UploadPlan } from './plan';
import { guardAllowance } from './quota';
import { warmMapFiles } from '../map/warm';
import { schedulePagePatches, startFileStoreWork } from '../file-store';
import { kickWebhooks } from '../webhooks/dispatcher';

export type PushMeta = ClientMeta & { deviceId: string | null };

export interface CommitPush {
  upload: Pick<UploadRow, 'id' | 'projectId' | 'baseVersion'>;
  plan: UploadPlan;
  /** The new blobs of the plan's added and updated files, in plan order. */
  files: CommitFile[];
  caller: User;
  meta: PushMeta;
  /** The version the client named (for the dialect's answer when the project moved on). */
  clientVersion: number | null;
  /** A version the server makes for time travel (services/time-travel/): what it does. */
  origin?: VersionOrigin | null;
  /**
   * Whether the push is recorded for a v1 finish retried after a lost answer (push_commits,
   * by upload id); false for versions the server makes (no client knows their upload id).
   */
  recordCommit?: boolean;
}

/** Makes the version; resolves its number. Refusals are in the dialect's words. */
export async function commitPush(
  ctx: AppContext,
  push: CommitPush,
  dialect: PushDialect,
): Promise<number> {
  const { upload, plan, caller, meta } = push;
  let version: number;
  try {
    version = await ctx.database.db.transaction(async (tx) => {
      // The upload row (the lock) goes and the workspace is locked, in one statement.
      const { claimed, workspace } = await claimCommit(tx, upload.id, upload.projectId);
      if (!claimed) throw dialect.invalid(PUSH_REFUSALS.canceled);
      const at = ctx.now();
      const restored =
        push.origin?.action === 'restore_version' || push.origin?.action === 'restore_file';
      const committed = await commitVersion(tx, {
        project: { id: upload.projectId },
        author: caller,
        userAgent: meta.userAgent,
        ip: meta.ip,
        deviceId: meta.deviceId,
        added: push.files.slice(0, plan.added.length),
        updated: push.files.slice(plan.added.length),
        removed: plan.removed.map((f) => ({ path: f.path })),
        at,
        baseVersion: upload.baseVersion,
        blobStore: ctx.blobStore,
        origin: push.origin ?? null,
        copyDelayMs: ctx.config.versionCopyDelayMs,
        // The audit entry, written with the version's rows.
        audit: ({ version: made, scope }) =>
          auditInsert(ctx, tx, {
            action: restored ? 'project.restored' : 'project.version_pushed',
            actor: actorOf(caller),
            ...scope,
            target: { type: 'version', id: made, name: `v${made}` },
            details: {
              added: plan.added.length,
              updated: plan.updated.length,
              removed: plan.removed.length,
              ...(push.origin ? { origin: push.origin } : {}),
            },
          }),
      });
      guardAllowance(workspace, committed.workspaceUsage, committed.storedGrowth);
      if (push.recordCommit !== false) {
        await recordPushCommit(tx, {
          uploadId: upload.id,
          projectId: upload.projectId,
          userId: caller.id,
          version: committed.version,
          at,
        });
      }
      return committed.version;
    });
  } catch (error) {
    if (error instanceof VersionMismatchError) {
      throw dialect.versionMoved(push.clientVersion, error.latestVersion);
    }
    if (error instanceof InvalidChangesError) throw dialect.commitRefused(error.message);
    throw error;
  }
  // The map of the new GeoPackages, prepared in the background (never delays the answer).
  warmMapFiles(ctx, upload.projectId, push.files);
  // Whole copies of GeoPackages made from diffs, arranged when due (file-store/tasks.ts), and
  // the page patches of the versions made from diffs (page-patch-store.ts), after the answer.
  startFileStoreWork(ctx);
  schedulePagePatches(
    ctx,
    push.files.flatMap((file) => (file.recipe ? [file.blobKey] : [])),
  );
  // The version's webhook messages (queued in the commit), sent now.
  kickWebhooks(ctx);
  return version;
}
