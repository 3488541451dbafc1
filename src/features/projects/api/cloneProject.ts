/** POST /v1/project/clone/{namespace}/{project}: copies a project into a workspace. */
import type { CloneBody } from '@contract/projects';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/api';
import { CLONE_PROJECT_FALLBACK } from '../model/project';

export interface CloneProjectArgs {
  /** The source project. */
  namespace: string;
  name: string;
  /** Where the copy goes. */
  targetNamespace: string;
  targetName: string;
}

export async function cloneProject(args: CloneProjectArgs): Promise<void> {
  await api.post(
    `/v1/project/clone/${encodeURIComponent(args.namespace)}/${encodeURIComponent(args.name)}`,
    { namespace: args.targetNamespace, project: args.targetName.trim() } satisfies CloneBody,
    { fallbackMessage: CLONE_PROJECT_FALLBACK },
  );
}

export function useCloneProjectMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: ['projects', 'clone'],
    mutationFn: cloneProject,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['projects', 'paginated'] }),
  });
}
