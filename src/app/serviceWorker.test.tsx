import { notifications } from '@mantine/notifications';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Providers, createTestQueryClient } from '@/test/render';
import { promptOnUpdate, type UpdateSource } from './serviceWorker';

afterEach(() => {
  notifications.clean();
});

/** A stand-in for workbox-window's Workbox: the test fires its events. */
function fakeWorkbox() {
  const listeners: Record<string, Array<() => void>> = {};
  const messageSkipWaiting = vi.fn();
  const wb: UpdateSource = {
    addEventListener(type, listener) {
      (listeners[type] ??= []).push(listener);
    },
    messageSkipWaiting,
  };
  const emit = (type: 'waiting' | 'controlling') =>
    listeners[type]?.forEach((listener) => listener());
  return { wb, emit, messageSkipWaiting };
}

function renderHost() {
  render(<Providers queryClient={createTestQueryClient()}>{null}</Providers>);
}

const prompt = () => screen.findByRole('alert', { name: 'A new version of Waymark is available.' });

describe('update prompt', () => {
  it('shows nothing until a new version waits', async () => {
    const { wb, emit } = fakeWorkbox();
    const reload = vi.fn();
    promptOnUpdate(wb, { reload });
    renderHost();
    emit('controlling');
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    expect(reload).not.toHaveBeenCalled();
  });

  it("offers 'Reload' when a new version waits, activates it and reloads once in control", async () => {
    const { wb, emit, messageSkipWaiting } = fakeWorkbox();
    const reload = vi.fn();
    promptOnUpdate(wb, { reload });
    renderHost();
    emit('waiting');

    const alert = await prompt();
    expect(alert).toHaveTextContent('A new version of Waymark is available.');
    await userEvent.click(within(alert).getByRole('button', { name: 'Reload' }));

    expect(messageSkipWaiting).toHaveBeenCalledTimes(1);
    await waitFor(() =>
      expect(
        screen.queryByRole('alert', { name: 'A new version of Waymark is available.' }),
      ).not.toBeInTheDocument(),
    );
    // The page reloads only when the new worker has taken control, and only once.
    expect(reload).not.toHaveBeenCalled();
    emit('controlling');
    expect(reload).toHaveBeenCalledTimes(1);
    emit('controlling');
    expect(reload).toHaveBeenCalledTimes(1);
  });

  it('closing the prompt keeps the running version: no activation, no reload', async () => {
    const { wb, emit, messageSkipWaiting } = fakeWorkbox();
    const reload = vi.fn();
    promptOnUpdate(wb, { reload });
    renderHost();
    emit('waiting');
    const alert = await prompt();
    await userEvent.click(within(alert).getByRole('button', { name: 'Close notification' }));
    emit('controlling');
    expect(messageSkipWaiting).not.toHaveBeenCalled();
    expect(reload).not.toHaveBeenCalled();
  });
});
