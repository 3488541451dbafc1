import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { notifyError, notifySuccess } from '@/lib/notify';
import { profileQueryOptions } from '@/features/auth';
import { projectQueryKey } from '@/features/projects';
import {
  cancelUpload,
  dismissUpload,
  onUploadSettled,
  retryUpload,
  startUploadEngine,
  useUploads,
} from '../engine';
import { describeFileOutcome } from '../../model/offlineRebase';
import { OPERATION_CANCELED, PROJECT_UPDATED, uploadFinished } from '../../model/texts';
import type { UploadOutcome } from '../../model/types';
import { usePendingUploads } from '../state/usePendingUploads';
import { UploadsToast } from './UploadsToast';

function splitPath(projectPath: string): [string, string] {
  const slash = projectPath.indexOf('/');
  return [projectPath.slice(0, slash), projectPath.slice(slash + 1)];
}

/**
 * The message of a landed upload; for one queued offline also what happened to each file (a
 * rebase may have uploaded a conflicted copy or kept a file the server changed).
 */
function outcomeMessage(outcome: Extract<UploadOutcome, { kind: 'finished' | 'updated' }>) {
  const title = outcome.kind === 'finished' ? uploadFinished(outcome.projectPath) : PROJECT_UPDATED;
  if (!outcome.files?.length) return title;
  return (
    <>
      <div>{title}</div>
      <ul style={{ margin: 0, paddingLeft: '1.2em' }}>
        {outcome.files.map((file) => (
          <li key={file.path}>{describeFileOutcome(file)}</li>
        ))}
      </ul>
    </>
  );
}

/**
 * Mounted once by the shell's UploadCenterHost when uploads are wanted (loaded lazily with the
 * engine): starts the upload engine (stored uploads resume), shows the 'Uploading data to
 * projects' toast, and reacts to each outcome: the message of spec 001 §4, the project
 * replaced (refetched) and the profile refetched.
 */
export function UploadCenter() {
  const queryClient = useQueryClient();
  const store = usePendingUploads();
  const uploads = useUploads();

  useEffect(() => {
    // Browsers without workers (and the jsdom of unit tests) cannot run the engine.
    if (typeof Worker !== 'undefined') startUploadEngine();
    return onUploadSettled((outcome: UploadOutcome) => {
      store.settled(outcome.id);
      const [namespace, name] = splitPath(outcome.projectPath);
      switch (outcome.kind) {
        case 'finished':
        case 'updated':
          notifySuccess(outcomeMessage(outcome));
          void queryClient.invalidateQueries({ queryKey: projectQueryKey(namespace, name) });
          void queryClient.invalidateQueries({ queryKey: profileQueryOptions.queryKey });
          break;
        case 'failed':
          notifyError(outcome.error);
          break;
        case 'cancelled':
          notifyError(OPERATION_CANCELED);
          break;
      }
    });
  }, [queryClient, store]);

  return (
    <UploadsToast
      uploads={uploads}
      onCancel={(id) => void cancelUpload(id)}
      onRetry={(id) =>
        void retryUpload(id).catch((error: unknown) =>
          notifyError(error instanceof Error ? error.message : String(error)),
        )
      }
      onDismiss={(id) => void dismissUpload(id)}
    />
  );
}
