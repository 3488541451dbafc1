/**
 * What uploads queued for a project change in it (issue 31): the files of their plans, so the
 * file list marks them New, Modified or Deleted after an offline reload (when the pending
 * changes of the tab are gone) and the Outbox names them (pending.ts `applyQueued` and
 * `changesAgainst` use them on the page).
 */
import type { PushPlan } from './plan';

/** One file of a queued upload's plan. (The upload worker reads this module: no page types.) */
export interface QueuedFile {
  path: string;
  kind: 'added' | 'updated' | 'removed';
  size: number;
  /** SHA-1 of the content it sends (of the server's copy, for a removal). */
  checksum: string;
}

/** The files a plan adds, updates and removes, in that order. */
export function queuedFilesOf(plan: PushPlan): QueuedFile[] {
  const { added, updated, removed } = plan.body.changes;
  const file =
    (kind: QueuedFile['kind']) => (f: { path: string; size: number; checksum: string }) => ({
      path: f.path,
      kind,
      size: f.size,
      checksum: f.checksum,
    });
  return [
    ...added.map(file('added')),
    ...updated.map(file('updated')),
    ...removed.map(file('removed')),
  ];
}
