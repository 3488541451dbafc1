import { notifications } from '@mantine/notifications';
import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeServer, json, problem, type FakeRequest } from '@/test/fakeServer';
import { renderWithRouter } from '@/test/render';
import type { UserSearchResult } from '../model/collaborators';
import { ShareDialog } from './ShareDialog';

const access = {
  owners: [1],
  writers: [1],
  readers: [1, 2],
  ownersnames: ['ada'],
  writersnames: ['ada'],
  readersnames: ['ada', 'ben'],
};

const person = (id: number, username: string, name = ''): UserSearchResult => ({
  id,
  username,
  email: `${username}@field.org`,
  name,
  profile: { first_name: null, last_name: null },
});

function open(results: UserSearchResult[], viewerRole = 'owner') {
  const server = fakeServer({ 'GET /app/auth/user/search': () => json(results) });
  const onShared = vi.fn();
  const onClose = vi.fn();
  const rendered = renderWithRouter(
    <ShareDialog
      opened
      onClose={onClose}
      namespace="waymark"
      projectName="survey"
      access={access}
      viewerRole={viewerRole}
      globalRole={undefined}
      docsUrl="https://docs.example.com"
      onShared={onShared}
    />,
  );
  return { server, onShared, onClose, rendered };
}

const field = () => screen.getByRole('textbox', { name: 'Share with' });
const shareButton = () => screen.getByRole('button', { name: 'Share' });

beforeEach(() => notifications.clean());
afterEach(() => vi.unstubAllGlobals());

describe('ShareDialog', () => {
  it('has the field with its placeholder, reader by default, the docs link and a disabled Share', async () => {
    await open([]).rendered;
    const dialog = screen.getByRole('dialog', { name: 'Share project' });
    expect(field()).toHaveAttribute('placeholder', 'Search users by username or email');
    expect(within(dialog).getByRole('combobox', { name: 'Permissions' })).toHaveValue('Reader');
    const docs = within(dialog).getByRole('link', { name: 'Learn more about permissions' });
    expect(docs).toHaveAttribute('href', 'https://docs.example.com/manage/permissions');
    expect(docs).toHaveAttribute('target', '_blank');
    expect(shareButton()).toBeDisabled();
  });

  it('suggests non-members after three typed letters, once each, with the hint footer', async () => {
    const { server, rendered } = open([
      person(2, 'ben'),
      person(7, 'dora', 'Dora Field'),
      person(7, 'dora', 'Dora Field'),
      person(8, 'eve'),
    ]);
    const { user } = await rendered;
    await user.click(field());
    expect(server.calls('GET /app/auth/user/search')).toHaveLength(0);
    await user.type(field(), 'eve');
    const options = await screen.findAllByRole('option');
    expect(options.map((o) => o.textContent)).toEqual([
      'Dora Fielddora@field.org',
      'eveeve@field.org',
    ]);
    expect(
      screen.getByText('Not the right person? Try typing their email instead'),
    ).toBeInTheDocument();
    const query = new URL(
      (server.calls('GET /app/auth/user/search')[0] as FakeRequest).url,
      'http://x',
    ).searchParams;
    expect(Object.fromEntries(query)).toEqual({ namespace: 'waymark', like: 'eve' });
  });

  it("says 'No matches found - Try using their emails instead' when nobody matches", async () => {
    const { user } = await open([person(2, 'ben')]).rendered;
    await user.type(field(), 'bob');
    expect(
      await screen.findByText('No matches found - Try using their emails instead'),
    ).toBeInTheDocument();
    expect(screen.queryByRole('option')).toBeNull();
  });

  it('adds only suggested users, once, and shares them with the chosen role', async () => {
    const { server, onShared, onClose, rendered } = open([person(7, 'dora', 'Dora Field')]);
    server.on('PUT /v1/project/waymark/survey', () => json({ id: 'p1' }));
    const { user } = await rendered;
    await user.type(field(), 'nobody{Enter}');
    expect(shareButton()).toBeDisabled();
    await user.clear(field());
    await user.type(field(), 'dor');
    await user.click(await screen.findByRole('option', { name: /Dora Field/ }));
    expect(screen.getByText('Dora Field')).toBeInTheDocument();
    await user.type(field(), 'dor');
    expect(
      await screen.findByText('No matches found - Try using their emails instead'),
    ).toBeInTheDocument();
    expect(shareButton()).toBeEnabled();
    await user.click(screen.getByRole('combobox', { name: 'Permissions' }));
    await user.click(await screen.findByRole('option', { name: 'Writer' }));
    await user.click(shareButton());
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(server.calls('PUT /v1/project/waymark/survey')[0]?.body).toEqual({
      access: { ownersnames: ['ada'], writersnames: ['ada', 'dora'], readersnames: ['ada', 'ben'] },
    });
    expect(onShared).toHaveBeenCalled();
    expect(
      await screen.findByText('Following users have been added to the project: dora'),
    ).toBeInTheDocument();
  });

  it('warns for a while about the users the server refused, and stays open', async () => {
    const { server, onClose, rendered } = open([person(7, 'dora')]);
    server.on('PUT /v1/project/waymark/survey', () =>
      json(
        {
          code: 'UpdateProjectAccessError',
          detail: 'Project access could not be updated (UpdateProjectAccessError)',
          invalid_usernames: ['dora'],
          invalid_ids: [],
        },
        422,
      ),
    );
    const { user } = await rendered;
    await user.type(field(), 'dor');
    await user.click(await screen.findByRole('option', { name: /dora/ }));
    await user.click(shareButton());
    expect(
      await screen.findByText('Unable to share project with the following users'),
    ).toBeInTheDocument();
    expect(screen.getAllByText('dora').length).toBeGreaterThan(0);
    expect(onClose).not.toHaveBeenCalled();
  });

  it("falls back to 'Failed to save project settings'", async () => {
    const { server, rendered } = open([person(7, 'dora')]);
    server.on('PUT /v1/project/waymark/survey', () => json(undefined, 500));
    const { user } = await rendered;
    await user.type(field(), 'dor');
    await user.click(await screen.findByRole('option', { name: /dora/ }));
    await user.click(shareButton());
    expect(await screen.findByText('Failed to save project settings')).toBeInTheDocument();
  });

  it('keeps roles above the viewer’s own out of reach', async () => {
    const { rendered } = open([], 'writer');
    const { user } = await rendered;
    await user.click(screen.getByRole('combobox', { name: 'Permissions' }));
    expect(await screen.findByRole('option', { name: 'Owner' })).toHaveAttribute(
      'data-combobox-disabled',
      'true',
    );
  });

  it('ignores a failed search', async () => {
    const server = fakeServer({
      'GET /app/auth/user/search': () => problem('Workspace not found', 404),
    });
    const { user } = await renderWithRouter(
      <ShareDialog
        opened
        onClose={() => {}}
        namespace="waymark"
        projectName="survey"
        access={access}
        viewerRole="owner"
        globalRole={undefined}
        docsUrl=""
        onShared={() => {}}
      />,
    );
    await user.type(field(), 'dor');
    await waitFor(() => expect(server.calls('GET /app/auth/user/search')).toHaveLength(1));
    expect(screen.queryByText('Workspace not found')).toBeNull();
    expect(shareButton()).toBeDisabled();
  });
});
