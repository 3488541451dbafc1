/** Entry point: providers, router, session-ended handling and service-worker registration. */
// Mantine's base sheets; each component's own sheet comes with the component (vite.config.ts),
// the notifications sheet with the toast host (app/ToastHost.tsx).
import '@mantine/core/styles/baseline.css';
import '@mantine/core/styles/default-css-variables.css';
import '@mantine/core/styles/global.css';
import { MantineProvider } from '@mantine/core';
import { QueryClientProvider } from '@tanstack/react-query';
import { RouterProvider } from '@tanstack/react-router';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { api } from './api';
import { createQueryClient } from './app/queryClient';
import { watchAppFirstScreen } from './app/firstScreen';
import { LazyToastHost } from './app/LazyToastHost';
import { createAppRouter } from './app/router';
import { registerServiceWorker } from './app/serviceWorker';
import { handleSessionEnded } from './app/session';
import { cssVariablesResolver, theme } from './app/theme';

const queryClient = createQueryClient();
const router = createAppRouter(queryClient);
handleSessionEnded(api, queryClient, router);
watchAppFirstScreen(router, queryClient);

const container = document.getElementById('root');
if (!container) throw new Error('index.html has no #root element');

createRoot(container).render(
  <StrictMode>
    <MantineProvider theme={theme} cssVariablesResolver={cssVariablesResolver}>
      <LazyToastHost />
      <QueryClientProvider client={queryClient}>
        <RouterProvider router={router} />
      </QueryClientProvider>
    </MantineProvider>
  </StrictMode>,
);

registerServiceWorker();
