/** GET /app/init: session bootstrap (authenticated, superuser); its response mints the CSRF token. */
import { queryOptions } from '@tanstack/react-query';
import { api } from '../../../api';

export interface InitData {
  authenticated: boolean;
  superuser: boolean;
}

export const ANONYMOUS: InitData = { authenticated: false, superuser: false };
export const INIT_FALLBACK = 'Failed to init application.';

export async function fetchInit(signal?: AbortSignal): Promise<InitData> {
  const data = await api.get<Partial<InitData> | undefined>('/app/init', {
    signal,
    fallbackMessage: INIT_FALLBACK,
  });
  return { authenticated: data?.authenticated === true, superuser: data?.superuser === true };
}

export const initQueryOptions = queryOptions({
  queryKey: ['auth', 'init'] as const,
  queryFn: ({ signal }) => fetchInit(signal),
  // Changes only on sign-in, sign-out and session end, which update it explicitly.
  staleTime: Infinity,
});
