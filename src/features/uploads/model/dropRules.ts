/**
 * When a drop is refused (spec 001 §5): without upload permission, away from project-tree,
 * while an upload runs, and when an item is not a file entry. Offline a drop is taken: the
 * upload is queued and sent when the connection returns (issue 18).
 */
import {
  CANNOT_UPDATE_DURING_UPLOAD,
  DROP_ONLY_FILES,
  DROP_ONLY_ON_FILES_TAB,
  NO_UPLOAD_PERMISSION,
} from './dropTexts';

export interface DropContext {
  canUpload: boolean;
  onProjectTree: boolean;
  running: boolean;
  /** Why nothing may be changed now (maintenance), or null. */
  blocked?: string | null;
}

/** Why dropping is not possible at all here, or null when it is. */
export function dropRefusal(context: DropContext): string | null {
  if (!context.onProjectTree) return DROP_ONLY_ON_FILES_TAB;
  if (!context.canUpload) return NO_UPLOAD_PERMISSION;
  if (context.blocked) return context.blocked;
  if (context.running) return CANNOT_UPDATE_DURING_UPLOAD;
  return null;
}

/** Whether the dragged items may be dropped (highlight colour): only files, and allowed here. */
export function dragAllowed(context: DropContext, kinds: readonly string[]): boolean {
  return dropRefusal(context) === null && kinds.length > 0 && kinds.every((k) => k === 'file');
}

/** The refusal of a drop of items of `kinds` ('file', 'string'), or null to accept it. */
export function itemsRefusal(kinds: readonly string[]): string | null {
  return kinds.length === 0 || kinds.some((kind) => kind !== 'file') ? DROP_ONLY_FILES : null;
}
