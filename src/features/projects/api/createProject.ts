/** POST /v1/project/{namespace}: a new, empty, private project (spec 001 §3 payload). */
import type { CreateProjectBody } from '@contract/projects';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/api';
import { CREATE_PROJECT_FALLBACK } from '../model/project';

export interface CreateProjectArgs {
  namespace: string;
  name: string;
}

export async function createProject({ namespace, name }: CreateProjectArgs): Promise<void> {
  await api.post(
    `/v1/project/${encodeURIComponent(namespace)}`,
    { name: name.trim(), public: false } satisfies CreateProjectBody,
    { fallbackMessage: CREATE_PROJECT_FALLBACK },
  );
}

export function useCreateProjectMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: ['projects', 'create'],
    mutationFn: createProject,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['projects'] }),
  });
}
