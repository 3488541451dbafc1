import { screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { empty, fakeServer, problem } from '@/test/fakeServer';
import { renderWithRouter } from '@/test/render';
import { ConfirmEmailStatus } from './ConfirmEmailStatus';

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('ConfirmEmailStatus', () => {
  it('confirms the token once and reports success', async () => {
    const server = fakeServer({ 'POST /app/auth/confirm-email/abc': () => empty() });
    const onVerified = vi.fn();
    await renderWithRouter(<ConfirmEmailStatus token="abc" onVerified={onVerified} />);
    expect(await screen.findByText('Your email address has been verified.')).toBeInTheDocument();
    expect(server.calls('POST /app/auth/confirm-email/abc')).toHaveLength(1);
    expect(onVerified).toHaveBeenCalled();
  });

  it('continues to home with a button', async () => {
    fakeServer({ 'POST /app/auth/confirm-email/abc': () => empty() });
    const { user, router } = await renderWithRouter(<ConfirmEmailStatus token="abc" />, {
      path: '/confirm-email/abc',
    });
    await user.click(await screen.findByRole('button', { name: 'Continue' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
  });

  it("shows 'Invalid token' when the server refuses it", async () => {
    fakeServer({ 'POST /app/auth/confirm-email/bad': () => problem('Invalid token', 400) });
    await renderWithRouter(<ConfirmEmailStatus token="bad" />);
    expect(await screen.findByText('Invalid token')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Continue' })).toBeInTheDocument();
  });
});
