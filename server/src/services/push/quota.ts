/**
 * The workspace's storage allowance, against the bytes its projects keep stored, every
 * version (services/file-store/README.md). Checked twice:
 *
 * - when a push starts, with what it will store: the sizes the client declares for the bytes
 *   it sends (finish refuses bytes of another size): a file added or updated whole at its
 *   size, a diff update at its diff's size (the versions before stay: an update or a removal
 *   frees nothing);
 * - when the version is made, inside its database transaction, with the real sizes (what the
 *   version stores anew, services/versions.ts `storedGrowth`): the workspace row is locked,
 *   so concurrent commits in one workspace cannot pass it together.
 *
 * A push that does not grow the usage (a removal) is always taken.
 */
import type { Executor } from '../../db/database';
import { workspaceDiskUsage } from '../../db/queries/projects';
import { storageLimitHit } from '../clone';
import type { CurrentFiles, UploadPlan } from './plan';

/** Bytes the push adds to what the project keeps stored. */
export function planGrowth(plan: UploadPlan, _current: CurrentFiles): number {
  let growth = 0;
  for (const file of plan.added) growth += file.size;
  for (const file of plan.updated) growth += file.diff ? file.diff.size : file.size;
  return growth;
}

/** 422 StorageLimitHit when `growth` bytes more would pass the workspace's allowance. */
export async function checkAllowance(
  db: Executor,
  workspace: { id: number; storage: number },
  growth: number,
): Promise<void> {
  if (growth <= 0) return;
  const usage = await workspaceDiskUsage(db, workspace.id);
  if (usage + growth > workspace.storage) throw storageLimitHit(usage, workspace.storage);
}

/**
 * Inside the commit's transaction, the project's workspace locked (db/queries/push-records.ts
 * `claimCommit`), once the version is written: its usage before the version (`before`, read
 * by the version's last statement, services/versions.ts `workspaceUsage`) and what the
 * version stores anew (`growth`); usage grown past the allowance → StorageLimitHit (the
 * transaction rolls back).
 */
export function guardAllowance(
  workspace: { id: number; storage: number } | null,
  before: number,
  growth: number,
): void {
  if (workspace && growth > 0 && before + growth > workspace.storage) {
    throw storageLimitHit(before, workspace.storage);
  }
}
