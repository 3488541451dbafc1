import { screen, waitFor, within } from '@testing-library/react';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { renderWithRouter } from '@/test/render';
import { NoWorkspace } from './NoWorkspace';

// The sign-out dialog loads when first opened: have its module transformed beforehand.
beforeAll(async () => {
  await import('@/components/AppDialog');
});

describe('NoWorkspace', () => {
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
