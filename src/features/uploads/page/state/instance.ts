/** The app's pending uploads, wired to the hashing worker, the project API and the engine. */
import { errorMessage } from '@/api';
import { hashClient } from '@/lib/hashWorker';
import { notifyError, notifyInfo } from '@/lib/notify';
import { fetchProject } from '@/features/projects';
import { LOAD_PROJECT_FALLBACK } from '@/features/projects';
import { cancelUpload, enqueueUpload } from '../engine';
import { NO_CHANGES_DETECTED, OPERATION_CANCELED } from '../../model/texts';
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
    randomId: () => crypto.randomUUID(),
    cancel: cancelUpload,
    notify: (kind, message) => (kind === 'error' ? notifyError(message) : notifyInfo(message)),
  },
  { noChanges: NO_CHANGES_DETECTED, cancelled: OPERATION_CANCELED },
);
