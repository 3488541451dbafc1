/** PUT /v1/project/{namespace}/{name} {access: {public}}: makes the project public or private. */
import type { AccessSettings } from '@contract/projects';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/api';
import { PROJECT_KEY, SAVE_SETTINGS_FALLBACK } from '../model/project';
import { projectPath } from './project';

export interface ProjectVisibilityArgs {
  namespace: string;
  name: string;
  public: boolean;
}

export async function updateProjectVisibility(args: ProjectVisibilityArgs): Promise<void> {
  await api.put(
    projectPath(args.namespace, args.name),
    { access: { public: args.public } satisfies AccessSettings },
    { fallbackMessage: SAVE_SETTINGS_FALLBACK },
  );
}

export function useUpdateProjectVisibilityMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: ['projects', 'settings'],
    mutationFn: updateProjectVisibility,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: PROJECT_KEY }),
  });
}
