import { notifications } from '@mantine/notifications';
import { createMemoryHistory } from '@tanstack/react-router';
import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { api } from '@/api';
import { db } from '@/db';
import { empty, fakeServer, json, sessionHandlers, type FakeHandler } from '@/test/fakeServer';
import { createTestQueryClient, renderRouter } from '@/test/render';
import { MAINTENANCE_NOTICE } from '@/features/shell/components/MaintenanceBanner';
import { createAppRouter } from './router';
import { handleSessionEnded } from './session';

let unsubscribe: (() => void) | undefined;

beforeEach(async () => {
  api.setCsrfToken(null);
  api.setMaintenance(false);
  await db.lastWorkspace.clear();
  window.sessionStorage.clear();
});

afterEach(() => {
  unsubscribe?.();
  notifications.clean();
  vi.unstubAllGlobals();
});

async function open(path: string, handlers: Record<string, FakeHandler>) {
  const server = fakeServer(handlers);
  const queryClient = createTestQueryClient();
  const router = createAppRouter(queryClient, createMemoryHistory({ initialEntries: [path] }));
  unsubscribe = handleSessionEnded(api, queryClient, router);
  const view = await renderRouter(router, queryClient);
  return { ...view, server };
}

const anonymous = () => sessionHandlers({ authenticated: false });
const loggedIn = (extra: Parameters<typeof sessionHandlers>[0] = { authenticated: true }) =>
  sessionHandlers({ ...extra, authenticated: true });

function href(router: { state: { location: { href: string } } }) {
  return router.state.location.href;
}

describe('routes for anonymous visitors', () => {
  it("'/' goes to /login", async () => {
    const { router } = await open('/', anonymous());
    await waitFor(() => expect(href(router)).toBe('/login'));
    expect(await screen.findByLabelText('Username or email')).toBeInTheDocument();
  });

  it('pages that need a login send the visitor to /login with the wanted path', async () => {
    const { router } = await open('/dashboard', anonymous());
    await waitFor(() => expect(href(router)).toBe('/login?redirect=/dashboard'));
  });

  it('keeps the search of the wanted path in the redirect', async () => {
    const { router } = await open('/projects/ns/p/history/v3', anonymous());
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
    expect(router.state.location.search).toEqual({
      redirect: '/projects/ns/p/history?version_id=v3',
    });
  });

  it('/login/reset shows the reset-password form', async () => {
    await open('/login/reset', anonymous());
    expect(await screen.findByRole('button', { name: 'Reset password' })).toBeDisabled();
    expect(screen.getByLabelText('Email')).toBeInTheDocument();
  });

  it('public project pages show the shell with a Sign in link', async () => {
    const { router } = await open('/projects/ns/survey', anonymous());
    await waitFor(() => expect(href(router)).toBe('/projects/ns/survey/tree'));
    expect(await screen.findByRole('heading', { name: 'ns/survey' })).toBeInTheDocument();
    const signIn = screen.getByRole('link', { name: 'Sign in' });
    expect(signIn).toHaveAttribute('href', '/login?redirect=/projects/ns/survey/tree');
    expect(screen.queryByRole('navigation', { name: 'Main' })).not.toBeInTheDocument();
    const crumbs = screen.getByRole('navigation', { name: 'Breadcrumbs' });
    expect(within(crumbs).getByRole('link', { name: 'Projects' })).toHaveAttribute(
      'href',
      '/projects',
    );
    expect(within(crumbs).getByText('survey')).toBeInTheDocument();
  });

  it('blob links open the tree of the file folder with file_path', async () => {
    const { router } = await open('/projects/ns/p/blob/data/sub/points.gpkg', anonymous());
    await waitFor(() =>
      expect(router.state.location.pathname).toBe('/projects/ns/p/tree/data/sub'),
    );
    expect(router.state.location.search).toEqual({ file_path: 'data/sub/points.gpkg' });
    const crumbs = await screen.findByRole('navigation', { name: 'Breadcrumbs' });
    expect(within(crumbs).getByRole('link', { name: 'data' })).toHaveAttribute(
      'href',
      '/projects/ns/p/tree/data',
    );
    expect(within(crumbs).getByText('sub')).toBeInTheDocument();
  });

  it('file version detail is public, with project, version and path crumbs', async () => {
    await open('/projects/ns/p/history/v3/data/points.gpkg', anonymous());
    const crumbs = await screen.findByRole('navigation', { name: 'Breadcrumbs' });
    expect(within(crumbs).getByRole('link', { name: 'p' })).toBeInTheDocument();
    expect(within(crumbs).getByRole('link', { name: 'v3' })).toHaveAttribute(
      'href',
      '/projects/ns/p/history?version_id=v3',
    );
    expect(within(crumbs).getByText('data/points.gpkg')).toBeInTheDocument();
  });

  it('settings and collaborators need a login', async () => {
    const { router } = await open('/projects/ns/p/settings', anonymous());
    await waitFor(() => expect(href(router)).toBe('/login?redirect=/projects/ns/p/settings'));
  });

  it('unknown paths show the not-found page without the dashboard button', async () => {
    await open('/no/such/page', anonymous());
    expect(
      await screen.findByText('Ooops, it seems the GPS has lost its way.'),
    ).toBeInTheDocument();
    expect(
      screen.getByText('This page does not exist, check your url for mistakes, please.'),
    ).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Back to Dashboard' })).not.toBeInTheDocument();
  });

  it('an unknown /login parameter is not found', async () => {
    await open('/login/other', anonymous());
    expect(
      await screen.findByText('Ooops, it seems the GPS has lost its way.'),
    ).toBeInTheDocument();
  });
});

