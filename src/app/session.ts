/**
 * What happens when the server says the session is gone (a 401 on any call, spec 000 §8): the
 * user is cleared and the current route's guards run again, so a page that needs a login sends
 * the visitor to /login?redirect=… while public pages stay where they are.
 */
import type { QueryClient } from '@tanstack/react-query';
import type { ApiClient } from '@/api';
import { endSession, isLoggedIn } from '@/features/auth/model/session';

export interface Invalidatable {
  invalidate(): Promise<unknown>;
}

export function handleSessionEnded(
  api: ApiClient,
  queryClient: QueryClient,
  router: Invalidatable,
): () => void {
  return api.onSessionEnded(() => {
    // A 401 while signed out (e.g. wrong credentials on the sign-in form) ends nothing.
    if (!isLoggedIn(queryClient)) return;
    endSession(queryClient);
    void router.invalidate();
  });
}
