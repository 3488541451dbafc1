import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { fakeServer, json, problem } from '@/test/fakeServer';
import { pasteInto, renderWithRouter } from '@/test/render';
import { WorkspaceMembers } from './WorkspaceMembers';

beforeAll(async () => {
  await import('@/components/AppDialog');
});

afterEach(() => {
  vi.unstubAllGlobals();
});

const members = [
  { id: 1, username: 'olga', email: 'olga@example.com', workspace_role: 'owner' },
  { id: 2, username: 'adam', email: 'adam@example.com', workspace_role: 'admin' },
  { id: 3, username: 'rita', email: 'rita@example.com', workspace_role: 'reader' },
];

function server() {
  return fakeServer({
    'GET /v2/workspaces/5/members': () => json(members),
    'GET /v2/workspaces/5/invitations': () => json([]),
    'DELETE /v2/workspaces/5/members/3': () => new Response(null, { status: 204 }),
    'PATCH /v2/workspaces/5/members/3': () => problem('Permission denied.', 403),
  });
}

describe('WorkspaceMembers', () => {
  it('marks members holding a global role and offers no removal of it', async () => {
    fakeServer({
      'GET /v2/workspaces/5/members': () =>
        json([
          ...members,
          {
            id: 4,
            username: 'gina',
            email: 'gina@example.com',
            workspace_role: 'reader',
            global: true,
          },
        ]),
      'GET /v2/workspaces/5/invitations': () => json([]),
    });
    await renderWithRouter(
      <WorkspaceMembers workspace={{ id: 5, name: 'crew', role: 'owner' }} viewerId={1} />,
    );
    const table = await screen.findByRole('region', { name: 'Members' });
    const gina = (await within(table).findByText('gina')).closest('tr') as HTMLElement;
    expect(within(gina).getByText('(global role)')).toBeInTheDocument();
    expect(within(gina).getByRole('combobox', { name: 'Role of gina' })).toBeEnabled();
    expect(within(gina).queryByRole('button', { name: 'Remove gina' })).not.toBeInTheDocument();
    expect(within(table).getByRole('button', { name: 'Remove rita' })).toBeInTheDocument();
  });

  it('lets an admin manage members below owner only, and never offers the owner role', async () => {
    server();
    const { user } = await renderWithRouter(
      <WorkspaceMembers workspace={{ id: 5, name: 'crew', role: 'admin' }} viewerId={2} />,
    );
    const table = await screen.findByRole('region', { name: 'Members' });
    await within(table).findByText('rita');
    expect(within(table).getByRole('combobox', { name: 'Role of olga' })).toBeDisabled();
    expect(within(table).queryByRole('button', { name: 'Remove olga' })).not.toBeInTheDocument();
    expect(within(table).getByRole('button', { name: 'Remove rita' })).toBeInTheDocument();
    expect(within(table).getByText('(me)')).toBeInTheDocument();

    await user.click(within(table).getByRole('combobox', { name: 'Role of rita' }));
    expect(await screen.findByRole('option', { name: 'Owner' })).toHaveAttribute(
      'aria-disabled',
      'true',
    );
    await user.click(screen.getByRole('option', { name: 'Writer' }));
    expect(await screen.findByText('Permission denied.')).toBeInTheDocument();
  });

  it('removes a member only after the confirmation', async () => {
    const fake = server();
    const { user } = await renderWithRouter(
      <WorkspaceMembers workspace={{ id: 5, name: 'crew', role: 'owner' }} viewerId={1} />,
    );
    const table = await screen.findByRole('region', { name: 'Members' });
    await user.click(await within(table).findByRole('button', { name: 'Remove rita' }));
    const dialog = await screen.findByRole('dialog', { name: 'Remove member' });
    expect(within(dialog).getByText('Remove rita from crew?')).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(fake.calls('DELETE /v2/workspaces/5/members/3')).toHaveLength(0);

    await user.click(within(table).getByRole('button', { name: 'Remove rita' }));
    await user.click(
      within(await screen.findByRole('dialog', { name: 'Remove member' })).getByRole('button', {
        name: 'Remove',
      }),
    );
    expect(await screen.findByText('rita was removed from crew')).toBeInTheDocument();
    expect(fake.calls('DELETE /v2/workspaces/5/members/3')).toHaveLength(1);
  });

  it("shows the server's answer when too many invitations were sent, keeping the address", async () => {
    const fake = server();
    fake.on('POST /v2/workspaces/5/invitations', () =>
      problem('Too many invitations. Please try again later.', 429),
    );
    const { user } = await renderWithRouter(
      <WorkspaceMembers workspace={{ id: 5, name: 'crew', role: 'owner' }} viewerId={1} />,
    );
    const section = await screen.findByRole('region', { name: 'Invite a member' });
    const email = within(section).getByRole('textbox', { name: 'Email' });
    await pasteInto(user, email, 'new@example.org');
    await user.click(within(section).getByRole('button', { name: 'Invite' }));
    expect(
      await screen.findByText('Too many invitations. Please try again later.'),
    ).toBeInTheDocument();
    expect(email).toHaveValue('new@example.org');
    expect(fake.calls('POST /v2/workspaces/5/invitations')).toHaveLength(1);
  });
});
