import { notifications } from '@mantine/notifications';
import { screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { empty, fakeServer, json, problem } from '@/test/fakeServer';
import { renderWithRouter } from '@/test/render';
import { ResetPasswordForm } from './ResetPasswordForm';

afterEach(() => {
  notifications.clean();
  vi.unstubAllGlobals();
});

describe('ResetPasswordForm', () => {
  it('enables Reset password only with an email and links back to login', async () => {
    fakeServer({});
    const { user } = await renderWithRouter(<ResetPasswordForm />, { path: '/login/reset' });
    const button = screen.getByRole('button', { name: 'Reset password' });
    expect(button).toBeDisabled();
    expect(screen.getByRole('link', { name: 'Back to login' })).toHaveAttribute('href', '/login');
    await user.type(screen.getByLabelText('Email'), 'a@example.com');
    expect(button).toBeEnabled();
  });

  it('sends the trimmed email and confirms with a toast', async () => {
    const server = fakeServer({ 'POST /app/auth/reset-password': () => empty() });
    const onSent = vi.fn();
    const { user } = await renderWithRouter(<ResetPasswordForm onSent={onSent} />);
    await user.type(screen.getByLabelText('Email'), ' a@example.com ');
    await user.click(screen.getByRole('button', { name: 'Reset password' }));
    expect(
      await screen.findByText('Email with password reset link was sent to your email address'),
    ).toBeInTheDocument();
    expect(server.calls('POST /app/auth/reset-password')[0]?.body).toEqual({
      email: 'a@example.com',
    });
    expect(onSent).toHaveBeenCalled();
  });

  it('shows server errors under the email field', async () => {
    fakeServer({
      'POST /app/auth/reset-password': () =>
        json({ email: ['Account with given email does not exist'] }, 404),
    });
    const { user } = await renderWithRouter(<ResetPasswordForm />);
    const email = screen.getByLabelText('Email');
    await user.type(email, 'nobody@example.com');
    await user.click(screen.getByRole('button', { name: 'Reset password' }));
    expect(await screen.findByText('Account with given email does not exist')).toBeInTheDocument();
    await waitFor(() => expect(email).toHaveAttribute('aria-invalid', 'true'));
  });

  it('shows other failures as a toast', async () => {
    fakeServer({
      'POST /app/auth/reset-password': () => problem('You cannot edit profile of this user', 403),
    });
    const { user } = await renderWithRouter(<ResetPasswordForm />);
    await user.type(screen.getByLabelText('Email'), 'sso@example.com');
    await user.click(screen.getByRole('button', { name: 'Reset password' }));
    expect(await screen.findByText('You cannot edit profile of this user')).toBeInTheDocument();
  });
});
