import { notifications } from '@mantine/notifications';
import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { api } from '@/api';
import { empty, fakeServer, json, problem } from '@/test/fakeServer';
import { renderWithRouter } from '@/test/render';
import type { Profile } from '@contract/users';
import { profileQueryOptions } from '../api/profile';
import { AccountDetails } from './AccountDetails';

const profile: Profile = {
  id: 7,
  username: 'jane',
  email: 'jane@example.com',
  pending_email: null,
  name: 'Jane Surveyor',
  first_name: 'Jane',
  last_name: 'Surveyor',
  verified_email: true,
  registration_date: '2024-05-04T14:21:56Z',
  last_signed_in: null,
  can_edit_profile: true,
  receive_notifications: true,
  preferred_workspace: 1,
  workspaces: [{ id: 1, name: 'waymark', role: 'owner' }],
  invitations: [],
};

beforeEach(() => {
  api.setMaintenance(false);
});
afterEach(() => {
  notifications.clean();
  vi.unstubAllGlobals();
});

async function show(overrides: Partial<Profile> = {}) {
  const view = await renderWithRouter(<AccountDetails profile={{ ...profile, ...overrides }} />, {
    path: '/profile',
  });
  return view;
}

describe('AccountDetails', () => {
  it('shows the account with Edit account and Change password', async () => {
    fakeServer({});
    await show();
    expect(screen.getByRole('heading', { level: 1, name: 'Account details' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Edit account' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Change password' })).toBeInTheDocument();
    expect(screen.getByText('jane')).toBeInTheDocument();
    expect(screen.getByText('jane@example.com')).toBeInTheDocument();
    expect(screen.getByText('Full name')).toBeInTheDocument();
    expect(screen.getByText('Jane Surveyor')).toBeInTheDocument();
    expect(screen.getByText('Registered')).toBeInTheDocument();
    expect(screen.getByText('4 May 2024')).toBeInTheDocument();
    expect(screen.queryByText('Please verify your email')).not.toBeInTheDocument();
    expect(screen.queryByRole('img', { name: 'Email not verified' })).not.toBeInTheDocument();
  });

  it("shows '-' without a full name", async () => {
    fakeServer({});
    await show({ name: '', first_name: null, last_name: null });
    expect(screen.getByText('-')).toBeInTheDocument();
  });

  it('has the Advanced section with the notifications switch and Close account', async () => {
    fakeServer({});
    await show();
    const advanced = screen.getByRole('region', { name: 'Advanced' });
    const toggle = within(advanced).getByRole('switch', { name: 'Receive notifications' });
    expect(toggle).toBeChecked();
    expect(
      within(advanced).getByText('We will send you information about workspace activity'),
    ).toBeInTheDocument();
    expect(within(advanced).getByRole('button', { name: 'Close account' })).toBeInTheDocument();
  });

  it('saves the notifications flag through the profile edit', async () => {
    const server = fakeServer({
      'POST /app/auth/user/profile': () => empty(),
    });
    const { user, queryClient } = await show();
    queryClient.setQueryData(profileQueryOptions.queryKey, profile);
    await user.click(screen.getByRole('switch', { name: 'Receive notifications' }));
    expect(await screen.findByText('Profile has been changed')).toBeInTheDocument();
    expect(server.calls('POST /app/auth/user/profile')[0]?.body).toEqual({
      first_name: 'Jane',
      last_name: 'Surveyor',
      email: 'jane@example.com',
      receive_notifications: false,
    });
    // The profile is refetched wherever it is shown.
    expect(queryClient.getQueryState(profileQueryOptions.queryKey)?.isInvalidated).toBe(true);
  });

  it("reports a failed switch with 'Failed to change profile'", async () => {
    fakeServer({ 'POST /app/auth/user/profile': () => new Response('', { status: 500 }) });
    const { user } = await show();
    await user.click(screen.getByRole('switch', { name: 'Receive notifications' }));
    expect(await screen.findByText('Failed to change profile')).toBeInTheDocument();
  });
});

