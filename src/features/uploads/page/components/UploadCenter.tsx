import { notifyManager, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { notifyError, notifySuccess, notifyWarning } from '@/lib/notify';
import { addOutboxNotice } from '@/offline/outboxNotices';
import { profileQueryOptions } from '@/features/auth';
import { versionsQueryKey } from '@/features/history';
import { showLandedVersion } from '@/features/projects';
import {
  cancelUpload,
  dismissUpload,
  onUploadSettled,
  retryUpload,
  startUploadEngine,
  useUploads,
} from '../engine';
import { describeFileOutcome } from '../../model/offlineRebase';
import { needsAttention, noVersionMade, versionMade } from '../../model/landed';
import { OPERATION_CANCELED, PROJECT_UPDATED, uploadFinished } from '../../model/texts';
import type { UploadOutcome } from '../../model/types';
import { usePendingUploads } from '../state/usePendingUploads';
import { UploadsToast } from './UploadsToast';

function splitPath(projectPath: string): [string, string] {
  const slash = projectPath.indexOf('/');
  return [projectPath.slice(0, slash), projectPath.slice(slash + 1)];
}

type Landed = Extract<UploadOutcome, { kind: 'finished' | 'updated' }>;

/**
 * The message of a landed upload; for one queued offline also what happened to each file (a
 * rebase may have uploaded a conflicted copy or kept a file the server changed).
 */
function outcomeMessage(outcome: Landed) {
  const title = !versionMade(outcome.files)
    ? noVersionMade(outcome.projectPath)
    : outcome.kind === 'finished'
      ? uploadFinished(outcome.projectPath)
      : PROJECT_UPDATED;
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
 * A landed upload is told: as the spec's success when it did what was asked, otherwise as a
 * warning that stays readable in the Outbox until dismissed (issue 31).
 */
function tellLanded(outcome: Landed): void {
  const message = outcomeMessage(outcome);
  if (!needsAttention(outcome.files)) {
    notifySuccess(message);
    return;
  }
  notifyWarning(message);
  addOutboxNotice({
    id: outcome.id,
    projectPath: outcome.projectPath,
    kind: outcome.kind,
    at: Date.now(),
    versionMade: versionMade(outcome.files),
    files: outcome.files ?? [],
  });
}

/**
 * Mounted once by the shell's UploadCenterHost when uploads are wanted (loaded lazily with the
 * engine): starts the upload engine (stored uploads resume), shows the 'Uploading data to
 * projects' toast, and reacts to each outcome: the message of spec 001 §4, the project
 * replaced with the new version at once wherever it shows (files, history, project lists: no
 * moment of the older version or of an empty list between the pending files and the new
 * ones), and the profile refetched.
 */
export function UploadCenter() {
  const queryClient = useQueryClient();
  const store = usePendingUploads();
  const uploads = useUploads();

  useEffect(() => {
    // Browsers without workers (and the jsdom of unit tests) cannot run the engine.
    if (typeof Worker !== 'undefined') startUploadEngine();
    return onUploadSettled((outcome: UploadOutcome) => {
      const [namespace, name] = splitPath(outcome.projectPath);
      switch (outcome.kind) {
        case 'finished':
        case 'updated':
          // The pending files give way to the landed version in one render.
          notifyManager.batch(() => {
            showLandedVersion(queryClient, namespace, name, outcome.project);
            notifyManager.schedule(() => store.settled(outcome.id));
          });
          tellLanded(outcome);
          void queryClient.invalidateQueries({ queryKey: versionsQueryKey(namespace, name) });
          void queryClient.invalidateQueries({ queryKey: profileQueryOptions.queryKey });
          break;
        case 'failed':
          store.settled(outcome.id);
          notifyError(outcome.error);
          break;
        case 'cancelled':
          store.settled(outcome.id);
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
