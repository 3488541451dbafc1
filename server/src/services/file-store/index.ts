/** The file store: versions of GeoPackage / SQLite files stored as their diffs (README.md). */
export { fileFromDiff, type DiffMadeFile } from './apply-diff';
export { closeFileCache, fileCacheOf, type FileStoreContext } from './context';
export {
  conversionStatus,
  queueConversion,
  verifyRebuilds,
  type ConversionStatus,
} from './convert';
export { pagePatchWorkIdle, schedulePagePatches } from './page-patch-store';
export {
  copyStoredFile,
  openStoredFile,
  prepareStoredFile,
  storedFile,
  type StoredFile,
} from './reader';
export { FILE_REBUILD_ERROR, FileRebuildError } from './rebuild';
export { recipeKey, type Recipe } from './recipe';
export { CHECKPOINT_DIFFS, CHECKPOINT_SHARE } from './rule';
export { giveBackWorkFile, keepWorkFile, takeWorkFile, type VersionBlob } from './work-file';
export {
  FILE_STORE_JOB,
  arrangeFile,
  fileStoreWorkIdle,
  queueChangedFiles,
  runFileStoreTasks,
  startFileStoreWork,
  stopFileStoreWork,
} from './tasks';
