import { Button, MantineProvider } from '@mantine/core';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { OfflineIndicatorView } from './OfflineIndicator';
import { OfflineReason } from './OfflineReason';

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
