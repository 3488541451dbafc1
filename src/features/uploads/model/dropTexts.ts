/**
 * Why a drop is refused (spec 001 §8 for the first two; ours for the others, recorded in
 * docs/decisions/0045-browser-upload-selection.md). Apart from texts.ts: the drop rules run on
 * every screen with the shell, and a module the first screens import goes there whole.
 */
export const CANNOT_UPDATE_DURING_UPLOAD = 'You cannot update files during upload';
export const DROP_ONLY_FILES = 'Drop only files or folders';
export const DROP_ONLY_ON_FILES_TAB = "Files can be dropped only on a project's Files tab";
export const NO_UPLOAD_PERMISSION = 'You do not have permission to upload files to this project';
