/** POST /v2/projects/{id}/scheduleDelete: removes the project (204). */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/api';
import { REMOVE_PROJECT_FALLBACK } from '../model/project';

export async function scheduleProjectDelete(id: string): Promise<void> {
  await api.post(`/v2/projects/${encodeURIComponent(id)}/scheduleDelete`, undefined, {
    fallbackMessage: REMOVE_PROJECT_FALLBACK,
  });
}

export function useScheduleDeleteMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: ['projects', 'schedule-delete'],
    mutationFn: scheduleProjectDelete,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['projects'] }),
  });
}
