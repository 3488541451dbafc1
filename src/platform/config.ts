/** GET /config: instance configuration (documentation address, global roles...). */
import { queryOptions } from '@tanstack/react-query';
import type { InstanceConfig } from '@contract/instance';
import { api } from '@/api';

export const CONFIG_FALLBACK = 'Failed to fetch config data.';

/** The answer as the response schema declares it (`@contract/instance`). */
export function fetchConfig(signal?: AbortSignal): Promise<InstanceConfig> {
  return api.get<InstanceConfig>('/config', { signal, fallbackMessage: CONFIG_FALLBACK });
}

export const configQueryOptions = queryOptions({
  queryKey: ['platform', 'config'] as const,
  // Read by the app for itself: an unreachable server is shown by the offline state, not a toast.
  meta: { quietWhenUnreachable: true },
  queryFn: ({ signal }) => fetchConfig(signal),
  staleTime: Infinity,
});
