import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { fakeServer, json, problem } from '@/test/fakeServer';
import { renderWithRouter } from '@/test/render';
import { InvitationsMenu } from './InvitationsMenu';

const UUID_A = '0b6c6c9e-7f0e-4a57-9d43-1f3c1e6a2b11';
const UUID_B = '5d0c2f1a-2b7e-4c1d-8a9f-3e2d1c0b9a88';
const invitations = [
  { uuid: UUID_A, workspace: 'river-crew', role: 'writer' as const },
  { uuid: UUID_B, workspace: 'bird-count', role: 'reader' as const },
];

describe('InvitationsMenu', () => {
  it('shows the pending count and joins the chosen workspace', async () => {
    const offer = {
      workspace: 'river-crew',
      workspace_id: 7,
      email: 'me@example.com',
      role: 'writer',
      expires_at: '2026-12-01T00:00:00Z',
      account_exists: true,
    };
    const server = fakeServer({
      [`POST /app/user/invitations/${UUID_A}/accept`]: () => json(offer),
    });
    const onAccepted = vi.fn();
    const { user } = await renderWithRouter(
      <InvitationsMenu invitations={invitations} onAccepted={onAccepted} onDeclined={vi.fn()} />,
    );
    const icon = screen.getByRole('button', { name: 'Invitations: 2 pending' });
    await user.click(icon);
    const menu = await screen.findByRole('menu');
    expect(within(menu).getByText('river-crew invites you as writer')).toBeInTheDocument();
    expect(within(menu).getByText('bird-count invites you as reader')).toBeInTheDocument();
    await user.click(within(menu).getByRole('menuitem', { name: 'Join river-crew' }));
    await waitFor(() => expect(onAccepted).toHaveBeenCalledWith(offer));
    expect(server.calls(`POST /app/user/invitations/${UUID_A}/accept`)).toHaveLength(1);
  });

  it('declines an invitation, and says why when it fails', async () => {
    fakeServer({
      [`DELETE /app/user/invitations/${UUID_B}`]: () => new Response(null, { status: 204 }),
      [`POST /app/user/invitations/${UUID_A}/accept`]: () =>
        problem('This invitation has expired', 400),
    });
    const onDeclined = vi.fn();
    const onAccepted = vi.fn();
    const { user } = await renderWithRouter(
      <InvitationsMenu invitations={invitations} onAccepted={onAccepted} onDeclined={onDeclined} />,
    );
    await user.click(screen.getByRole('button', { name: 'Invitations: 2 pending' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Decline bird-count' }));
    await waitFor(() => expect(onDeclined).toHaveBeenCalledTimes(1));
    await user.click(screen.getByRole('button', { name: 'Invitations: 2 pending' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Join river-crew' }));
    expect(await screen.findByText('This invitation has expired')).toBeInTheDocument();
    expect(onAccepted).not.toHaveBeenCalled();
  });

  it('shows nothing without invitations', async () => {
    await renderWithRouter(
      <InvitationsMenu invitations={[]} onAccepted={vi.fn()} onDeclined={vi.fn()} />,
    );
    expect(screen.queryByRole('button', { name: /^Invitations/ })).not.toBeInTheDocument();
  });
});
