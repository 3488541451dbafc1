import { screen, waitFor, within } from '@testing-library/react';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { renderWithRouter } from '@/test/render';
import { AppLayout, type AppLayoutProps } from './AppLayout';

// The drawer and the sign-out dialog load when first opened: have their modules transformed
// beforehand, so a busy machine does not outlast the queries' timeouts.
beforeAll(async () => {
  await Promise.all([import('./SidebarDrawer'), import('@/components/AppDialog')]);
});

const user = {
  username: 'averyveryverylongusername',
  name: 'Jane Q Doe',
  email: 'jane@example.com',
};

function layout(props: Partial<AppLayoutProps> = {}) {
  return (
    <AppLayout
      user={user}
      workspaceName="field-team"
      maintenance={false}
      crumbs={[{ label: 'Dashboard', to: '/dashboard' }]}
      onSignOut={vi.fn()}
      countUnsentUploads={() => Promise.resolve(0)}
      docsUrl="https://docs.example.com"
      {...props}
    >
      <p>page body</p>
    </AppLayout>
  );
}

describe('AppLayout', () => {
  it('shows the shortened user name, the workspace and initials', async () => {
    await renderWithRouter(layout(), { path: '/dashboard' });
    const button = screen.getByRole('button', { name: /^Profile menu/ });
    expect(within(button).getByText('averyveryverylo…')).toBeInTheDocument();
    expect(within(button).getByText('field-team')).toBeInTheDocument();
    expect(within(button).getByText('JD')).toBeInTheDocument();
    expect(screen.getByText('page body')).toBeInTheDocument();
  });

  it("says 'no workspace' without one", async () => {
    await renderWithRouter(layout({ workspaceName: null }));
    expect(screen.getByText('no workspace')).toBeInTheDocument();
  });

  it('opens the profile menu with full name, email, Your profile and Sign out', async () => {
    const onSignOut = vi.fn();
    const { user: u } = await renderWithRouter(layout({ onSignOut }));
    await u.click(screen.getByRole('button', { name: /^Profile menu/ }));
    // The menu's code loads on the first click (lazyMenu).
    const menu = await screen.findByRole('menu');
    expect(within(menu).getByText('Jane Q Doe')).toBeInTheDocument();
    expect(within(menu).getByText('jane@example.com')).toBeInTheDocument();
    expect(within(menu).getByRole('menuitem', { name: 'Your profile' })).toHaveAttribute(
      'href',
      '/profile',
    );
    await u.click(within(menu).getByRole('menuitem', { name: 'Sign out' }));
    await waitFor(() => expect(onSignOut).toHaveBeenCalledTimes(1));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it('lists the workspaces with roles, switches on a choice and offers Members to admins', async () => {
    const onSelect = vi.fn();
    const workspaces = [
      { id: 1, name: 'field-team', role: 'admin' },
      { id: 2, name: 'survey-crew', role: 'reader' },
    ];
    const { user: u } = await renderWithRouter(
      layout({ workspaceSwitcher: { workspaces, currentId: 1, onSelect, canManageMembers: true } }),
    );
    // 'Members' of the current workspace is in the sidebar too.
    const nav = screen.getByRole('navigation', { name: 'Main' });
    expect(within(nav).getByRole('link', { name: 'Members' })).toHaveAttribute(
      'href',
      '/workspaces/field-team/members',
    );
    await u.click(screen.getByRole('button', { name: /^Profile menu/ }));
    const menu = await screen.findByRole('menu');
    const current = within(menu).getByRole('menuitem', { name: 'field-team admin' });
    expect(current).toHaveAttribute('aria-current', 'true');
    expect(within(menu).getByRole('menuitem', { name: 'Members' })).toBeInTheDocument();
    await u.click(current);
    expect(onSelect).not.toHaveBeenCalled();

    await u.click(screen.getByRole('button', { name: /^Profile menu/ }));
    const reopened = await screen.findByRole('menu');
    const other = within(reopened).getByRole('menuitem', { name: 'survey-crew reader' });
    expect(other).not.toHaveAttribute('aria-current');
    await u.click(other);
    expect(onSelect).toHaveBeenCalledWith(2);
  });

  it('offers no Members entry to other roles', async () => {
    const { user: u } = await renderWithRouter(
      layout({
        workspaceSwitcher: {
          workspaces: [{ id: 2, name: 'survey-crew', role: 'reader' }],
          currentId: 2,
          onSelect: vi.fn(),
          canManageMembers: false,
        },
      }),
    );
    await u.click(screen.getByRole('button', { name: /^Profile menu/ }));
    const menu = await screen.findByRole('menu');
    expect(within(menu).getByRole('menuitem', { name: 'survey-crew reader' })).toBeInTheDocument();
    expect(within(menu).queryByRole('menuitem', { name: 'Members' })).not.toBeInTheDocument();
    const nav = screen.getByRole('navigation', { name: 'Main' });
    expect(within(nav).getByRole('link', { name: 'Projects' })).toBeInTheDocument();
    expect(within(nav).queryByRole('link', { name: 'Members' })).not.toBeInTheDocument();
  });

  it('asks before signing out while uploads are not sent yet', async () => {
    const onSignOut = vi.fn();
    const { user: u } = await renderWithRouter(
      layout({ onSignOut, countUnsentUploads: () => Promise.resolve(2) }),
    );
    const signOut = async () => {
      await u.click(screen.getByRole('button', { name: /^Profile menu/ }));
      await u.click(
        within(await screen.findByRole('menu')).getByRole('menuitem', { name: 'Sign out' }),
      );
      return screen.findByRole('dialog', { name: 'Uploads not sent yet' });
    };

    let dialog = await signOut();
    expect(
      within(dialog).getByText(
        '2 uploads have not been sent yet. Signing out deletes them from this device.',
      ),
    ).toBeInTheDocument();
    const keep = within(dialog).getByRole('button', { name: 'Keep signed in' });
    await waitFor(() => expect(keep).toHaveFocus());
    await u.click(keep);
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(onSignOut).not.toHaveBeenCalled();

    dialog = await signOut();
    await u.click(within(dialog).getByRole('button', { name: 'Sign out and delete them' }));
    expect(onSignOut).toHaveBeenCalledTimes(1);
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });

  it('names a single upload in the sign-out confirmation', async () => {
    const { user: u } = await renderWithRouter(
      layout({ countUnsentUploads: () => Promise.resolve(1) }),
    );
    await u.click(screen.getByRole('button', { name: /^Profile menu/ }));
    await u.click(
      within(await screen.findByRole('menu')).getByRole('menuitem', { name: 'Sign out' }),
    );
    const dialog = await screen.findByRole('dialog', { name: 'Uploads not sent yet' });
    expect(
      within(dialog).getByText(
        '1 upload has not been sent yet. Signing out deletes it from this device.',
      ),
    ).toBeInTheDocument();
  });

  it('offers Documentation and Community chat in the help menu', async () => {
    const { user: u } = await renderWithRouter(
      layout({ communityUrl: 'https://chat.example.com' }),
    );
    await u.click(screen.getByRole('button', { name: 'Help' }));
    expect(await screen.findByRole('menuitem', { name: 'Documentation' })).toHaveAttribute(
      'href',
      'https://docs.example.com',
    );
    expect(screen.getByRole('menuitem', { name: 'Community chat' })).toHaveAttribute(
      'href',
      'https://chat.example.com',
    );
  });

  it('opens the sidebar as a drawer below 1200px and closes it when an entry is clicked', async () => {
    const { user: u } = await renderWithRouter(layout(), { path: '/dashboard' });
    const burger = screen.getByRole('button', { name: 'Toggle sidebar' });
    expect(burger).toHaveAttribute('aria-expanded', 'false');
    await u.click(burger);
    // The drawer's code loads on first open.
    const dialog = await screen.findByRole('dialog');
    await u.click(within(dialog).getByRole('link', { name: 'Projects' }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it('shows Sign in and no sidebar to anonymous visitors', async () => {
    await renderWithRouter(layout({ user: null, signInRedirect: '/projects/explore' }));
    expect(screen.getByRole('link', { name: 'Sign in' })).toHaveAttribute(
      'href',
      '/login?redirect=/projects/explore',
    );
    expect(screen.queryByRole('button', { name: 'Toggle sidebar' })).not.toBeInTheDocument();
    expect(screen.queryByRole('navigation', { name: 'Main' })).not.toBeInTheDocument();
  });

  it('shows the maintenance banner', async () => {
    await renderWithRouter(layout({ maintenance: true }));
    expect(screen.getByText(/read-only mode for maintenance/)).toBeInTheDocument();
  });
});
