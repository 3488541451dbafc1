/** Rendering helpers for component tests: Mantine, TanStack Query and a memory router. */
import { MantineProvider } from '@mantine/core';
import { Notifications } from '@mantine/notifications';
import type { QueryClient } from '@tanstack/react-query';
import { QueryClientProvider } from '@tanstack/react-query';
import {
  Outlet,
  RouterProvider,
  createMemoryHistory,
  createRootRoute,
  createRouter,
  type AnyRouter,
} from '@tanstack/react-router';
import { render, screen } from '@testing-library/react';
import userEvent, { type UserEvent } from '@testing-library/user-event';
import type { ReactNode } from 'react';
import { createQueryClient } from '@/lib/queryClient';
import { parseSearch, stringifySearch } from '@/lib/search';
import { cssVariablesResolver, theme } from '@/theme/theme';
import { TOAST_HOST_PROPS, notifyError } from '@/lib/notify';

export function createTestQueryClient(): QueryClient {
  return createQueryClient(notifyError);
}

export function Providers({
  queryClient,
  children,
}: {
  queryClient: QueryClient;
  children: ReactNode;
}) {
  return (
    <MantineProvider theme={theme} cssVariablesResolver={cssVariablesResolver} env="test">
      <Notifications {...TOAST_HOST_PROPS} />
      <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>
    </MantineProvider>
  );
}

/**
 * The tests' user-event session. Its default pause (a macrotask per event) stays: with
 * `delay: null` a debounced search (ShareDialog) never saw the typed text, and the pause
 * cost no measurable time (issue 37's measurements, 2026-11-28).
 */
export function testUser() {
  return userEvent.setup();
}

/**
 * Puts `text` into `field` as a person pasting it: a click, then one input event. For tests
 * about what a field holds rather than about typing: `user.type` re-renders the form once per
 * character (seconds for an address on a busy 2-core machine, issue 37).
 */
export async function pasteInto(user: UserEvent, field: HTMLElement, text: string) {
  await user.click(field);
  await user.paste(text);
}

/** Renders `ui` on a one-route router at `path` (links render; navigation changes the location). */
export async function renderWithRouter(
  ui: ReactNode,
  {
    path = '/',
    queryClient = createTestQueryClient(),
  }: { path?: string; queryClient?: QueryClient } = {},
) {
  const rootRoute = createRootRoute({
    notFoundComponent: () => null,
    component: () => (
      <>
        {ui}
        <Outlet />
      </>
    ),
  });
  const router = createRouter({
    routeTree: rootRoute,
    history: createMemoryHistory({ initialEntries: [path] }),
    parseSearch,
    stringifySearch,
  });
  await router.load();
  const result = render(
    <Providers queryClient={queryClient}>
      <RouterProvider router={router as AnyRouter} />
    </Providers>,
  );
  return { ...result, router, queryClient, user: testUser() };
}

/** Renders a full app router (real route tree) at `path`. */
export async function renderRouter(router: AnyRouter, queryClient: QueryClient) {
  const result = render(
    <Providers queryClient={queryClient}>
      <RouterProvider router={router} />
    </Providers>,
  );
  return { ...result, router, queryClient, user: testUser() };
}

export { screen };
