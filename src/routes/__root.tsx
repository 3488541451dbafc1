import { Button, Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import {
  Outlet,
  createRootRouteWithContext,
  useRouter,
  type ErrorComponentProps,
} from '@tanstack/react-router';
import { loadSession } from '@/app/guards';
import type { RouterContext } from '@/app/routerContext';
import { INIT_FALLBACK, initQueryOptions } from '@/features/auth/api/init';
import { configQueryOptions } from '@/platform/config';
import { pingQueryOptions } from '@/platform/ping';
import { OnboardingLayout } from '@/features/shell/components/OnboardingLayout';
import { errorMessage } from '@/api';
import { showNoticeFromLastPage } from '@/lib/notify';
import { Suspense, lazy, useEffect } from 'react';

/** Loaded when a page is not found (issue 8's first-screen budget). */
const NotFoundPage = lazy(async () => ({
  default: (await import('@/features/shell/components/NotFoundPage')).NotFoundPage,
}));

export const Route = createRootRouteWithContext<RouterContext>()({
  // Application start (spec 000 §4): init (which also mints the CSRF token), ping and config.
  beforeLoad: async ({ context }) => {
    void context.queryClient.prefetchQuery(pingQueryOptions);
    void context.queryClient.prefetchQuery(configQueryOptions);
    await loadSession(context);
  },
  component: Root,
  notFoundComponent: NotFound,
  errorComponent: RootError,
});

function Root() {
  // A toast the page before a full reload left (e.g. 'Your account has been closed').
  useEffect(() => showNoticeFromLastPage(), []);
  return <Outlet />;
}

function NotFound() {
  const session = useQuery(initQueryOptions);
  return (
    <Suspense fallback={null}>
      <NotFoundPage loggedIn={session.data?.authenticated === true} />
    </Suspense>
  );
}

function RootError({ error }: ErrorComponentProps) {
  const router = useRouter();
  return (
    <OnboardingLayout title="Something went wrong">
      <Stack align="center" ta="center">
        <Text role="alert">{errorMessage(error, INIT_FALLBACK)}</Text>
        <Button variant="light" onClick={() => void router.invalidate()}>
          Try again
        </Button>
      </Stack>
    </OnboardingLayout>
  );
}