describe('routes for logged-in users', () => {
  it("'/' and /login go to the dashboard", async () => {
    const first = await open('/', loggedIn());
    await waitFor(() => expect(href(first.router)).toBe('/dashboard'));
    first.unmount();
    const second = await open('/login?redirect=/projects', loggedIn());
    await waitFor(() => expect(href(second.router)).toBe('/dashboard'));
  });

  it('the dashboard shows the header, sidebar and breadcrumb', async () => {
    await open('/dashboard', loggedIn());
    const sidebar = await screen.findByRole('navigation', { name: 'Main' });
    expect(within(sidebar).getByRole('link', { name: 'Dashboard' })).toHaveAttribute(
      'aria-current',
      'page',
    );
    expect(within(sidebar).getByRole('link', { name: 'Projects' })).toHaveAttribute(
      'href',
      '/projects',
    );
    expect(
      within(screen.getByRole('navigation', { name: 'Breadcrumbs' })).getByText('Dashboard'),
    ).toBeInTheDocument();
    expect(await screen.findByText('mergin')).toBeInTheDocument();
    expect(screen.getByText('admin')).toBeInTheDocument();
  });

  it('the dashboard warns when the storage is almost full', async () => {
    const workspaces = [{ id: 1, name: 'mergin', role: 'owner', storage: 1000, disk_usage: 919 }];
    const { user } = await open('/dashboard', loggedIn({ authenticated: true, workspaces }));
    expect(await screen.findByText('Your storage is almost full (91%).')).toBeInTheDocument();
    expect(
      screen.getByText('Soon you will not be able to sync your projects.'),
    ).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Dismiss' }));
    expect(screen.queryByText('Your storage is almost full (91%).')).not.toBeInTheDocument();
  });

  it('history redirects keep the version as version_id', async () => {
    const { router } = await open('/projects/ns/p/history/v3', loggedIn());
    await waitFor(() => expect(href(router)).toBe('/projects/ns/p/history?version_id=v3'));
  });

  it('unknown paths offer Back to Dashboard', async () => {
    await open('/nowhere', loggedIn());
    expect(await screen.findByRole('link', { name: 'Back to Dashboard' })).toHaveAttribute(
      'href',
      '/dashboard',
    );
  });

  it('sign out clears the user and goes to /login', async () => {
    const handlers = loggedIn();
    const { user, router, server } = await open('/dashboard', {
      ...handlers,
      'POST /app/auth/logout': () => empty(),
    });
    await user.click(await screen.findByRole('button', { name: /^Profile menu/ }));
    expect(await screen.findByText('Ada Admin')).toBeInTheDocument();
    expect(screen.getByText('admin@example.com')).toBeInTheDocument();
    expect(screen.getByRole('menuitem', { name: 'Your profile' })).toHaveAttribute(
      'href',
      '/profile',
    );
    await user.click(screen.getByRole('menuitem', { name: 'Sign out' }));
    await waitFor(() => expect(href(router)).toBe('/login'));
    // A POST with the CSRF token (a plain GET no longer signs out).
    const [signOut, ...more] = server.calls('POST /app/auth/logout');
    expect(more).toHaveLength(0);
    expect(signOut!.headers['X-CSRF-Token']).toBe('csrf-1');
    expect(server.calls('GET /app/auth/logout')).toHaveLength(0);
    expect(await screen.findByRole('button', { name: 'Sign in' })).toBeInTheDocument();
  });

  it('a 401 on any call ends the session and protected pages go to /login', async () => {
    const handlers = loggedIn();
    const { router, server, queryClient } = await open('/dashboard', handlers);
    await screen.findByRole('navigation', { name: 'Main' });
    server.on('GET /v1/user/profile', () =>
      json('Authentication information is missing or invalid.', 401),
    );
    server.on('GET /app/init', () => json({ authenticated: false, superuser: false }));
    await queryClient.refetchQueries({ queryKey: ['auth', 'profile'] }).catch(() => undefined);
    await waitFor(() => expect(href(router)).toBe('/login?redirect=/dashboard'));
  });
});