describe('unverified email', () => {
  it('shows the banner and the alert icon beside the email', async () => {
    fakeServer({});
    await show({ verified_email: false });
    expect(screen.getByText('Please verify your email')).toBeInTheDocument();
    expect(screen.getByRole('img', { name: 'Email not verified' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Send confirmation email' })).toBeInTheDocument();
  });

  it('offers nothing to verify for an account without an address (the contract allows null)', async () => {
    fakeServer({});
    await show({ verified_email: false, email: null });
    expect(screen.getByText('jane')).toBeInTheDocument();
    expect(screen.queryByText('Please verify your email')).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Send confirmation email' })).toBeNull();
  });

  it('sends the confirmation email and names the address', async () => {
    const server = fakeServer({ 'GET /app/auth/resend-confirm-email': () => empty() });
    const { user } = await show({ verified_email: false });
    await user.click(screen.getByRole('button', { name: 'Send confirmation email' }));
    expect(
      await screen.findByText('Email was sent to address: jane@example.com'),
    ).toBeInTheDocument();
    expect(server.calls('GET /app/auth/resend-confirm-email')).toHaveLength(1);
  });

  it('asks to check the address when the server refuses to send', async () => {
    fakeServer({
      'GET /app/auth/resend-confirm-email': () => json({ email: ['Invalid email'] }, 400),
    });
    const { user } = await show({ verified_email: false });
    await user.click(screen.getByRole('button', { name: 'Send confirmation email' }));
    expect(
      await screen.findByText(
        'Failed to send confirmation email, please check your address in user profile settings',
      ),
    ).toBeInTheDocument();
  });

  it("says 'Failed to send confirmation email' when the server fails", async () => {
    fakeServer({ 'GET /app/auth/resend-confirm-email': () => new Response('', { status: 502 }) });
    const { user } = await show({ verified_email: false });
    await user.click(screen.getByRole('button', { name: 'Send confirmation email' }));
    expect(await screen.findByText('Failed to send confirmation email')).toBeInTheDocument();
  });

  it('prefers the server detail', async () => {
    fakeServer({
      'GET /app/auth/resend-confirm-email': () =>
        problem('You cannot edit profile of this user', 403),
    });
    const { user } = await show({ verified_email: false });
    await user.click(screen.getByRole('button', { name: 'Send confirmation email' }));
    expect(await screen.findByText('You cannot edit profile of this user')).toBeInTheDocument();
  });
});

describe('a new email waiting for confirmation (issue 29)', () => {
  const pending = { pending_email: 'jane@new.example.org' };

  it('says where the link went and that the current address stays in use', async () => {
    fakeServer({});
    await show(pending);
    const banner = screen.getByRole('alert', { name: 'Confirm your new email address' });
    expect(
      within(banner).getByText(
        'We sent a confirmation link to jane@new.example.org. Until you open it, jane@example.com stays the address you sign in with and receive mail at.',
      ),
    ).toBeInTheDocument();
    // The account's address is still the one shown, verified (no alert icon, no verify banner).
    expect(screen.getByText('jane@example.com')).toBeInTheDocument();
    expect(screen.queryByRole('img', { name: 'Email not verified' })).not.toBeInTheDocument();
    expect(screen.queryByText('Please verify your email')).not.toBeInTheDocument();
  });

  it('resends the link to the new address', async () => {
    const server = fakeServer({ 'GET /app/auth/resend-confirm-email': () => empty() });
    const { user } = await show(pending);
    await user.click(screen.getByRole('button', { name: 'Send confirmation email' }));
    expect(
      await screen.findByText('Email was sent to address: jane@new.example.org'),
    ).toBeInTheDocument();
    expect(server.calls('GET /app/auth/resend-confirm-email')).toHaveLength(1);
  });

  it('cancels the change and refetches the profile', async () => {
    const server = fakeServer({
      'DELETE /app/auth/user/pending-email': () => new Response(null, { status: 204 }),
    });
    const { user, queryClient } = await show(pending);
    queryClient.setQueryData(profileQueryOptions.queryKey, { ...profile, ...pending });
    await user.click(screen.getByRole('button', { name: 'Cancel email change' }));
    expect(await screen.findByText('Email change cancelled')).toBeInTheDocument();
    expect(server.calls('DELETE /app/auth/user/pending-email')).toHaveLength(1);
    expect(queryClient.getQueryState(profileQueryOptions.queryKey)?.isInvalidated).toBe(true);
  });

  it("shows the server's answer when too many confirmation mails were sent", async () => {
    fakeServer({
      'GET /app/auth/resend-confirm-email': () =>
        problem('Too many confirmation emails. Please try again later.', 429),
    });
    const { user } = await show(pending);
    await user.click(screen.getByRole('button', { name: 'Send confirmation email' }));
    expect(
      await screen.findByText('Too many confirmation emails. Please try again later.'),
    ).toBeInTheDocument();
    expect(screen.queryByText(/^Email was sent to address/)).not.toBeInTheDocument();
  });
});

describe('dialogs', () => {
  it('open from the buttons with their titles', async () => {
    fakeServer({});
    const { user } = await show();
    for (const name of ['Edit account', 'Change password', 'Close account']) {
      await user.click(screen.getAllByRole('button', { name })[0] as HTMLElement);
      const dialog = await screen.findByRole('dialog', { name });
      await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
      await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    }
  });
});
