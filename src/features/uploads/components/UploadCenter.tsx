import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { notifyError, notifySuccess } from '../../../lib/notify';
import { profileQueryOptions } from '../../auth/api/profile';
import { projectQueryKey } from '../../projects/api/project';
import {
  cancelUpload,
  dismissUpload,
  onUploadSettled,
  retryUpload,
  startUploadEngine,
  useUploads,
} from '../engine';
import { dropRefusal } from '../model/dropRules';
import { OPERATION_CANCELED, PROJECT_UPDATED, uploadFinished } from '../model/texts';
import type { UploadOutcome } from '../model/types';
import { usePendingUploads } from '../state/usePendingUploads';
import { UploadsToast } from './UploadsToast';

function splitPath(projectPath: string): [string, string] {
  const slash = projectPath.indexOf('/');
  return [projectPath.slice(0, slash), projectPath.slice(slash + 1)];
}

/**
 * Mounted once in the app shell: starts the upload engine (stored uploads resume), shows the
 * 'Uploading data to projects' toast, and reacts to each outcome: the message of spec 001 §4,
 * the project replaced (refetched) and the profile refetched. It also refuses file drops away
 * from project-tree.
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
          notifySuccess(
            outcome.kind === 'finished' ? uploadFinished(outcome.projectPath) : PROJECT_UPDATED,
          );
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

  // Drops that no project Files tab took (any other screen) are refused, never opened by the
  // browser in place of the app.
  useEffect(() => {
    const isFileDrag = (event: DragEvent) =>
      Array.from(event.dataTransfer?.types ?? []).includes('Files');
    const onDragOver = (event: DragEvent) => {
      if (event.defaultPrevented || !isFileDrag(event)) return;
      // Taken (not refused with dropEffect 'none'), so the drop can explain the refusal.
      event.preventDefault();
    };
    const onDrop = (event: DragEvent) => {
      if (event.defaultPrevented || !isFileDrag(event)) return;
      event.preventDefault();
      notifyError(
        dropRefusal({ canUpload: false, onProjectTree: false, running: false }) as string,
      );
    };
    window.addEventListener('dragover', onDragOver);
    window.addEventListener('drop', onDrop);
    return () => {
      window.removeEventListener('dragover', onDragOver);
      window.removeEventListener('drop', onDrop);
    };
  }, []);

  return (
    <UploadsToast
      uploads={uploads}
      onCancel={(id) => void cancelUpload(id)}
      onRetry={(id) => void retryUpload(id)}
      onDismiss={(id) => void dismissUpload(id)}
    />
  );
}
