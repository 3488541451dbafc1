/**
 * What uploads queued for a project change in it (issue 31): the files of their plans, so the
 * file list marks them New, Modified or Deleted after an offline reload (when the pending
 * changes of the tab are gone) and the Outbox names them; and the project's files as they will
 * be once the queued uploads landed, the base of further changes queued on top of them
 * (docs/decisions/draft-trust-changes-on-top.md).
 */
import type { ProjectFile } from '@/features/projects';
import type { ChangeKind, PendingFiles } from './pending';
import type { PushPlan } from './plan';

/** One file of a queued upload's plan. */
export interface QueuedFile {
  path: string;
  kind: ChangeKind;
  size: number;
  /** SHA-1 of the content it sends (of the server's copy, for a removal). */
  checksum: string;
}

/** The files a plan adds, updates and removes, in that order. */
export function queuedFilesOf(plan: PushPlan): QueuedFile[] {
  const { added, updated, removed } = plan.body.changes;
  const file = (kind: ChangeKind) => (f: { path: string; size: number; checksum: string }) => ({
    path: f.path,
    kind,
    size: f.size,
    checksum: f.checksum,
  });
  return [...added.map(file('added')), ...updated.map(file('updated')), ...removed.map(file('removed'))];
}

/** The project's files with the queued changes applied, in the order they are sent. */
export function applyQueued(
  files: readonly ProjectFile[],
  queued: readonly QueuedFile[],
): ProjectFile[] {
  if (queued.length === 0) return [...files];
  const byPath = new Map(files.map((f) => [f.path, f]));
  for (const change of queued) {
    if (change.kind === 'removed') byPath.delete(change.path);
    else {
      byPath.set(change.path, {
        path: change.path,
        size: change.size,
        checksum: change.checksum,
        mtime: byPath.get(change.path)?.mtime ?? '',
      });
    }
  }
  return [...byPath.values()];
}

/**
 * Marks against the saved version (`saved`): what `final` (the files as they will be: the
 * pending files, or the queued state) adds, changes (a known checksum that differs) and
 * removes; `listed` are the other files shown (the queued state under pending changes), whose
 * absence from `final` is a removal too.
 */
export function changesAgainst(
  saved: readonly ProjectFile[],
  final: PendingFiles,
  listed: readonly ProjectFile[] = [],
): Map<string, ChangeKind> {
  const before = new Map(saved.map((f) => [f.path, f]));
  const changes = new Map<string, ChangeKind>();
  for (const file of final.values()) {
    const old = before.get(file.path);
    if (!old) changes.set(file.path, 'added');
    else if (file.checksum !== null && file.checksum !== (old.checksum ?? ''))
      changes.set(file.path, 'updated');
  }
  for (const file of [...saved, ...listed]) {
    if (!final.has(file.path)) changes.set(file.path, 'removed');
  }
  return changes;
}
