/**
 * The actions that make a new version (restore a version or a file, resolve a conflict): one
 * POST each, answered 201 with the new version (`NewVersion`). Each request carries its own
 * `Mm-push-id`, so a retry after a lost answer returns the first request's version instead of
 * making another; afterwards the project, its versions and its conflicts are read again.
 */
import type { NewVersion } from '@contract/restore';
import type { ResolveConflictBody } from '@contract/conflicts';
import type { RestoreFileBody, RestoreVersionBody } from '@contract/restore';
import { PUSH_ID_HEADER } from '@contract/protocol';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { RETRYABLE_STATUSES, api } from '@/api';
import { versionsQueryKey } from '@/features/history';
import { projectQueryKey } from '@/features/projects';
import { RESOLVE_FALLBACK, RESTORE_FALLBACK } from '../model/texts';
import { conflictsQueryKey } from './conflicts';
import { resolveConflictPath, restoreFilePath, restoreVersionPath } from './paths';

export type NewVersionAction =
  | { kind: 'restore-version'; body: RestoreVersionBody }
  | { kind: 'restore-file'; body: RestoreFileBody }
  | { kind: 'resolve-conflict'; body: ResolveConflictBody };

function target(namespace: string, name: string, action: NewVersionAction) {
  switch (action.kind) {
    case 'restore-version':
      return { path: restoreVersionPath(namespace, name), fallback: RESTORE_FALLBACK };
    case 'restore-file':
      return { path: restoreFilePath(namespace, name), fallback: RESTORE_FALLBACK };
    case 'resolve-conflict':
      return { path: resolveConflictPath(namespace, name), fallback: RESOLVE_FALLBACK };
  }
}

export async function makeNewVersion(
  namespace: string,
  name: string,
  action: NewVersionAction,
  pushId: string = crypto.randomUUID(),
): Promise<NewVersion> {
  const { path, fallback } = target(namespace, name, action);
  return api.post<NewVersion>(path, action.body, {
    headers: { [PUSH_ID_HEADER]: pushId },
    // Safe to repeat: the push id makes a repeated request answer the first one's version. A
    // 409 is another push holding the project for a moment.
    retry: { retries: 3, statuses: [...RETRYABLE_STATUSES, 409] },
    fallbackMessage: fallback,
  });
}

export function useNewVersionMutation(namespace: string, name: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: ['timetravel', 'new-version', namespace, name],
    mutationFn: (action: NewVersionAction) => makeNewVersion(namespace, name, action),
    onSettled: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: projectQueryKey(namespace, name) }),
        queryClient.invalidateQueries({ queryKey: versionsQueryKey(namespace, name) }),
        queryClient.invalidateQueries({ queryKey: conflictsQueryKey(namespace, name) }),
      ]),
  });
}
