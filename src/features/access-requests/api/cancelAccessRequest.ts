/** DELETE /app/project/access-request/{id}: cancels (declines) an access request. */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/api';
import { ACCESS_REQUESTS_KEY, CANCEL_ACCESS_REQUEST_FALLBACK } from '../model/accessRequest';

export async function cancelAccessRequest(id: number): Promise<void> {
  await api.delete(`/app/project/access-request/${encodeURIComponent(id)}`, {
    fallbackMessage: CANCEL_ACCESS_REQUEST_FALLBACK,
  });
}

export function useCancelAccessRequestMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: [...ACCESS_REQUESTS_KEY, 'cancel'],
    mutationFn: cancelAccessRequest,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ACCESS_REQUESTS_KEY }),
  });
}
