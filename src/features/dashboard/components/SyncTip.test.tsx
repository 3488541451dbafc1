import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { db, isElementClosed } from '@/db';
import { Providers, createTestQueryClient } from '@/test/render';
import { SYNC_TIP_ID } from '../model/tip';
import { SyncTip } from './SyncTip';

function show() {
  return render(
    <Providers queryClient={createTestQueryClient()}>
      <SyncTip serverAddress="https://maps.example.org" />
    </Providers>,
  );
}

beforeEach(async () => {
  await db.closedElements.clear();
});

describe('SyncTip', () => {
  it('is titled Tip from Waymark and names the server address for the sync clients', async () => {
    show();
    const tip = await screen.findByRole('note');
    expect(within(tip).getByText('Tip from Waymark')).toBeInTheDocument();
    expect(tip).toHaveTextContent(
      'To sync your projects with the desktop GIS plugin or the mobile app, sign in there with this account and the server address https://maps.example.org.',
    );
  });

  it('stays closed once dismissed (remembered in closedElements)', async () => {
    const first = show();
    const tip = await screen.findByRole('note');
    await userEvent.click(within(tip).getByRole('button', { name: 'Dismiss the tip' }));
    await waitFor(() => expect(screen.queryByRole('note')).not.toBeInTheDocument());
    expect(await isElementClosed(SYNC_TIP_ID)).toBe(true);
    first.unmount();
    show();
    await waitFor(async () => expect(await isElementClosed(SYNC_TIP_ID)).toBe(true));
    expect(screen.queryByRole('note')).not.toBeInTheDocument();
  });
});
