import { MantineProvider } from '@mantine/core';
import { cleanNotifications, cleanNotificationsQueue } from '@mantine/notifications';
import { act, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { notifyError, notifyInfo } from '@/lib/notify';
import { LazyToastHost } from './LazyToastHost';

afterEach(() => {
  act(() => {
    cleanNotifications();
    cleanNotificationsQueue();
  });
});

describe('LazyToastHost', () => {
  it('shows toasts given before the host loaded, then later ones', async () => {
    render(
      <MantineProvider>
        <LazyToastHost />
      </MantineProvider>,
    );
    act(() => {
      notifyError('Failed to load projects');
      notifyInfo('Saved');
    });
    expect(await screen.findByText('Failed to load projects')).toBeVisible();
    expect(screen.getByText('Saved')).toBeVisible();

    act(() => {
      notifyInfo('Later message');
    });
    expect(await screen.findByText('Later message')).toBeVisible();
  });

  it('shows a toast given before the host was even mounted', async () => {
    act(() => {
      notifyInfo('Early message');
    });
    render(
      <MantineProvider>
        <LazyToastHost />
      </MantineProvider>,
    );
    expect(await screen.findByText('Early message')).toBeVisible();
  });
});
