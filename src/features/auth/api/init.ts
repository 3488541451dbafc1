/** GET /app/init: session bootstrap (authenticated, superuser); its response mints the CSRF token. */
import { queryOptions } from '@tanstack/react-query';
import { ApiError, api } from '@/api';
import { lastInit, rememberInit } from '@/offline/lastInit';

export type { Init as InitData } from '@contract/instance';
import type { Init as InitData } from '@contract/instance';

export const ANONYMOUS: InitData = { authenticated: false, superuser: false };
export const INIT_FALLBACK = 'Failed to init application.';

/**
 * Asks the server who is logged in. When the server cannot be reached (offline), the app still
 * starts, as the visitor last known in this browser or anonymous (src/offline/lastInit.ts).
 */
export async function fetchInit(signal?: AbortSignal): Promise<InitData> {
  let data: InitData;
  try {
    data = await api.get<InitData>('/app/init', {
      signal,
      fallbackMessage: INIT_FALLBACK,
    });
  } catch (error) {
    if (error instanceof ApiError && error.isNetworkError && !signal?.aborted) {
      return lastInit() ?? ANONYMOUS;
    }
    throw error;
  }
  // Only the contract's two fields are remembered (the answer may carry more).
  const init = { authenticated: data.authenticated, superuser: data.superuser };
  rememberInit(init);
  return init;
}

export const initQueryOptions = queryOptions({
  queryKey: ['auth', 'init'] as const,
  queryFn: ({ signal }) => fetchInit(signal),
  // Changes only on sign-in, sign-out and session end, which update it explicitly.
  staleTime: Infinity,
});
