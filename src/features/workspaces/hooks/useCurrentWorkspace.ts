/**
 * The current workspace of the logged user (spec 000 §4), remembered per user on this device
 * (Dexie lastWorkspace). Re-checked whenever the user id changes; the memory is cleared when the
 * user has no workspace.
 */
import { queryOptions, useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect } from 'react';
import { forgetWorkspace, getLastWorkspace, rememberWorkspace } from '@/db/lastWorkspace';
import { workspacesQueryOptions, type Workspace } from '../api/workspaces';
import { pickCurrentWorkspace } from '../model/currentWorkspace';

export interface WorkspaceUser {
  id: number;
  preferred_workspace?: number | null;
}

export const lastWorkspaceQueryOptions = (userId: number) =>
  queryOptions({
    queryKey: ['workspaces', 'last-seen', userId] as const,
    queryFn: async () => (await getLastWorkspace(userId)) ?? null,
    staleTime: Infinity,
    // Reads IndexedDB only: it never waits for a connection.
    networkMode: 'always',
    meta: { silent: true },
  });

export interface CurrentWorkspace {
  /** The current workspace, null when the user has none (or it is still loading). */
  workspace: Workspace | null;
  workspaces: Workspace[];
  isLoading: boolean;
  /** The workspace list could not be loaded ('Failed to load workspace(s)' was shown). */
  isError: boolean;
  /** Makes `id` the current workspace for this user. */
  setCurrentWorkspace: (id: number) => Promise<void>;
}

export function useCurrentWorkspace(user: WorkspaceUser | null | undefined): CurrentWorkspace {
  const queryClient = useQueryClient();
  const userId = user?.id ?? -1;
  const workspacesQuery = useQuery({ ...workspacesQueryOptions, enabled: user != null });
  const lastQuery = useQuery({ ...lastWorkspaceQueryOptions(userId), enabled: user != null });

  const workspaces = workspacesQuery.data;
  // An unreadable memory (e.g. storage disabled) counts as "nothing remembered".
  const ready = user != null && workspaces !== undefined && lastQuery.isFetched;
  const workspace = ready
    ? pickCurrentWorkspace(workspaces, lastQuery.data?.id, user.preferred_workspace)
    : null;
  const rememberedId = lastQuery.data?.id;
  const currentId = workspace?.id;

  useEffect(() => {
    if (!ready || !lastQuery.isSuccess) return;
    const key = lastWorkspaceQueryOptions(userId).queryKey;
    if (currentId !== undefined && rememberedId !== currentId) {
      void rememberWorkspace(userId, currentId).then((entry) =>
        queryClient.setQueryData(key, entry),
      );
    } else if (currentId === undefined && rememberedId !== undefined) {
      void forgetWorkspace(userId).then(() => queryClient.setQueryData(key, null));
    }
  }, [ready, lastQuery.isSuccess, userId, currentId, rememberedId, queryClient]);

  const setCurrentWorkspace = useCallback(
    async (id: number) => {
      if (userId < 0) return;
      const entry = await rememberWorkspace(userId, id);
      queryClient.setQueryData(lastWorkspaceQueryOptions(userId).queryKey, entry);
    },
    [userId, queryClient],
  );

  return {
    workspace,
    workspaces: workspaces ?? [],
    isLoading: user != null && !ready && !workspacesQuery.isError,
    isError: workspacesQuery.isError,
    setCurrentWorkspace,
  };
}