describe('signing in end to end', () => {
  it('signs in and goes to the redirect target', async () => {
    let authenticated = false;
    const handlers = anonymous();
    const { user, router, server } = await open('/login?redirect=/projects/explore', {
      ...handlers,
      'GET /app/init': () =>
        json({ authenticated, superuser: false }, 200, {
          'X-CSRF-Token': authenticated ? 'after' : 'before',
        }),
      'POST /app/auth/login': () => {
        authenticated = true;
        return empty();
      },
      'GET /v1/user/profile': loggedIn()['GET /v1/user/profile'] as FakeHandler,
    });
    await user.type(await screen.findByLabelText('Username or email'), ' admin ');
    await user.type(screen.getByLabelText('Password'), 'pw');
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    await waitFor(() => expect(href(router)).toBe('/projects/explore'));
    expect(server.calls('POST /app/auth/login')[0]?.headers['X-CSRF-Token']).toBe('before');
    expect(await screen.findByRole('heading', { name: 'Public projects' })).toBeInTheDocument();
    expect(await screen.findByRole('navigation', { name: 'Main' })).toBeInTheDocument();
  });

  it('refuses off-site redirect targets', async () => {
    let authenticated = false;
    const { user, router } = await open('/login?redirect=//evil.example/x', {
      ...loggedIn(),
      'GET /app/init': () => json({ authenticated, superuser: false }),
      'POST /app/auth/login': () => {
        authenticated = true;
        return empty();
      },
    });
    await user.type(await screen.findByLabelText('Username or email'), 'admin');
    await user.type(screen.getByLabelText('Password'), 'pw');
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    await waitFor(() => expect(href(router)).toBe('/dashboard'));
  });
});

describe('maintenance', () => {
  it('shows the read-only banner and blocks writes', async () => {
    await open('/dashboard', loggedIn({ authenticated: true, maintenance: true }));
    expect(await screen.findByText(MAINTENANCE_NOTICE)).toBeInTheDocument();
    expect(api.isMaintenance()).toBe(true);
    await expect(api.post('/v1/project/mergin', {})).rejects.toMatchObject({ status: 503 });
  });
});
