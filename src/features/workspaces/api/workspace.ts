/** GET /v1/workspace/:id: one workspace with fresh storage figures. */
import { queryOptions } from '@tanstack/react-query';
import { api } from '@/api';
import { WORKSPACES_FALLBACK, type Workspace } from './workspaces';

export function fetchWorkspace(id: number, signal?: AbortSignal): Promise<Workspace> {
  return api.get<Workspace>(`/v1/workspace/${encodeURIComponent(id)}`, {
    signal,
    fallbackMessage: WORKSPACES_FALLBACK,
  });
}

export const workspaceQueryOptions = (id: number) =>
  queryOptions({
    queryKey: ['workspaces', 'detail', id] as const,
    queryFn: ({ signal }) => fetchWorkspace(id, signal),
    staleTime: 60_000,
  });
