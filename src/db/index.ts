export {
  db,
  openDatabase,
  DATABASE_NAME,
  type ClosedElement,
  type LastWorkspace,
  type OfflineEntry,
  type UploadBlob,
  type UploadChunkAck,
  type UploadRecord,
  type WaymarkDatabase,
} from './db';
export { closeElement, isElementClosed, reopenElement } from './closedElements';
export { forgetWorkspace, getLastWorkspace, rememberWorkspace } from './lastWorkspace';
