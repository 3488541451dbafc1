import { notifications } from '@mantine/notifications';
import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { api } from '@/api';
import { db } from '@/db';
import { NO_WORKSPACE_TITLE } from '@/features/workspaces/components/NoWorkspace';
import { json, sessionHandlers, type FakeHandler } from '@/test/fakeServer';
import { closeApp, openApp } from './openApp';

beforeEach(async () => {
  api.setCsrfToken(null);
  api.setMaintenance(false);
  await db.lastWorkspace.clear();
  await db.closedElements.clear();
  window.sessionStorage.clear();
});

afterEach(() => {
  closeApp();
  notifications.clean();
  vi.unstubAllGlobals();
});

const project = {
  id: 'p1',
  name: 'survey',
  namespace: 'mergin',
  version: 'v3',
  updated: new Date().toISOString(),
  disk_usage: 1024 * 1024,
  tags: ['valid_qgis'],
  has_conflict: false,
  access: { owners: [1], writers: [1], readers: [1, 2], public: false },
};

function dashboardHandlers(
  options: Parameters<typeof sessionHandlers>[0] = { authenticated: true },
): Record<string, FakeHandler> {
  return {
    ...sessionHandlers(options),
    'GET /v1/project/paginated': () => json({ projects: [project], count: 1 }),
    'GET /app/project/access-request/mergin': () =>
      json({
        items: [
          {
            id: 4,
            requested_by: 'bob',
            project_name: 'survey',
            namespace: 'mergin',
            expire: new Date(Date.now() + 2 * 86_400_000 + 60_000).toISOString(),
            status: 'pending',
          },
        ],
        count: 1,
      }),
    'GET /app/project/access-requests': () => json({ items: [], count: 0 }),
  };
}

describe('dashboard', () => {
  it('shows access requests to workspace admins, recent projects and the mobile-app footer', async () => {
    const { server } = await openApp('/dashboard', dashboardHandlers());
    expect(await screen.findByRole('heading', { level: 1, name: 'Dashboard' })).toBeInTheDocument();
    const requests = await screen.findByRole('region', { name: 'Access requests' });
    expect(await within(requests).findByText('bob')).toBeInTheDocument();
    expect(within(requests).getByText('2 days')).toBeInTheDocument();
    const recent = screen.getByRole('region', { name: 'Recent active projects' });
    expect(await within(recent).findByRole('link', { name: 'survey' })).toHaveAttribute(
      'href',
      '/projects/mergin/survey',
    );
    expect(within(recent).getByText('1.0 MB')).toBeInTheDocument();
    expect(await screen.findByRole('complementary', { name: 'Mobile app' })).toBeInTheDocument();
    const [call] = server.calls('GET /v1/project/paginated');
    expect(call?.url).toContain('only_namespace=mergin');
  });

  it('has no access requests section for other roles', async () => {
    const workspaces = [{ id: 1, name: 'mergin', role: 'writer', storage: 10, disk_usage: 0 }];
    const { server } = await openApp(
      '/dashboard',
      dashboardHandlers({ authenticated: true, workspaces }),
    );
    expect(await screen.findByRole('region', { name: 'Recent active projects' })).toBeVisible();
    expect(await screen.findByRole('link', { name: 'survey' })).toBeInTheDocument();
    expect(screen.queryByRole('region', { name: 'Access requests' })).not.toBeInTheDocument();
    expect(server.calls('GET /app/project/access-request/mergin')).toHaveLength(0);
  });

  it('shows the onboarding layout to a user without a workspace', async () => {
    await openApp(
      '/dashboard',
      dashboardHandlers({
        authenticated: true,
        workspaces: [],
        profile: { workspaces: [], preferred_workspace: null },
      }),
    );
    expect(
      await screen.findByRole('heading', { level: 1, name: NO_WORKSPACE_TITLE }),
    ).toBeInTheDocument();
    expect(screen.queryByRole('navigation', { name: 'Main' })).not.toBeInTheDocument();
    // The onboarding's content loads lazily (first-screen budget): wait for it.
    expect(await screen.findByRole('link', { name: 'Your profile' })).toHaveAttribute(
      'href',
      '/profile',
    );
  });

  it("keeps /profile in the shell for a user without a workspace ('no workspace')", async () => {
    await openApp(
      '/profile',
      dashboardHandlers({
        authenticated: true,
        workspaces: [],
        profile: { workspaces: [], preferred_workspace: null },
      }),
    );
    expect(await screen.findByText('Account details')).toBeInTheDocument();
    expect(await screen.findByRole('navigation', { name: 'Main' })).toBeInTheDocument();
    expect(await screen.findByText('no workspace')).toBeInTheDocument();
  });
});

