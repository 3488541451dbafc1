/** The feature's user-visible texts (issue 20; spec 001 where it has them). */
import type { ConflictFile, EditConflictField } from '@contract/conflicts';

export const SWAP_VERSIONS = 'Swap versions';
export const PICK_TWO_VERSIONS = 'Pick the two versions to compare.';
export const SAME_VERSION = 'Both sides are the same version: nothing changed.';
export const NO_DIFFERENCES = 'No differences between these versions.';
export const COMPARE_FALLBACK = 'Failed to compare versions';

export function compareTitle(from: string, to: string): string {
  return `Compare ${from} with ${to}`;
}

export const COMPARE_WITH_LATEST = 'Compare with the latest version';
export const RESTORE_VERSION = 'Restore this version';
export const RESTORE_FILE = 'Restore this file';
export const RESTORE = 'Restore';
export const RESTORE_FALLBACK = 'Failed to restore';

export function restoreVersionTitle(version: string): string {
  return `Restore ${version}?`;
}

export function restoreVersionText(version: string): string {
  return `A new version will contain the files as they were in ${version}. No version is removed: the versions after ${version} stay in the history.`;
}

export function restoreFileTitle(path: string, version: string): string {
  return `Restore ${path} from ${version}?`;
}

export function restoreFileText(path: string, version: string): string {
  return `A new version will contain ${path} as it was in ${version}. No version is removed.`;
}

export function restored(newVersion: string, version: string): string {
  return `${newVersion} restores ${version}`;
}

export const CONFLICTS = 'Conflicts';
/** The project list's marker of such projects (spec 001 §2 'Conflicting file in project'). */
export const CONFLICTING_FILE = 'Conflicting file in project';
export const KEEP_COPY = 'Keep this copy';
export const DISCARD_COPY = 'Discard copy';
export const RESOLVE_FALLBACK = 'Failed to resolve the conflict';
export const COMPARE_ROWS_FALLBACK = 'Failed to compare the rows of the file';
export const CONFLICTS_FALLBACK = 'Failed to load the conflict files';
export const EDIT_CONFLICT_FALLBACK = 'Failed to read the edit conflict';
export const CONFLICT_ROWS_FALLBACK = 'Failed to compare the copy with its original';
export const NO_ROW_CHANGES = 'No rows changed.';

export function rowsCannotBeCompared(reason: string | null): string {
  return reason ? `Rows cannot be compared: ${reason}` : 'Rows cannot be compared';
}
export const SHOW_ROWS = 'Show rows';
export const HIDE_ROWS = 'Hide rows';
export const COMPARE_VERSIONS = 'Compare versions';

export function newVersionMade(version: string): string {
  return `New version ${version} created`;
}

/** What a conflict file is, beside its name in the notice. */
export function conflictSummary(
  conflict: Pick<ConflictFile, 'kind' | 'original' | 'user' | 'version'>,
): string {
  const what = conflict.kind === 'conflicted_copy' ? 'conflicted copy' : 'edit conflict';
  const of = conflict.original ? ` of ${conflict.original}` : '';
  return `(${what}${of}, ${conflict.user} ${conflict.version})`;
}
export const ORIGINAL = 'Original';
export const CONFLICTED_COPY = 'Conflicted copy';
export const ORIGINAL_GONE = 'This file is not in the project any more.';
export const NOT_A_CONFLICT = 'This file is not a conflict file of the project (any more).';

export function conflictTitle(path: string): string {
  return `Conflict: ${path}`;
}

/** Title of a conflicted GeoPackage's rows: what keeping the copy changes in the original. */
export function rowsKeepingChanges(original: string): string {
  return `Rows of ${original} that keeping this copy changes`;
}

/**
 * 'Keep this copy' asks first (issue 31), naming what it overwrites: the original's content
 * now (a colleague's edit among it), or for an edit conflict the conflicting fields' values.
 */
export function keepCopyConfirm(
  conflict: Pick<
    ConflictFile,
    'kind' | 'path' | 'original' | 'original_exists' | 'user' | 'version'
  >,
): { title: string; text: string; confirmText: string } {
  const original = conflict.original ?? '';
  const history = 'No version is removed: what is overwritten stays in the history.';
  if (conflict.kind !== 'conflicted_copy') {
    return {
      title: `Overwrite fields of ${original}?`,
      text: `The conflicting fields of ${original} get the values of ${conflict.user}'s edit (Theirs); the values they hold now (Ours) are overwritten, and ${conflict.path} is removed. ${history}`,
      confirmText: KEEP_OVERWRITE,
    };
  }
  if (!conflict.original_exists) {
    return {
      title: `Keep ${conflict.path} as ${original}?`,
      text: `${original} is not in the project any more: the copy ${conflict.user} made (${conflict.version}) is put back as ${original}, and ${conflict.path} is removed. ${history}`,
      confirmText: KEEP_COPY,
    };
  }
  return {
    title: `Overwrite ${original}?`,
    text: `${original} gets the content of ${conflict.path}, the copy ${conflict.user} made (${conflict.version}): everything ${original} holds now, including changes others made since, is overwritten, and the copy is removed. ${history}`,
    confirmText: KEEP_OVERWRITE,
  };
}
export const KEEP_OVERWRITE = 'Overwrite';
export const EDIT_CONFLICT_TABLE = 'Conflicting fields';
export const NO_CONFLICTING_FIELDS = 'The file names no conflicting field.';

/** A conflicting field's column name, or its number when the original does not name it. */
export function fieldName(field: Pick<EditConflictField, 'name' | 'column'>): string {
  return field.name ?? `column ${field.column}`;
}
