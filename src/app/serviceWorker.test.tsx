import { notifications } from '@mantine/notifications';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Providers, createTestQueryClient } from '../test/render';
import { promptOnUpdate, type UpdateSource } from './serviceWorker';

afterEach(() => {
  notifications.clean();
});

function fakeWorkbox() {
  const listeners: Record<string, Array<() => void>> = {};
  const wb: UpdateSource = {
    addEventListener(type, listener) {
      (listeners[type] ??= []).push(listener);
    },
  };
  const emit = (type: string) => listeners[type]?.forEach((listener) => listener());
  return { wb, emit };
}

describe('update prompt', () => {
  it("offers 'Reload' when a new version waits, activates it and reloads", async () => {
    const { wb, emit } = fakeWorkbox();
    const postMessage = vi.fn();
    const reload = vi.fn();
    promptOnUpdate(wb, {
      getWaiting: async () => ({ postMessage }) as unknown as ServiceWorker,
      reload,
    });
    render(<Providers queryClient={createTestQueryClient()}>{null}</Providers>);
    emit('waiting');
    await userEvent.click(await screen.findByRole('button', { name: 'Reload' }));
    await waitFor(() => expect(postMessage).toHaveBeenCalledWith({ type: 'app/skip-waiting' }));
    expect(reload).not.toHaveBeenCalled();
    emit('controlling');
    expect(reload).toHaveBeenCalledTimes(1);
  });
});