describe('profile', () => {
  it('shows the account details and the own access requests', async () => {
    await openApp('/profile', {
      ...dashboardHandlers(),
      'GET /app/project/access-requests': () =>
        json({
          items: [
            {
              id: 9,
              requested_by: 'admin',
              project_name: 'roads',
              namespace: 'other',
              expire: new Date(Date.now() + 86_400_000 * 3).toISOString(),
            },
          ],
          count: 1,
        }),
    });
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Account details' }),
    ).toBeInTheDocument();
    expect(screen.getByText('Ada Admin')).toBeInTheDocument();
    const crumbs = screen.getByRole('navigation', { name: 'Breadcrumbs' });
    expect(within(crumbs).getByText('Profile')).toBeInTheDocument();
    expect(
      await screen.findByText('You requested an access to project roads in workspace other'),
    ).toBeInTheDocument();
  });

  it('says "Failed to fetch user\'s profile" when the profile cannot be read', async () => {
    await openApp('/profile', {
      ...dashboardHandlers(),
      'GET /v1/user/profile': () => new Response('', { status: 500 }),
    });
    expect(await screen.findByRole('alert')).toHaveTextContent("Failed to fetch user's profile");
  });
});

describe('the error catalogue of spec 000 §8 at the application level', () => {
  it("'Failed to init application.' when /app/init fails", async () => {
    await openApp('/dashboard', {
      ...dashboardHandlers(),
      'GET /app/init': () => new Response('', { status: 500 }),
    });
    expect(await screen.findByRole('alert')).toHaveTextContent('Failed to init application.');
    expect(screen.getByRole('button', { name: 'Try again' })).toBeInTheDocument();
  });

  it("'Failed to fetch ping data.' and 'Failed to fetch config data.' as toasts", async () => {
    await openApp('/login', {
      ...sessionHandlers({ authenticated: false }),
      'GET /ping': () => new Response('', { status: 500 }),
      'GET /config': () => new Response('', { status: 502 }),
    });
    // Both toasts watched at once: each closes itself after 5 s, and on a busy machine one
    // came and went while the test still waited for the other (issue 37).
    await Promise.all([
      screen.findByText('Failed to fetch ping data.'),
      screen.findByText('Failed to fetch config data.'),
    ]);
  });

  it("'Failed to load workspace(s)' as a toast", async () => {
    await openApp('/dashboard', {
      ...dashboardHandlers(),
      'GET /v1/workspaces': () => new Response('', { status: 500 }),
    });
    expect(await screen.findByText('Failed to load workspace(s)')).toBeInTheDocument();
  });

  it('a toast for a failed request is shown once and then cleared', async () => {
    await openApp('/dashboard', {
      ...dashboardHandlers(),
      'GET /v1/workspaces': () => new Response('', { status: 500 }),
    });
    expect(await screen.findAllByText('Failed to load workspace(s)')).toHaveLength(1);
    notifications.clean();
    await waitFor(() =>
      expect(screen.queryByText('Failed to load workspace(s)')).not.toBeInTheDocument(),
    );
  });
});
