/**
 * The query client. Failed queries show their error as a toast (spec 000 §4: "a server error
 * placed in shared state shows an error notification and is then cleared"), except background
 * refetches of data already shown, 401s (the session-ended handler deals with those), network
 * failures while the browser is offline, network failures of queries marked
 * `meta.quietWhenUnreachable` (what the app reads for itself, such as the server's status and
 * configuration: on a link that is up but carries nothing, the pages' offline state tells it,
 * not a toast per call), and queries marked `meta.silent` that render their own error.
 */
import { MutationCache, QueryCache, QueryClient } from '@tanstack/react-query';
import { errorMessage, isApiError } from '@/api';
import { notifyError } from './notify';

declare module '@tanstack/react-query' {
  interface Register {
    queryMeta: { silent?: boolean; quietWhenUnreachable?: boolean };
    mutationMeta: { silent?: boolean };
  }
}

export function createQueryClient(onError: (message: string) => void = notifyError): QueryClient {
  return new QueryClient({
    queryCache: new QueryCache({
      onError(error, query) {
        if (query.meta?.silent) return;
        if (query.state.data !== undefined) return;
        if (isApiError(error) && error.status === 401) return;
        // The server not reached: offline, every call fails the same way (the app shows its
        // offline state instead), and the app's own reads no page waits on say nothing.
        const unreached = isApiError(error) && error.isNetworkError;
        if (
          unreached &&
          (globalThis.navigator?.onLine === false || query.meta?.quietWhenUnreachable)
        )
          return;
        onError(errorMessage(error, 'Request failed'));
      },
    }),
    mutationCache: new MutationCache(),
    defaultOptions: {
      // The API client owns retries (opt-in per call); the default client does none.
      queries: { retry: false, refetchOnWindowFocus: false },
      mutations: { retry: false },
    },
  });
}
