/**
 * Pushing on the latest version (see docs/decisions/0045-browser-upload-selection.md). Before the upload
 * starts, the client reads the latest project. When another upload made a newer version, the
 * changes made against the viewed version are carried over onto the latest one; a GeoPackage
 * or SQLite file this upload updates or removes that changed on the server in between is a
 * conflict the user must decide on (never overwritten silently).
 */
import { isVersionedFile } from '@contract/protocol';
import type { PushChanges, PushFile } from '@contract/push';
import type { ProjectFile } from '@contract/projects';
import type { Diff, PendingFile } from './pending';

/**
 * Versioned files this upload updates or removes whose server copy differs between the viewed
 * and the latest version (changed or removed on the server).
 */
export function versionedConflicts(
  diff: Diff,
  viewed: readonly ProjectFile[],
  latest: readonly ProjectFile[],
): string[] {
  const viewedByPath = new Map(viewed.map((file) => [file.path, file]));
  const latestByPath = new Map(latest.map((file) => [file.path, file]));
  const touched = [...diff.updated.map((f) => f.path), ...diff.removed.map((f) => f.path)];
  return touched.filter((path) => {
    if (!isVersionedFile(path)) return false;
    const before = viewedByPath.get(path);
    const now = latestByPath.get(path);
    return before?.checksum !== now?.checksum || before?.size !== now?.size;
  });
}

function planned(file: PendingFile): PushFile {
  return { path: file.path, size: file.size, checksum: file.checksum ?? '', mtime: file.mtime };
}

/**
 * The diff expressed against the latest files: an added path that exists now is an update (or
 * nothing when identical), an updated path that is gone is an addition, a file already equal to
 * the latest copy is left out, and a removal of a file that is gone is dropped.
 */
export function rebaseChanges(diff: Diff, latest: readonly ProjectFile[]): PushChanges {
  const latestByPath = new Map(latest.map((file) => [file.path, file]));
  const result: PushChanges = { added: [], updated: [], removed: [] };
  for (const file of [...diff.added, ...diff.updated]) {
    const now = latestByPath.get(file.path);
    if (!now) result.added.push(planned(file));
    else if (now.checksum !== file.checksum || now.size !== file.size)
      result.updated.push(planned(file));
  }
  for (const file of diff.removed) {
    const now = latestByPath.get(file.path);
    if (now) result.removed.push({ path: now.path, size: now.size, checksum: now.checksum });
  }
  return result;
}

export function isEmptyChanges(changes: PushChanges): boolean {
  return changes.added.length + changes.updated.length + changes.removed.length === 0;
}
