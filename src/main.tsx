/** Entry point: providers, router, session-ended handling and service-worker registration. */
// Mantine's base sheets; each component's own sheet comes with the component (vite.config.ts),
// the notifications sheet with the toast host (components/ToastHost.tsx). The theme's CSS
// variables are all written by MantineProvider (`deduplicateCssVariables={false}`) from the code
// it runs anyway, instead of also loading Mantine's default-css-variables.css (issue 8's bundle
// budget).
import '@mantine/core/styles/baseline.css';
import '@mantine/core/styles/global.css';
import { MantineProvider } from '@mantine/core';
import { QueryClientProvider } from '@tanstack/react-query';
import { RouterProvider } from '@tanstack/react-router';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { api } from '@/api';
import { createQueryClient } from '@/lib/queryClient';
import { watchAppFirstScreen } from '@/app/firstScreen';
import { LazyToastHost } from '@/components/LazyToastHost';
import { createAppRouter } from '@/app/router';
import { handleSessionEnded } from '@/app/session';
import { afterFirstScreen } from '@/db/afterFirstScreen';
import { cssVariablesResolver, theme } from '@/theme/theme';

const queryClient = createQueryClient();
const router = createAppRouter(queryClient);
handleSessionEnded(api, queryClient, router);
watchAppFirstScreen(router, queryClient);

// The page's width does not depend on whether it scrolls: a screen that grows a scrollbar
// (a toolbar wrapping, the Map tab at 768 px) keeps the width its first tiles were fetched for
// (features/map/preload.ts measures it on the tab before).
document.documentElement.style.scrollbarGutter = 'stable';

const container = document.getElementById('root');
if (!container) throw new Error('index.html has no #root element');

createRoot(container).render(
  <StrictMode>
    <MantineProvider
      theme={theme}
      cssVariablesResolver={cssVariablesResolver}
      deduplicateCssVariables={false}
    >
      <LazyToastHost />
      <QueryClientProvider client={queryClient}>
        <RouterProvider router={router} />
      </QueryClientProvider>
    </MantineProvider>
  </StrictMode>,
);

// The service worker registers once the first screen has rendered (issue 8's bundle budget:
// workbox-window and the update prompt are not needed before); it then precaches in the
// background, as before.
// Not on the embed page of a public map (in other sites' frames): nothing there is offline,
// and its frame permission comes from the server's answer, not from a cached copy.
if (!location.pathname.startsWith('/embed/')) {
  void afterFirstScreen(async () => {
    (await import('@/app/serviceWorker')).registerServiceWorker();
  });
}
