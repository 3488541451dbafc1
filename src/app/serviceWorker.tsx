/**
 * Service worker registration (production builds only) and the update prompt: when a new
 * version is waiting, a notification offers 'Reload', which activates it and reloads the page.
 */
import { Button, Group, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { Workbox } from 'workbox-window';
import type { ClientToServiceWorkerMessage } from '../sw/messages';

export const UPDATE_NOTIFICATION_ID = 'app-update';

/** The part of workbox-window's Workbox the prompt uses. */
export interface UpdateSource {
  addEventListener(type: 'waiting' | 'controlling', listener: () => void): void;
}

export interface UpdatePromptOptions {
  /** The waiting service worker, if any. */
  getWaiting: () => Promise<ServiceWorker | null | undefined>;
  reload?: () => void;
}

/** Shows the 'Reload' prompt whenever a new version waits; 'Reload' activates it, then reloads. */
export function promptOnUpdate(
  wb: UpdateSource,
  { getWaiting, reload }: UpdatePromptOptions,
): void {
  wb.addEventListener('waiting', () => {
    notifications.show({
      id: UPDATE_NOTIFICATION_ID,
      autoClose: false,
      withCloseButton: true,
      message: (
        <Group justify="space-between" wrap="nowrap" gap="md">
          <Text size="sm">A new version of Waymark is available.</Text>
          <Button
            size="xs"
            onClick={() => {
              notifications.hide(UPDATE_NOTIFICATION_ID);
              // Reload once the new worker has taken over the page.
              wb.addEventListener('controlling', reload ?? (() => window.location.reload()));
              const message: ClientToServiceWorkerMessage = { type: 'app/skip-waiting' };
              void getWaiting().then((waiting) => waiting?.postMessage(message));
            }}
          >
            Reload
          </Button>
        </Group>
      ),
    });
  });
}

export function registerServiceWorker(): void {
  if (!import.meta.env.PROD || !('serviceWorker' in navigator)) return;
  const wb = new Workbox('/sw.js', { scope: '/' });
  promptOnUpdate(wb, {
    getWaiting: async () => (await navigator.serviceWorker.getRegistration('/'))?.waiting,
  });
  void wb.register();
}
