import { Button, MantineProvider } from '@mantine/core';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { OfflineIndicatorView } from './OfflineIndicator';
import { OfflineReason } from './OfflineReason';
import { StorageNotice } from './StorageNotice';

const now = Date.UTC(2026, 10, 21, 12);

describe('OfflineIndicatorView', () => {
  it('shows nothing online with fresh data', () => {
    render(
      <MantineProvider env="test">
        <OfflineIndicatorView online savedAt={null} now={now} />
      </MantineProvider>,
    );
    expect(screen.queryByRole('status')).not.toBeInTheDocument();
  });

  it('says when the data shown was saved', () => {
    render(
      <MantineProvider env="test">
        <OfflineIndicatorView online={false} savedAt={now - 2 * 3_600_000} now={now} />
      </MantineProvider>,
    );
    expect(screen.getByRole('status')).toHaveTextContent(
      'Offline — showing data saved 2 hours ago',
    );
  });

  it('says the browser is offline when nothing saved is shown', () => {
    render(
      <MantineProvider env="test">
        <OfflineIndicatorView online={false} savedAt={null} now={now} />
      </MantineProvider>,
    );
    expect(screen.getByRole('status')).toHaveTextContent(
      'Offline — pages opened before are still available',
    );
  });
});

describe('OfflineReason', () => {
  it('explains a disabled action on hover while offline', async () => {
    render(
      <MantineProvider env="test">
        <OfflineReason offline>
          <Button disabled>Download</Button>
        </OfflineReason>
      </MantineProvider>,
    );
    expect(screen.getByRole('button', { name: 'Download' })).toBeDisabled();
    await userEvent.hover(screen.getByRole('button', { name: 'Download' }).parentElement!);
    expect(await screen.findByRole('tooltip')).toHaveTextContent(
      'Not available offline: connect to the internet first',
    );
  });
});

describe('StorageNotice', () => {
  it('shows the estimate only when space runs short', async () => {
    const { rerender } = render(
      <MantineProvider env="test">
        <StorageNotice trigger={1} read={async () => ({ usage: 500, quota: 1000 })} />
      </MantineProvider>,
    );
    // Not short: nothing (the read has settled once the next one is shown below).
    rerender(
      <MantineProvider env="test">
        <StorageNotice
          trigger={2}
          read={async () => ({ usage: 950 * 1024 * 1024, quota: 1000 * 1024 * 1024 })}
        />
      </MantineProvider>,
    );
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Storage on this device is running short: 950.0 MB of 1000.0 MB used. Queued uploads need space until they are sent.',
    );
  });

  it('stays hidden with room to spare', async () => {
    const read = vi.fn(async () => ({ usage: 100, quota: 1000 }));
    render(
      <MantineProvider env="test">
        <StorageNotice trigger={1} read={read} />
      </MantineProvider>,
    );
    await waitFor(() => expect(read).toHaveBeenCalled());
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });
});
