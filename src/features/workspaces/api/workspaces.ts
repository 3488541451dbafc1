/** GET /v1/workspaces: the workspaces of the logged user, with storage figures. */
import { queryOptions } from '@tanstack/react-query';
import { api } from '@/api';
import { withOfflineCopy } from '@/offline/instance';

export type { Workspace } from '@contract/workspaces';
import type { Workspace } from '@contract/workspaces';

export const WORKSPACES_FALLBACK = 'Failed to load workspace(s)';

/** Kept as the user's private offline copy, so the shell knows the workspace offline. */
export function fetchWorkspaces(signal?: AbortSignal): Promise<Workspace[]> {
  return withOfflineCopy('workspaces', async () => {
    const data = await api.get<Workspace[] | undefined>('/v1/workspaces', {
      signal,
      fallbackMessage: WORKSPACES_FALLBACK,
    });
    return Array.isArray(data) ? data : [];
  });
}

export const workspacesQueryOptions = queryOptions({
  queryKey: ['workspaces', 'list'] as const,
  queryFn: ({ signal }) => fetchWorkspaces(signal),
  staleTime: 60_000,
  // Runs offline too (answered from the offline copy) instead of waiting for a connection.
  networkMode: 'always',
});
