/** POST /app/project/access-request/accept/{id} {permissions}: grants the requested access. */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/api';
import {
  ACCEPT_ACCESS_REQUEST_FALLBACK,
  ACCESS_REQUESTS_KEY,
  type AccessPermission,
} from '../model/accessRequest';

export interface AcceptAccessRequestArgs {
  id: number;
  permissions: AccessPermission;
}

export async function acceptAccessRequest({
  id,
  permissions,
}: AcceptAccessRequestArgs): Promise<void> {
  await api.post(
    `/app/project/access-request/accept/${encodeURIComponent(id)}`,
    { permissions },
    { fallbackMessage: ACCEPT_ACCESS_REQUEST_FALLBACK },
  );
}

export function useAcceptAccessRequestMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: [...ACCESS_REQUESTS_KEY, 'accept'],
    mutationFn: acceptAccessRequest,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ACCESS_REQUESTS_KEY }),
  });
}
