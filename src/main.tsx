/** Entry point: providers, router, session-ended handling and service-worker registration. */
// Mantine's base sheets; each component's own sheet comes with the component (vite.config.ts).
import '@mantine/core/styles/baseline.css';
import '@mantine/core/styles/default-css-variables.css';
import '@mantine/core/styles/global.css';
import '@mantine/notifications/styles.css';
import { MantineProvider } from '@mantine/core';
import { Notifications } from '@mantine/notifications';
import { QueryClientProvider } from '@tanstack/react-query';
import { RouterProvider } from '@tanstack/react-router';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { api } from './api';
import { createQueryClient } from './app/queryClient';
import { watchAppFirstScreen } from './app/firstScreen';
import { createAppRouter } from './app/router';
import { registerServiceWorker } from './app/serviceWorker';
import { handleSessionEnded } from './app/session';
import { cssVariablesResolver, theme } from './app/theme';
import { TOAST_HOST_PROPS } from './lib/notify';

const queryClient = createQueryClient();
const router = createAppRouter(queryClient);
handleSessionEnded(api, queryClient, router);
watchAppFirstScreen(router, queryClient);

const container = document.getElementById('root');
if (!container) throw new Error('index.html has no #root element');

createRoot(container).render(
  <StrictMode>
    <MantineProvider theme={theme} cssVariablesResolver={cssVariablesResolver}>
      <Notifications {...TOAST_HOST_PROPS} />
      <QueryClientProvider client={queryClient}>
        <RouterProvider router={router} />
      </QueryClientProvider>
    </MantineProvider>
  </StrictMode>,
);

registerServiceWorker();
