/** POST /app/project/unsubscribe/{id}: the user leaves the project. */
import { useMutation } from '@tanstack/react-query';
import { api } from '@/api';
import { UNSUBSCRIBE_FALLBACK } from '../model/project';

export async function unsubscribeFromProject(id: string): Promise<void> {
  await api.post(`/app/project/unsubscribe/${encodeURIComponent(id)}`, undefined, {
    fallbackMessage: UNSUBSCRIBE_FALLBACK,
  });
}

export function useUnsubscribeMutation() {
  return useMutation({
    mutationKey: ['projects', 'unsubscribe'],
    mutationFn: unsubscribeFromProject,
  });
}
