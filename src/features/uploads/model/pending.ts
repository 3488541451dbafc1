/**
 * The pending upload of one project (spec 001 §3 "Upload state"): the project's files as they
 * will be after the upload, starting from the viewed version. Chosen files carry their bytes
 * and, once analysed, their SHA-1; deletions remove paths. The diff against the viewed version
 * gives what is added, updated and removed (spec 001 §5: updated = checksum differs).
 */
import type { ProjectFile } from '@contract/projects';
import { isIgnored, type Blacklists } from './ignore';
import type { QueuedFile } from './queued';
import type { Placement } from './selection';

export interface PendingFile {
  path: string;
  size: number;
  /** ISO time; null for a project file whose time the server does not know. */
  mtime: string | null;
  /** SHA-1; null while the chosen file is not analysed yet. */
  checksum: string | null;
  /** The chosen bytes; absent for files kept from the project. */
  blob?: Blob;
  /**
   * Once analysed: the id of its staged copy (upload chunks written to IndexedDB while it was
   * hashed, src/db/stagedChunks.ts), which the upload sends.
   */
  fileId?: string;
}

export type PendingFiles = ReadonlyMap<string, PendingFile>;

export type ChangeKind = 'added' | 'updated' | 'removed';

export interface Diff {
  added: PendingFile[];
  updated: PendingFile[];
  removed: ProjectFile[];
}

export function filesOfProject(files: readonly ProjectFile[]): Map<string, PendingFile> {
  return new Map(
    files.map((file) => [
      file.path,
      { path: file.path, size: file.size, mtime: file.mtime, checksum: file.checksum },
    ]),
  );
}

export interface ApplyResult {
  files: Map<string, PendingFile>;
  /** Project paths left out by the ignore rules. */
  ignored: string[];
}

/** The pending files after a selection is placed (see selection.ts). */
export function applyPlacement(
  current: PendingFiles,
  placement: Placement,
  blacklists?: Blacklists,
): ApplyResult {
  const files = placement.replaceAll ? new Map<string, PendingFile>() : new Map(current);
  if (!placement.replaceAll) {
    for (const folder of placement.replacedFolders) removeUnder(files, folder);
  }
  const ignored: string[] = [];
  for (const file of placement.files) {
    if (isIgnored(file.path, blacklists)) {
      ignored.push(file.path);
      continue;
    }
    files.set(file.path, {
      path: file.path,
      size: file.size,
      mtime: new Date(file.lastModified || Date.now()).toISOString(),
      checksum: null,
      blob: file.file,
    });
  }
  return { files, ignored };
}

function removeUnder(files: Map<string, PendingFile>, folder: string): void {
  const prefix = `${folder}/`;
  for (const path of [...files.keys()]) {
    if (path.startsWith(prefix)) files.delete(path);
  }
}

/** Stages the deletion of a file, or of every file under a folder (by prefix). */
export function stageDeletion(
  current: PendingFiles,
  path: string,
  isFolder: boolean,
): Map<string, PendingFile> {
  const files = new Map(current);
  if (isFolder) removeUnder(files, path.replace(/\/+$/, ''));
  else files.delete(path);
  return files;
}

/** Sets a file's checksum (and the id of its staged copy) once analysed. */
export function withChecksum(
  current: PendingFiles,
  path: string,
  checksum: string,
  fileId?: string,
): Map<string, PendingFile> {
  const files = new Map(current);
  const file = files.get(path);
  if (file) files.set(path, { ...file, checksum, ...(fileId ? { fileId } : {}) });
  return files;
}

/** The ids of the staged copies of `files`. */
export function stagedIds(files: Iterable<PendingFile>): string[] {
  return [...files].flatMap((file) => (file.fileId ? [file.fileId] : []));
}

/** Chosen files still waiting for their checksum. */
export function unanalysed(files: PendingFiles): PendingFile[] {
  return [...files.values()].filter((file) => file.checksum === null && file.blob !== undefined);
}

/** Added, updated (checksum differs) and removed files against the viewed version. */
export function computeDiff(base: readonly ProjectFile[], files: PendingFiles): Diff {
  const baseByPath = new Map(base.map((file) => [file.path, file]));
  const diff: Diff = { added: [], updated: [], removed: [] };
  for (const file of files.values()) {
    const before = baseByPath.get(file.path);
    if (!before) diff.added.push(file);
    else if (file.blob && file.checksum !== null && file.checksum !== before.checksum)
      diff.updated.push(file);
  }
  for (const file of base) {
    if (!files.has(file.path)) diff.removed.push(file);
  }
  return diff;
}

export function hasChanges(diff: Diff): boolean {
  return diff.added.length + diff.updated.length + diff.removed.length > 0;
}

/** The change of each path ('added', 'updated', 'removed'), for badges and the diff filter. */
export function changesByPath(diff: Diff): Map<string, ChangeKind> {
  const changes = new Map<string, ChangeKind>();
  for (const file of diff.added) changes.set(file.path, 'added');
  for (const file of diff.updated) changes.set(file.path, 'updated');
  for (const file of diff.removed) changes.set(file.path, 'removed');
  return changes;
}

export interface DiffSummary {
  added: number;
  updated: number;
  removed: number;
  /** Bytes to send: the sizes of added and updated files. */
  size: number;
}

export function summarize(diff: Diff): DiffSummary {
  const size = [...diff.added, ...diff.updated].reduce((sum, file) => sum + file.size, 0);
  return {
    added: diff.added.length,
    updated: diff.updated.length,
    removed: diff.removed.length,
    size,
  };
}

/**
 * The project's files with the changes of the uploads queued for it applied, in the order they
 * are sent: the base of further changes queued on top (issue 31,
 * docs/decisions/0122-changes-on-top.md).
 */
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
        // The server gives a new file its time when the upload lands.
        mtime: byPath.get(change.path)?.mtime ?? null,
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
    else if (file.checksum !== null && file.checksum !== old.checksum)
      changes.set(file.path, 'updated');
  }
  for (const file of [...saved, ...listed]) {
    if (!final.has(file.path)) changes.set(file.path, 'removed');
  }
  return changes;
}
