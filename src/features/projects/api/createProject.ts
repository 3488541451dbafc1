/**
 * POST /v1/project/{namespace}: a new private project (spec 001 §3 payload), empty or with a
 * community template's files as its first version.
 */
import type { CreateProjectBody } from '@contract/projects';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/api';
import { CREATE_PROJECT_FALLBACK } from '../model/project';

export interface CreateProjectArgs {
  namespace: string;
  name: string;
  /** Name of a community template (GET /app/project/templates) to start from. */
  template?: string | null;
}

export async function createProject({
  namespace,
  name,
  template,
}: CreateProjectArgs): Promise<void> {
  const body: CreateProjectBody = { name: name.trim(), public: false };
  if (template) body.template = template;
  await api.post(`/v1/project/${encodeURIComponent(namespace)}`, body, {
    fallbackMessage: CREATE_PROJECT_FALLBACK,
  });
}

export function useCreateProjectMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: ['projects', 'create'],
    mutationFn: createProject,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['projects'] }),
  });
}
