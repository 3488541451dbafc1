import { notifications } from '@mantine/notifications';
import { screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { api } from '@/api';
import { empty, fakeServer, json, problem } from '@/test/fakeServer';
import { renderWithRouter } from '@/test/render';
import { initQueryOptions } from '../api/init';
import { LoginForm } from './LoginForm';

beforeEach(() => {
  api.setCsrfToken('csrf-1');
  api.setMaintenance(false);
});
afterEach(() => {
  notifications.clean();
  vi.unstubAllGlobals();
});

function fields() {
  return {
    login: screen.getByLabelText('Username or email'),
    password: screen.getByLabelText('Password'),
    submit: screen.getByRole('button', { name: 'Sign in' }),
  };
}

describe('LoginForm', () => {
  it('shows the fields, the reset link and a disabled button until both are filled', async () => {
    fakeServer({});
    const { user } = await renderWithRouter(<LoginForm onSuccess={vi.fn()} />, { path: '/login' });
    const { login, password, submit } = fields();
    expect(screen.getByRole('link', { name: 'Forgot password?' })).toHaveAttribute(
      'href',
      '/login/reset',
    );
    expect(submit).toBeDisabled();
    await user.type(login, 'admin');
    expect(submit).toBeDisabled();
    await user.type(password, '   ');
    expect(submit).toBeDisabled();
    await user.type(password, 'secret');
    expect(submit).toBeEnabled();
  });

  it('toggles the password visibility', async () => {
    fakeServer({});
    const { user } = await renderWithRouter(<LoginForm onSuccess={vi.fn()} />);
    const { password } = fields();
    const toggle = screen.getByRole('button', { name: 'Show characters' });
    expect(password).toHaveAttribute('type', 'password');
    expect(toggle).toHaveAttribute('aria-pressed', 'false');
    await user.click(toggle);
    expect(password).toHaveAttribute('type', 'text');
    expect(toggle).toHaveAttribute('aria-pressed', 'true');
    await user.click(toggle);
    expect(password).toHaveAttribute('type', 'password');
    // Only the field answers to the label 'Password' (the toggle's name does not contain it).
    expect(screen.getAllByLabelText(/password/i)).toHaveLength(1);
  });

  it('sends trimmed values with the CSRF token, initialises the session and calls onSuccess', async () => {
    let authenticated = false;
    const server = fakeServer({
      'POST /app/auth/login': () => {
        authenticated = true;
        return empty();
      },
      'GET /app/init': () =>
        json({ authenticated, superuser: false }, 200, { 'X-CSRF-Token': 'csrf-2' }),
    });
    const onSuccess = vi.fn();
    const { user, queryClient } = await renderWithRouter(<LoginForm onSuccess={onSuccess} />);
    queryClient.setQueryData(initQueryOptions.queryKey, { authenticated: false, superuser: false });
    const { login, password, submit } = fields();
    await user.type(login, '  admin@example.com ');
    await user.type(password, ' Secret-1 ');
    await user.click(submit);
    await waitFor(() => expect(onSuccess).toHaveBeenCalledTimes(1));
    const [request] = server.calls('POST /app/auth/login');
    expect(request?.body).toEqual({ login: 'admin@example.com', password: 'Secret-1' });
    expect(request?.headers['X-CSRF-Token']).toBe('csrf-1');
    expect(request?.headers['X-Client']).toBe('vue');
    expect(queryClient.getQueryData(initQueryOptions.queryKey)).toEqual({
      authenticated: true,
      superuser: false,
    });
    expect(api.getCsrfToken()).toBe('csrf-2');
  });

  it('shows server form errors under the fields', async () => {
    fakeServer({
      'POST /app/auth/login': () =>
        json({ login: ['Login is too long'], password: ['This field is required.'] }, 401),
    });
    const onSuccess = vi.fn();
    const { user } = await renderWithRouter(<LoginForm onSuccess={onSuccess} />);
    const { login, password, submit } = fields();
    await user.type(login, 'x');
    await user.type(password, 'y');
    await user.click(submit);
    expect(await screen.findByText('Login is too long')).toBeInTheDocument();
    expect(screen.getByText('This field is required.')).toBeInTheDocument();
    expect(login).toHaveAttribute('aria-invalid', 'true');
    expect(password).toHaveAttribute('aria-invalid', 'true');
    expect(onSuccess).not.toHaveBeenCalled();
  });

  it('shows other errors as a toast', async () => {
    fakeServer({ 'POST /app/auth/login': () => problem('Invalid username or password', 401) });
    const { user } = await renderWithRouter(<LoginForm onSuccess={vi.fn()} />);
    const { login, password, submit } = fields();
    await user.type(login, 'admin');
    await user.type(password, 'wrong');
    await user.click(submit);
    expect(await screen.findByText('Invalid username or password')).toBeInTheDocument();
    expect(login).not.toHaveAttribute('aria-invalid', 'true');
  });

  it("falls back to 'Failed to login'", async () => {
    fakeServer({ 'POST /app/auth/login': () => new Response('<html>', { status: 500 }) });
    const { user } = await renderWithRouter(<LoginForm onSuccess={vi.fn()} />);
    const { login, password, submit } = fields();
    await user.type(login, 'admin');
    await user.type(password, 'pw');
    await user.click(submit);
    expect(await screen.findByText('Failed to login')).toBeInTheDocument();
  });
});
