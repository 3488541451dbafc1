/**
 * User-visible texts of browser uploads. The spec's exact strings (spec 001 §8) first; the rest
 * are ours and are recorded in docs/decisions/0045-browser-upload-selection.md.
 */

// Spec 001 §8.
// The drop refusals are in dropTexts.ts (the first screens load them with the drop rules).
export {
  CANNOT_UPDATE_DURING_UPLOAD,
  DROP_ONLY_FILES,
  DROP_ONLY_ON_FILES_TAB,
  NO_UPLOAD_PERMISSION,
} from './dropTexts';
export const OPERATION_CANCELED = 'Operation canceled by the user.';
export const NO_CHANGES_DETECTED = 'No changes detected. File already exists?';
export const PROJECT_UPDATED = 'Project updated';
export const uploadFinished = (projectPath: string) => `Upload finished: ${projectPath}`;
export const UPLOADING_TOAST_TITLE = 'Uploading data to projects';
export const DATA_SYNC_TITLE = 'Data Sync';
export const UPDATE_CHANGES = 'Update Changes';

// Ours (docs/decisions/0045-browser-upload-selection.md).
export const DROP_AREA_LABEL = 'Upload files or folders';
export const DROP_HINT = 'Drag and drop files or folders here to update the project';
export const CHOOSE_FILES = 'Choose files';
export const CHOOSE_FOLDER = 'Choose folder';
// The file browser's own texts ('Delete file', the state badges, the filter) are in
// src/features/projects/model/files.ts and FileDetailPanel.tsx.
export const PLUGIN_CARD_TITLE = 'Syncing from QGIS?';
export const PLUGIN_CARD_TEXT =
  'The desktop plugin merges GeoPackage changes row by row. An upload from the browser replaces whole files and may overwrite changes other users made meanwhile.';
export const PLUGIN_CARD_LINK = 'How to install the plugin';
export const ANALYSING_FILES = 'Analysing files';
export const PENDING_SIZE = 'Upload size';
export const COUNT_LABELS = { added: 'Added', updated: 'Updated', removed: 'Removed' } as const;
export const CLOSE_DATA_SYNC = 'Discard pending changes';
/** The Data Sync column on wide screens before there is a change (issue 31; ours). */
export const DATA_SYNC_EMPTY =
  "Files you choose, drop or delete are listed here until you press 'Update Changes'.";
/** The close asks first (issue 31): what would be discarded, or the upload that would stop. */
export const DISCARD_TITLE = 'Discard pending changes?';
export const discardText = (changes: string) =>
  `${changes} will be discarded; nothing of them is sent. To take back one file, use 'Undo change' in its row instead.`;
export const CANCEL_UPLOAD_TITLE = 'Cancel this upload?';
export const CANCEL_UPLOAD_TEXT =
  'The upload stops and its changes are discarded; the project stays as it is on the server.';
export const DISCARD = 'Discard';
export const KEEP_CHANGES = 'Keep them';
/** The Data Sync panel's toggle between its title alone and its whole content. */
export const COLLAPSE_DATA_SYNC = 'Show or hide the Data Sync details';
export const IGNORED_FILES = (count: number) =>
  `${count} ignored ${count === 1 ? 'file' : 'files'} (temporary or blacklisted names)`;
export const PHASE_TEXTS = {
  queued: 'Waiting to start',
  hashing: 'Checking files',
  uploading: 'Uploading',
  'waiting-network': 'Waiting for the network…',
  retrying: 'Retrying',
  finishing: 'Verifying the upload on the server',
  finished: 'Finished',
  failed: 'Upload failed',
  cancelled: OPERATION_CANCELED,
} as const;
export const retryingIn = (seconds: number) => `Connection problem, retrying in ${seconds} s`;
export const RETRY = 'Retry';
/**
 * An over-quota refusal (the server's `code` StorageLimitHit): the reference server's detail
 * without its internal code, and what it means. A retry cannot succeed: no Retry is offered.
 */
export const STORAGE_LIMIT_MESSAGE =
  'You have reached a data limit: the workspace has no storage left for this upload.';
/** Failures a Retry of the same upload cannot get past. */
export function canRetryFailure(error: string | null): boolean {
  return error !== STORAGE_LIMIT_MESSAGE;
}
export const DISMISS = 'Dismiss';
export const CANCEL_UPLOAD = 'Cancel upload';
export const timeLeft = (text: string) => `${text} left`;
export const CONFLICT_TITLE = 'Changed on the server';
export const CONFLICT_TEXT =
  'These files changed on the server since the version you are viewing. Updating them replaces the other changes:';
export const CONFLICT_OVERWRITE = 'Overwrite';
export const CONFLICT_CANCEL = 'Cancel';
