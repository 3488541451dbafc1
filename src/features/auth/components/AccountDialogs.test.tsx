import { notifications } from '@mantine/notifications';
import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { api, MAINTENANCE_MESSAGE } from '@/api';
import { browser } from '@/lib/browser';
import { empty, fakeServer, json, problem } from '@/test/fakeServer';
import { pasteInto, renderWithRouter } from '@/test/render';
import { initQueryOptions } from '../api/init';
import type { Profile } from '@contract/users';
import { profileQueryOptions } from '../api/profile';
import { ChangePasswordDialog } from './ChangePasswordDialog';
import { CloseAccountDialog } from './CloseAccountDialog';
import { EditAccountDialog } from './EditAccountDialog';

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
  receive_notifications: false,
  preferred_workspace: 1,
  workspaces: [],
  invitations: [],
};

beforeEach(() => {
  api.setMaintenance(false);
});
afterEach(() => {
  notifications.clean();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('Edit account', () => {
  async function open() {
    const onClose = vi.fn();
    const view = await renderWithRouter(
      <EditAccountDialog opened onClose={onClose} profile={profile} />,
    );
    const dialog = await screen.findByRole('dialog', { name: 'Edit account' });
    return { ...view, onClose, dialog };
  }

  it('starts from the profile and saves trimmed values', async () => {
    const server = fakeServer({ 'POST /app/auth/user/profile': () => empty() });
    const { user, dialog, onClose } = await open();
    const first = within(dialog).getByRole('textbox', { name: 'First name' });
    const last = within(dialog).getByRole('textbox', { name: 'Last name' });
    const email = within(dialog).getByRole('textbox', { name: 'Email' });
    expect(first).toHaveValue('Jane');
    expect(last).toHaveValue('Surveyor');
    expect(email).toHaveValue('jane@example.com');
    await user.clear(first);
    await pasteInto(user, first, '  Ada ');
    await user.clear(email);
    await pasteInto(user, email, ' ada@example.com  ');
    await user.click(within(dialog).getByRole('button', { name: 'Save changes' }));
    expect(await screen.findByText('Profile has been changed')).toBeInTheDocument();
    expect(server.calls('POST /app/auth/user/profile')[0]?.body).toEqual({
      first_name: 'Ada',
      last_name: 'Surveyor',
      email: 'ada@example.com',
      receive_notifications: false,
    });
    expect(onClose).toHaveBeenCalled();
  });

  it('a new email: says the confirmation link went there (the change is pending)', async () => {
    fakeServer({ 'POST /app/auth/user/profile': () => empty() });
    const { user, dialog } = await open();
    const email = within(dialog).getByRole('textbox', { name: 'Email' });
    await user.clear(email);
    await pasteInto(user, email, 'jane@new.example.org');
    await user.click(within(dialog).getByRole('button', { name: 'Save changes' }));
    expect(await screen.findByText('Profile has been changed')).toBeInTheDocument();
    expect(
      await screen.findByText('Email was sent to address: jane@new.example.org'),
    ).toBeInTheDocument();
  });

  it('the same email in another letter case sends no link', async () => {
    fakeServer({ 'POST /app/auth/user/profile': () => empty() });
    const { user, dialog } = await open();
    const email = within(dialog).getByRole('textbox', { name: 'Email' });
    await user.clear(email);
    await pasteInto(user, email, 'Jane@Example.com');
    await user.click(within(dialog).getByRole('button', { name: 'Save changes' }));
    expect(await screen.findByText('Profile has been changed')).toBeInTheDocument();
    expect(screen.queryByText(/^Email was sent to address/)).not.toBeInTheDocument();
  });

  it('a refused change (too many confirmation mails) keeps the dialog open with the answer', async () => {
    fakeServer({
      'POST /app/auth/user/profile': () =>
        problem('Too many confirmation emails. Please try again later.', 429),
    });
    const { user, dialog, onClose } = await open();
    const email = within(dialog).getByRole('textbox', { name: 'Email' });
    await user.clear(email);
    await pasteInto(user, email, 'jane@new.example.org');
    await user.click(within(dialog).getByRole('button', { name: 'Save changes' }));
    expect(
      await screen.findByText('Too many confirmation emails. Please try again later.'),
    ).toBeInTheDocument();
    expect(onClose).not.toHaveBeenCalled();
  });

  it('shows server errors under each field', async () => {
    fakeServer({
      'POST /app/auth/user/profile': () =>
        json(
          {
            email: ['Email already exists', 'second'],
            first_name: ['Too long'],
            last_name: ['Odd'],
          },
          400,
        ),
    });
    const { user, dialog, onClose } = await open();
    await user.click(within(dialog).getByRole('button', { name: 'Save changes' }));
    expect(await within(dialog).findByText('Email already exists')).toBeInTheDocument();
    expect(within(dialog).queryByText('second')).not.toBeInTheDocument();
    expect(within(dialog).getByText('Too long')).toBeInTheDocument();
    expect(within(dialog).getByText('Odd')).toBeInTheDocument();
    expect(within(dialog).getByRole('textbox', { name: 'Email' })).toHaveAttribute(
      'aria-invalid',
      'true',
    );
    expect(onClose).not.toHaveBeenCalled();
  });

  it("falls back to 'Failed to change profile'", async () => {
    fakeServer({ 'POST /app/auth/user/profile': () => new Response('', { status: 500 }) });
    const { user, dialog } = await open();
    await user.click(within(dialog).getByRole('button', { name: 'Save changes' }));
    expect(await screen.findByText('Failed to change profile')).toBeInTheDocument();
  });

  it('is refused on the client in maintenance, with the read-only message', async () => {
    const server = fakeServer({});
    api.setMaintenance(true);
    const { user, dialog } = await open();
    await user.click(within(dialog).getByRole('button', { name: 'Save changes' }));
    expect(await screen.findByText(MAINTENANCE_MESSAGE)).toBeInTheDocument();
    // Only the status is re-read before the refusal (the maintenance may have ended); the
    // profile is never sent.
    expect(server.requests.map((r) => r.method)).not.toContain('POST');
  });
});

describe('Change password', () => {
  async function open() {
    const onClose = vi.fn();
    const view = await renderWithRouter(<ChangePasswordDialog opened onClose={onClose} />);
    const dialog = await screen.findByRole('dialog', { name: 'Change password' });
    const fields = {
      old: within(dialog).getByLabelText('Old password'),
      password: within(dialog).getByLabelText('New password'),
      confirm: within(dialog).getByLabelText('Confirm password'),
      save: within(dialog).getByRole('button', { name: 'Save changes' }),
    };
    return { ...view, onClose, dialog, ...fields };
  }

  it("enables 'Save changes' only when all three are filled", async () => {
    fakeServer({});
    const { user, old, password, confirm, save } = await open();
    expect(save).toBeDisabled();
    await pasteInto(user, old, 'Old-pass1');
    await pasteInto(user, password, 'New-pass1');
    expect(save).toBeDisabled();
    await pasteInto(user, confirm, 'New-pass1');
    expect(save).toBeEnabled();
    await user.clear(old);
    expect(save).toBeDisabled();
  });

  it('sends the three fields and confirms', async () => {
    const server = fakeServer({ 'POST /app/auth/change-password': () => empty() });
    const { user, old, password, confirm, save, onClose } = await open();
    await pasteInto(user, old, 'Old-pass1');
    await pasteInto(user, password, 'New-pass1!');
    await pasteInto(user, confirm, 'New-pass1!');
    await user.click(save);
    expect(await screen.findByText('Password has been changed')).toBeInTheDocument();
    expect(server.calls('POST /app/auth/change-password')[0]?.body).toEqual({
      old_password: 'Old-pass1',
      password: 'New-pass1!',
      confirm: 'New-pass1!',
    });
    expect(onClose).toHaveBeenCalled();
  });

  it('shows the first error of old_password, password and confirm under the fields', async () => {
    fakeServer({
      'POST /app/auth/change-password': () =>
        json(
          {
            old_password: ['The old password is incorrect'],
            password: ['Password is not strong enough', 'More'],
            confirm: ['Passwords must match'],
          },
          400,
        ),
    });
    const { user, dialog, old, password, confirm, save } = await open();
    await user.type(old, 'x');
    await user.type(password, 'y');
    await user.type(confirm, 'z');
    await user.click(save);
    expect(await within(dialog).findByText('The old password is incorrect')).toBeInTheDocument();
    expect(within(dialog).getByText('Password is not strong enough')).toBeInTheDocument();
    expect(within(dialog).queryByText('More')).not.toBeInTheDocument();
    expect(within(dialog).getByText('Passwords must match')).toBeInTheDocument();
    expect(old).toHaveAttribute('aria-invalid', 'true');
  });

  it("falls back to 'Failed to change password'", async () => {
    fakeServer({ 'POST /app/auth/change-password': () => new Response('', { status: 500 }) });
    const { user, old, password, confirm, save } = await open();
    await user.type(old, 'x');
    await user.type(password, 'y');
    await user.type(confirm, 'z');
    await user.click(save);
    expect(await screen.findByText('Failed to change password')).toBeInTheDocument();
  });

  it('explains the password rule in a tooltip', async () => {
    fakeServer({});
    const { user, dialog } = await open();
    await user.hover(within(dialog).getByRole('button', { name: 'Password rules' }));
    expect(
      await screen.findByText(
        'At least 8 characters and at least 3 of the 4 categories: lowercase letters, uppercase letters, digits, special characters.',
      ),
    ).toBeInTheDocument();
  });
});

describe('Close account', () => {
  async function open() {
    const view = await renderWithRouter(
      <CloseAccountDialog opened onClose={vi.fn()} username="jane" />,
    );
    view.queryClient.setQueryData(initQueryOptions.queryKey, {
      authenticated: true,
      superuser: false,
    });
    view.queryClient.setQueryData(profileQueryOptions.queryKey, profile);
    const dialog = await screen.findByRole('dialog', { name: 'Close account' });
    return {
      ...view,
      dialog,
      input: within(dialog).getByRole('textbox'),
      confirm: within(dialog).getByRole('button', { name: 'Close account' }),
    };
  }

  it('needs the own username typed exactly, then closes, clears the user and reloads /', async () => {
    const server = fakeServer({ 'DELETE /v1/user': () => new Response(null, { status: 204 }) });
    const reload = vi.spyOn(browser, 'reloadTo').mockImplementation(() => undefined);
    const { user, input, confirm, queryClient } = await open();
    expect(confirm).toBeDisabled();
    await pasteInto(user, input, 'JANE');
    expect(confirm).toBeDisabled();
    await user.clear(input);
    await pasteInto(user, input, 'jane ');
    expect(confirm).toBeDisabled();
    await user.type(input, '{Backspace}');
    expect(confirm).toBeEnabled();
    await user.click(confirm);
    await waitFor(() => expect(reload).toHaveBeenCalledWith('/'));
    expect(server.calls('DELETE /v1/user')).toHaveLength(1);
    expect(queryClient.getQueryData(initQueryOptions.queryKey)).toEqual({
      authenticated: false,
      superuser: false,
    });
    expect(queryClient.getQueryData(profileQueryOptions.queryKey)).toBeUndefined();
  });

  it("says 'Unable to close account' when it fails", async () => {
    fakeServer({ 'DELETE /v1/user': () => new Response('', { status: 500 }) });
    const reload = vi.spyOn(browser, 'reloadTo').mockImplementation(() => undefined);
    const { user, input, confirm, queryClient } = await open();
    await pasteInto(user, input, 'jane');
    await user.click(confirm);
    expect(await screen.findByText('Unable to close account')).toBeInTheDocument();
    expect(reload).not.toHaveBeenCalled();
    expect(queryClient.getQueryData(profileQueryOptions.queryKey)).toEqual(profile);
  });

  it('shows the server detail when there is one', async () => {
    fakeServer({ 'DELETE /v1/user': () => problem('Account is not active', 400) });
    vi.spyOn(browser, 'reloadTo').mockImplementation(() => undefined);
    const { user, input, confirm } = await open();
    await pasteInto(user, input, 'jane');
    await user.click(confirm);
    expect(await screen.findByText('Account is not active')).toBeInTheDocument();
  });
});
