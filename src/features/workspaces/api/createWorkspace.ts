/** POST /v1/workspace: a workspace of the user's own, where the server allows it (/config). */
import type { CreateWorkspace } from '@contract/workspaces';
import { api } from '@/api';
import type { Workspace } from './workspaces';

export const CREATE_WORKSPACE_FALLBACK = 'Failed to create workspace';

export function createWorkspace(body: CreateWorkspace): Promise<Workspace> {
  return api.post<Workspace>('/v1/workspace', body, {
    fallbackMessage: CREATE_WORKSPACE_FALLBACK,
  });
}
