/** POST /app/project/access-request/{namespace}/{project}: asks the owners for access. */
import { useMutation } from '@tanstack/react-query';
import { api } from '@/api';
import { REQUEST_ACCESS_FALLBACK } from '../model/project';

export async function requestAccess(args: { namespace: string; name: string }): Promise<void> {
  await api.post(
    `/app/project/access-request/${encodeURIComponent(args.namespace)}/${encodeURIComponent(args.name)}`,
    undefined,
    { fallbackMessage: REQUEST_ACCESS_FALLBACK },
  );
}

export function useRequestAccessMutation() {
  return useMutation({ mutationKey: ['projects', 'request-access'], mutationFn: requestAccess });
}
