/**
 * Service worker registration (production builds only) and the update prompt: when a new
 * version is waiting, a notification offers 'Reload', which activates it and reloads the page.
 */
import { Button, Group, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { Workbox } from 'workbox-window';
import { syncOfflineOwner } from '@/offline/owner';

export const UPDATE_NOTIFICATION_ID = 'app-update';

export const UPDATE_AVAILABLE = 'A new version of Waymark is available.';
export const UPDATE_RELOAD = 'Reload';

/** The part of workbox-window's Workbox the prompt uses. */
export interface UpdateSource {
  addEventListener(type: 'waiting' | 'controlling', listener: () => void): void;
  /** Posts `{ type: 'SKIP_WAITING' }` to the waiting worker (src/sw/sw.ts activates it). */
  messageSkipWaiting(): void;
}

export interface UpdatePromptOptions {
  reload?: () => void;
}

/** Shows the 'Reload' prompt whenever a new version waits; 'Reload' activates it, then reloads. */
export function promptOnUpdate(
  wb: UpdateSource,
  { reload = () => window.location.reload() }: UpdatePromptOptions = {},
): void {
  let reloading = false;
  // Reload once the new worker has taken over the page, and only after 'Reload' asked for it.
  wb.addEventListener('controlling', () => {
    if (!reloading) return;
    reloading = false;
    reload();
  });
  wb.addEventListener('waiting', () => {
    notifications.show({
      id: UPDATE_NOTIFICATION_ID,
      'aria-label': UPDATE_AVAILABLE,
      autoClose: false,
      withCloseButton: true,
      message: (
        <Group justify="space-between" wrap="nowrap" gap="md">
          <Text size="sm">{UPDATE_AVAILABLE}</Text>
          <Button
            size="xs"
            onClick={() => {
              notifications.hide(UPDATE_NOTIFICATION_ID);
              reloading = true;
              wb.messageSkipWaiting();
            }}
          >
            {UPDATE_RELOAD}
          </Button>
        </Group>
      ),
    });
  });
}

export function registerServiceWorker(): void {
  if (!import.meta.env.PROD || !('serviceWorker' in navigator)) return;
  const wb = new Workbox('/sw.js', { scope: '/' });
  promptOnUpdate(wb);
  // The worker keeps image previews per owner: tell it who is here whenever a worker takes over.
  navigator.serviceWorker.addEventListener('controllerchange', syncOfflineOwner);
  syncOfflineOwner();
  void wb.register();
}
