import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { projectQueryKey } from '@/features/projects';
import { notifyError, notifySuccess } from '@/lib/notify';
import { editsConflicts, editsLanded, editsRefused } from '../model/texts';
import { onEditOutcome, startEditSync } from '../sync/instance';

/**
 * The edit sender of this page (loaded by EditSyncHost): started once; each batch that landed
 * refreshes the project's map, files and versions and says so (with the conflicts the server
 * recorded, which the conflicts inbox lists); a refused one says why (the Outbox keeps it).
 */
export function EditSyncRunner() {
  const queryClient = useQueryClient();
  useEffect(() => {
    startEditSync();
    return onEditOutcome((outcome) => {
      const [namespace = '', name = ''] = outcome.projectPath.split('/');
      if (outcome.kind === 'refused') {
        notifyError(editsRefused(outcome.projectPath, outcome.message));
        return;
      }
      void queryClient.invalidateQueries({ queryKey: ['map', namespace, name] });
      void queryClient.invalidateQueries({ queryKey: projectQueryKey(namespace, name) });
      const conflicts = outcome.result.conflicts.length;
      notifySuccess(
        `${editsLanded(outcome.projectPath, outcome.result.version)}${conflicts > 0 ? `. ${editsConflicts(conflicts)}` : ''}`,
      );
    });
  }, [queryClient]);
  return null;
}
