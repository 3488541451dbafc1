/** GET /config: instance configuration (documentation address, global roles...). */
import { queryOptions } from '@tanstack/react-query';
import type { InstanceConfig } from '@contract/instance';
import { api } from '@/api';

/** What the app reads of GET /config (an older server may leave keys out). */
export type ConfigData = Pick<
  InstanceConfig,
  'docs_url' | 'global_read' | 'global_write' | 'global_admin'
> &
  Partial<
    Pick<
      InstanceConfig,
      | 'server_type'
      | 'version'
      | 'user_self_registration'
      | 'blacklist_dirs'
      | 'blacklist_files'
      // The help menu's Community chat; the entry is disabled without it.
      | 'community_url'
      | 'workspace_creation'
      // The map's basemap (issue 19); none when unset.
      | 'basemap'
      // The OpenID Connect provider's sign-in button (issue 33); none when unset.
      | 'oidc'
    >
  >;

export const CONFIG_FALLBACK = 'Failed to fetch config data.';

export async function fetchConfig(signal?: AbortSignal): Promise<ConfigData> {
  const data = await api.get<Partial<ConfigData> | undefined>('/config', {
    signal,
    fallbackMessage: CONFIG_FALLBACK,
  });
  return {
    ...data,
    docs_url: typeof data?.docs_url === 'string' ? data.docs_url : '',
    global_read: data?.global_read === true,
    global_write: data?.global_write === true,
    global_admin: data?.global_admin === true,
    community_url: typeof data?.community_url === 'string' ? data.community_url : undefined,
  };
}

export const configQueryOptions = queryOptions({
  queryKey: ['platform', 'config'] as const,
  queryFn: ({ signal }) => fetchConfig(signal),
  staleTime: Infinity,
});
