import { notifications } from '@mantine/notifications';
import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeServer, json, problem } from '@/test/fakeServer';
import { pasteInto, renderWithRouter } from '@/test/render';
import type { GlobalRole } from '@/lib/permissions';
import type { ProjectMember } from '../model/collaborators';
import { ProjectCollaborators } from './ProjectCollaborators';

const project = {
  id: 'p1',
  name: 'survey',
  namespace: 'waymark',
  access: { ownersnames: ['ada'], writersnames: ['ada'], readersnames: ['ada'] },
};

function member(
  id: number,
  username: string,
  role: ProjectMember['role'],
  direct: ProjectMember['project_role'] = role,
): ProjectMember {
  return {
    id,
    type: 'member',
    username,
    email: `${username}@field.org`,
    name: '',
    workspace_role: 'reader',
    project_role: direct,
    role,
    project_permission: role,
    roles: direct ? [direct] : [],
  };
}

const ada = member(1, 'ada', 'owner');
const ben = member(2, 'ben', 'writer');
const cy = member(3, 'cy', 'owner', null);

function show(
  members: ProjectMember[],
  options: { globalRole?: GlobalRole; viewerRole?: string; canShare?: boolean } = {},
) {
  const server = fakeServer({ 'GET /app/project/p1/access': () => json(members) });
  const onAccessChanged = vi.fn();
  const rendered = renderWithRouter(
    <ProjectCollaborators
      project={project}
      viewerId={1}
      viewerRole={options.viewerRole ?? 'owner'}
      globalRole={options.globalRole}
      canShare={options.canShare ?? true}
      docsUrl="https://docs.example.com"
      onAccessChanged={onAccessChanged}
    />,
  );
  return { server, onAccessChanged, rendered };
}

/**
 * The table row of a member, found by the email shown in it. By text: a cell's accessible name
 * is computed from every row's selects and buttons, seconds per lookup in jsdom under load.
 */
function rowOf(username: string): HTMLElement {
  return screen.getByText(`${username}@field.org`).closest('tr') as HTMLElement;
}

beforeEach(() => notifications.clean());
afterEach(() => vi.unstubAllGlobals());

