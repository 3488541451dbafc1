/**
 * When the first screen has rendered (issue 8's bundle budget: what it needs is what the page
 * loads before then): the router has resolved its first navigation and no query is fetching.
 * Work that needs Dexie but not the screen (src/db/afterFirstScreen.ts) waits for it.
 */
import type { QueryClient } from '@tanstack/react-query';
import { watchFirstScreen } from '@/db/afterFirstScreen';
import type { AppRouter } from './router';

export function watchAppFirstScreen(router: AppRouter, queryClient: QueryClient): void {
  let resolved = false;
  const listeners = new Set<() => void>();
  const stopRouter = router.subscribe('onResolved', () => {
    resolved = true;
    stopRouter();
    for (const listener of listeners) listener();
  });
  watchFirstScreen({
    busy: () => !resolved || router.state.status !== 'idle' || queryClient.isFetching() > 0,
    subscribe(check) {
      listeners.add(check);
      const stopQueries = queryClient.getQueryCache().subscribe(check);
      return () => {
        listeners.delete(check);
        stopQueries();
      };
    },
    // Any navigation after the first one leaves the first screen.
    onLeave: (leave) => router.subscribe('onBeforeNavigate', () => resolved && leave()),
  });
}
