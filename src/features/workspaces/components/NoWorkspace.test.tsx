import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { fakeServer, json } from '@/test/fakeServer';
import { renderWithRouter } from '@/test/render';
import { NoWorkspace } from './NoWorkspace';

// The sign-out dialog loads when first opened: have its module transformed beforehand.
beforeAll(async () => {
  await import('@/components/AppDialog');
});

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('NoWorkspace', () => {
  it('offers no workspace creation unless asked to', async () => {
    await renderWithRouter(
      <NoWorkspace onSignOut={vi.fn()} countUnsent={() => Promise.resolve(0)} />,
    );
    expect(screen.queryByRole('button', { name: 'Create workspace' })).not.toBeInTheDocument();
  });

  it('creates a workspace, showing the server field error first', async () => {
    const server = fakeServer({
      'POST /v1/workspace': (request) =>
        (request.body as { name: string }).name === 'x'
          ? json({ name: ['Workspace name must be 2 to 50 characters long'] }, 400)
          : json(
              {
                id: 7,
                name: 'field team',
                storage: 5,
                disk_usage: 0,
                project_count: 0,
                role: 'owner',
              },
              201,
            ),
    });
    const onCreated = vi.fn();
    const { user } = await renderWithRouter(
      <NoWorkspace
        onSignOut={vi.fn()}
        onWorkspaceCreated={onCreated}
        countUnsent={() => Promise.resolve(0)}
      />,
    );
    expect(screen.getByText('Or create a workspace of your own:')).toBeInTheDocument();
    const name = screen.getByRole('textbox', { name: 'Workspace name' });
    await user.type(name, 'x');
    await user.click(screen.getByRole('button', { name: 'Create workspace' }));
    expect(
      await screen.findByText('Workspace name must be 2 to 50 characters long'),
    ).toBeInTheDocument();
    expect(onCreated).not.toHaveBeenCalled();

    await user.clear(name);
    await user.type(name, ' field team ');
    await user.click(screen.getByRole('button', { name: 'Create workspace' }));
    await waitFor(() => expect(onCreated).toHaveBeenCalledWith(expect.objectContaining({ id: 7 })));
    expect(server.calls('POST /v1/workspace').map((r) => r.body)).toEqual([
      { name: 'x' },
      { name: 'field team' },
    ]);
  });

  it('signs out at once when every upload has been sent', async () => {
    const onSignOut = vi.fn();
    const { user } = await renderWithRouter(
      <NoWorkspace onSignOut={onSignOut} countUnsent={() => Promise.resolve(0)} />,
    );
    expect(
      screen.getByText(
        'Ask an administrator of your team to add you to a workspace. Until then you can manage your account in your profile.',
      ),
    ).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Sign out' }));
    await waitFor(() => expect(onSignOut).toHaveBeenCalledTimes(1));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it('asks before signing out while uploads are not sent yet', async () => {
    const onSignOut = vi.fn();
    const { user } = await renderWithRouter(
      <NoWorkspace onSignOut={onSignOut} countUnsent={() => Promise.resolve(3)} />,
    );
    await user.click(screen.getByRole('button', { name: 'Sign out' }));
    let dialog = await screen.findByRole('dialog', { name: 'Uploads not sent yet' });
    expect(
      within(dialog).getByText(
        '3 uploads have not been sent yet. Signing out deletes them from this device.',
      ),
    ).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Keep signed in' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(onSignOut).not.toHaveBeenCalled();

    await user.click(screen.getByRole('button', { name: 'Sign out' }));
    dialog = await screen.findByRole('dialog', { name: 'Uploads not sent yet' });
    await user.click(within(dialog).getByRole('button', { name: 'Sign out and delete them' }));
    expect(onSignOut).toHaveBeenCalledTimes(1);
  });
});
