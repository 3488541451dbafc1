import { notifications } from '@mantine/notifications';
import { screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { empty, fakeServer, json, problem } from '@/test/fakeServer';
import { renderWithRouter } from '@/test/render';
import { ChangePasswordByTokenForm } from './ChangePasswordByTokenForm';

afterEach(() => {
  notifications.clean();
  vi.unstubAllGlobals();
});

async function fill(user: Awaited<ReturnType<typeof renderWithRouter>>['user']) {
  await user.type(screen.getByLabelText('New Password'), 'Str0ng-pass');
  await user.type(screen.getByLabelText('Confirm password'), 'Str0ng-pass');
}

describe('ChangePasswordByTokenForm', () => {
  it('needs both fields and then shows the success state with a Sign in link', async () => {
    const server = fakeServer({ 'POST /app/auth/reset-password/tok.en': () => empty() });
    const { user } = await renderWithRouter(<ChangePasswordByTokenForm token="tok.en" />);
    const change = screen.getByRole('button', { name: 'Change' });
    expect(change).toBeDisabled();
    await fill(user);
    expect(change).toBeEnabled();
    await user.click(change);
    expect(await screen.findByText(/Your password was changed\. You can now/)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Sign in' })).toHaveAttribute('href', '/login');
    expect(server.calls('POST /app/auth/reset-password/tok.en')[0]?.body).toEqual({
      password: 'Str0ng-pass',
      confirm: 'Str0ng-pass',
    });
  });

  it('shows password and confirm errors per field', async () => {
    fakeServer({
      'POST /app/auth/reset-password/t': () =>
        json(
          { password: ['Password is not strong enough'], confirm: ['Passwords must match'] },
          400,
        ),
    });
    const { user } = await renderWithRouter(<ChangePasswordByTokenForm token="t" />);
    await fill(user);
    await user.click(screen.getByRole('button', { name: 'Change' }));
    expect(await screen.findByText('Password is not strong enough')).toBeInTheDocument();
    expect(screen.getByText('Passwords must match')).toBeInTheDocument();
    expect(screen.getByLabelText('Confirm password')).toHaveAttribute('aria-invalid', 'true');
  });

  it("shows 'Invalid token' from the server as a toast", async () => {
    fakeServer({ 'POST /app/auth/reset-password/t': () => problem('Invalid token', 400) });
    const { user } = await renderWithRouter(<ChangePasswordByTokenForm token="t" />);
    await fill(user);
    await user.click(screen.getByRole('button', { name: 'Change' }));
    expect(await screen.findByText('Invalid token')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Change' })).toBeInTheDocument();
  });

  it('explains the password rule in a tooltip', async () => {
    fakeServer({});
    const { user } = await renderWithRouter(<ChangePasswordByTokenForm token="t" />);
    await user.hover(screen.getByRole('button', { name: 'Password rules' }));
    expect(await screen.findByText(/At least 8 characters/)).toBeInTheDocument();
  });
});
