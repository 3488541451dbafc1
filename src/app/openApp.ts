/** Opens the real app (route tree, session handling) at a path against a fake server. */
import { createMemoryHistory } from '@tanstack/react-router';
import { api } from '@/api';
import { createAppRouter } from './router';
import { handleSessionEnded } from './session';
import { fakeServer, type FakeHandler } from '@/test/fakeServer';
import { createTestQueryClient, renderRouter } from '@/test/render';

let unsubscribe: (() => void) | undefined;

export async function openApp(path: string, handlers: Record<string, FakeHandler>) {
  const server = fakeServer(handlers);
  const queryClient = createTestQueryClient();
  const router = createAppRouter(queryClient, createMemoryHistory({ initialEntries: [path] }));
  unsubscribe?.();
  unsubscribe = handleSessionEnded(api, queryClient, router);
  const view = await renderRouter(router, queryClient);
  return { ...view, server };
}

/** Stops the session-ended handler of the last opened app. */
export function closeApp(): void {
  unsubscribe?.();
  unsubscribe = undefined;
}