describe('ProjectCollaborators', () => {
  it('lists email, username and permissions, and marks the viewer with (me)', async () => {
    const { rendered } = show([ada, ben]);
    await rendered;
    const table = await screen.findByRole('table');
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((cell) => cell.textContent),
    ).toEqual(['Email', 'Username', 'Project permissions', 'Remove']);
    expect(within(rowOf('ada')).getByText('(me)')).toBeInTheDocument();
    expect(rowOf('ben')).not.toHaveTextContent('(me)');
    expect(within(rowOf('ben')).getByRole('cell', { name: 'ben@field.org' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Share' })).toBeInTheDocument();
  });

  it("disables the viewer's own role select and hides their remove button", async () => {
    await show([ada, ben]).rendered;
    await screen.findByRole('table');
    expect(
      within(rowOf('ada')).getByRole('combobox', { name: 'Project permissions of ada' }),
    ).toBeDisabled();
    expect(
      within(rowOf('ben')).getByRole('combobox', { name: 'Project permissions of ben' }),
    ).toBeEnabled();
    expect(within(rowOf('ada')).queryByRole('button', { name: 'Remove ada' })).toBeNull();
    expect(within(rowOf('ben')).getByRole('button', { name: 'Remove ben' })).toBeInTheDocument();
  });

  it('hides remove for members without a direct role and while a global role is set', async () => {
    const first = show([ada, ben, cy]);
    const { unmount } = await first.rendered;
    await screen.findByRole('table');
    expect(screen.queryByRole('button', { name: 'Remove cy' })).toBeNull();
    unmount();
    vi.unstubAllGlobals();
    await show([ada, ben], { globalRole: 'global_read', canShare: false }).rendered;
    await screen.findByRole('table');
    expect(screen.queryByRole('button', { name: /^Remove/ })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Share' })).toBeNull();
  });

  it("disables role options above the viewer's own role", async () => {
    const { user } = await show([ada, ben], { viewerRole: 'writer' }).rendered;
    await screen.findByRole('table');
    await user.click(screen.getByRole('combobox', { name: 'Project permissions of ben' }));
    const listbox = await screen.findByRole('listbox');
    expect(within(listbox).getByRole('option', { name: 'Owner' })).toHaveAttribute(
      'data-combobox-disabled',
      'true',
    );
    expect(within(listbox).getByRole('option', { name: 'Reader' })).not.toHaveAttribute(
      'data-combobox-disabled',
    );
  });

  it('changes a role and removes a member through PATCH access', async () => {
    const { server, onAccessChanged, rendered } = show([ada, ben]);
    const { user } = await rendered;
    server.on('PATCH /app/project/p1/access', (req) => {
      const body = req.body as { user_id: number; role: string };
      return json(body.role === 'none' ? [ada] : [ada, { ...ben, role: body.role }]);
    });
    await screen.findByRole('table');
    await user.click(screen.getByRole('combobox', { name: 'Project permissions of ben' }));
    await user.click(await screen.findByRole('option', { name: 'Reader' }));
    await waitFor(() => expect(server.calls('PATCH /app/project/p1/access')).toHaveLength(1));
    expect(server.calls('PATCH /app/project/p1/access')[0]?.body).toEqual({
      user_id: 2,
      role: 'reader',
    });
    expect(
      await screen.findByText('ben now has Reader permissions on this project'),
    ).toBeInTheDocument();
    // Removing asks first; Cancel keeps the member.
    await user.click(screen.getByRole('button', { name: 'Remove ben' }));
    const confirm = await screen.findByRole('dialog', { name: 'Remove ben?' });
    await user.click(within(confirm).getByRole('button', { name: 'Cancel' }));
    expect(server.calls('PATCH /app/project/p1/access')).toHaveLength(1);
    await user.click(screen.getByRole('button', { name: 'Remove ben' }));
    await user.click(
      within(await screen.findByRole('dialog', { name: 'Remove ben?' })).getByRole('button', {
        name: 'Remove',
      }),
    );
    await waitFor(() => expect(screen.queryByText('ben@field.org')).toBeNull());
    expect(await screen.findByText('ben was removed from the project')).toBeInTheDocument();
    expect(server.calls('PATCH /app/project/p1/access')[1]?.body).toEqual({
      user_id: 2,
      role: 'none',
    });
    expect(onAccessChanged).toHaveBeenCalledTimes(2);
  });

  it("names the user in 'Failed to update project access for user' when a change fails", async () => {
    const { server, rendered } = show([ada, ben]);
    const { user } = await rendered;
    server.on('PATCH /app/project/p1/access', () => json(undefined, 500));
    await screen.findByRole('table');
    await user.click(screen.getByRole('button', { name: 'Remove ben' }));
    await user.click(
      within(await screen.findByRole('dialog', { name: 'Remove ben?' })).getByRole('button', {
        name: 'Remove',
      }),
    );
    expect(
      await screen.findByText('Failed to update project access for user ben'),
    ).toBeInTheDocument();
  });

  it("searches members, sorts Z-A, pages by 10 and says 'No members found.'", async () => {
    const many = Array.from({ length: 12 }, (_, i) =>
      member(10 + i, `user${String(i).padStart(2, '0')}`, 'reader'),
    );
    const { user } = await show([ada, ...many]).rendered;
    await screen.findByRole('table');
    expect(screen.getAllByRole('row')).toHaveLength(11);
    expect(screen.getByRole('navigation', { name: 'Members pages' })).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Sort' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Sort by name Z-A' }));
    expect(screen.getAllByRole('row')[1]).toHaveTextContent('user11');
    await user.click(await screen.findByRole('button', { name: 'Page 2' }));
    expect(screen.getAllByRole('row')).toHaveLength(4);
    expect(screen.getAllByRole('row').at(-1)).toHaveTextContent('ada');
    await pasteInto(user, screen.getByRole('textbox', { name: 'Search members' }), 'user03');
    expect(screen.getAllByRole('row')).toHaveLength(2);
    expect(screen.queryByRole('navigation', { name: 'Members pages' })).toBeNull();
    await user.type(screen.getByRole('textbox', { name: 'Search members' }), 'x');
    expect(screen.getByText('No members found.')).toBeInTheDocument();
  });

  it.each([
    ["the server's text", () => problem('Not yours', 403), 'Not yours'],
    ["'Failed to get project access'", () => json(undefined, 500), 'Failed to get project access'],
  ])('shows %s when the list fails', async (_, answer, text) => {
    fakeServer({ 'GET /app/project/p1/access': answer });
    await renderWithRouter(
      <ProjectCollaborators
        project={project}
        viewerId={1}
        viewerRole="owner"
        globalRole={undefined}
        canShare
        docsUrl=""
        onAccessChanged={() => {}}
      />,
    );
    expect((await screen.findAllByText(text)).length).toBeGreaterThan(0);
  });
});
