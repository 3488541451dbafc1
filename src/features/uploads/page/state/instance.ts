/** The app's pending uploads, wired to the hashing worker, the project API and the engine. */
import { errorMessage, isApiError } from '@/api';
import { loadDb } from '@/db/lazy';
import { formatFileSize } from '@/lib/fileSize';
import { readStorageEstimate } from '@/offline/storage';
import { hashClient } from '@/lib/hashWorker';
import { notifyError, notifyInfo } from '@/lib/notify';
import { fetchProject } from '@/features/projects';
import { LOAD_PROJECT_FALLBACK } from '@/features/projects';
import { cancelUpload, enqueueUpload } from '../engine';
import { NO_CHANGES_DETECTED, OPERATION_CANCELED } from '../../model/texts';
import { notEnoughSpace } from '../../model/outboxTexts';
import { createPendingUploads } from './pendingUploads';

export const pendingUploads = createPendingUploads(
  {
    sha1: (file, options) => hashClient.sha1(file, options),
    fetchLatest: async (namespace, name) => {
      try {
        return await fetchProject(namespace, name, true);
      } catch (error) {
        throw new Error(errorMessage(error, LOAD_PROJECT_FALLBACK), { cause: error });
      }
    },
    enqueue: enqueueUpload,
    isOnline: () => globalThis.navigator?.onLine !== false,
    isNetworkError: (error) => {
      const cause = error instanceof Error ? error.cause : undefined;
      return isApiError(cause) && cause.isNetworkError;
    },
    dropStaged: (fileIds) => {
      void loadDb()
        .then(async (db) => {
          const { deleteStagedFile } = await import('@/db/stagedChunks');
          for (const fileId of fileIds) await deleteStagedFile(db, fileId);
        })
        .catch(() => undefined);
    },
    spaceRefusal: async (bytes) => {
      const estimate = await readStorageEstimate();
      if (!estimate?.quota || estimate.usage === undefined) return null;
      const free = Math.max(0, estimate.quota - estimate.usage);
      return bytes > free ? notEnoughSpace(formatFileSize(bytes), formatFileSize(free)) : null;
    },
    randomId: () => crypto.randomUUID(),
    cancel: cancelUpload,
    notify: (kind, message) => (kind === 'error' ? notifyError(message) : notifyInfo(message)),
  },
  { noChanges: NO_CHANGES_DETECTED, cancelled: OPERATION_CANCELED },
);
