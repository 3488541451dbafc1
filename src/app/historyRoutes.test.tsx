import { notifications } from '@mantine/notifications';
import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { api } from '@/api';
import { db } from '@/db';
import { json, sessionHandlers, type FakeHandler } from '@/test/fakeServer';
import { closeApp, openApp } from './openApp';

beforeEach(async () => {
  api.setCsrfToken(null);
  api.setMaintenance(false);
  await db.lastWorkspace.clear();
});

afterEach(() => {
  closeApp();
  notifications.clean();
  vi.unstubAllGlobals();
});

const project = {
  id: 'p-1',
  name: 'p',
  namespace: 'mergin',
  workspace_id: 1,
  version: 'v2',
  updated: '2024-05-05T09:00:01Z',
  disk_usage: 10,
  tags: [],
  role: 'reader',
  access: { owners: [], writers: [], readers: [], public: true },
  files: [{ path: 'points.gpkg', size: 10, mtime: '2024-05-05T09:00:01Z' }],
};

const v2 = {
  name: 'v2',
  author: 'ada',
  created: '2024-05-05T09:00:01Z',
  project_size: 10,
  changes: { added: 0, updated: 1, updated_diff: 0, removed: 0 },
};

function handlers(authenticated: boolean): Record<string, FakeHandler> {
  return {
    ...sessionHandlers({ authenticated }),
    'GET /v1/project/mergin/p': () => json(project),
    'GET /v1/project/versions/paginated/mergin/p': () => json({ count: 1, versions: [v2] }),
    'GET /v1/project/version/p-1/v2': () =>
      json({
        ...v2,
        user_agent: 'Firefox/130.0 (Linux)',
        changes: { added: [], updated: [{ path: 'points.gpkg', size: 10 }], removed: [] },
        changesets: {
          'points.gpkg': {
            size: 1,
            summary: [{ table: 'points', insert: 1, update: 0, delete: 0 }],
          },
        },
      }),
    'GET /v1/resource/changesets/mergin/p/v2': () =>
      json([{ table: 'points', type: 'insert', changes: [{ name: 'fid', new: 9 }] }]),
  };
}

// Rendering Mantine tables in jsdom is slow on a busy machine.
describe('history routes', () => {
  it('the History tab lists versions; a row opens its details, Show advanced the file', async () => {
    const { router, user } = await openApp('/projects/mergin/p/history', handlers(true));
    const table = await screen.findByRole('table', { name: 'Versions' }, { timeout: 60_000 });
    expect(screen.getByRole('tab', { name: 'History' })).toHaveAttribute('aria-selected', 'true');
    await user.click(within(table).getByText('ada'));
    await waitFor(() =>
      expect(router.state.location.href).toBe('/projects/mergin/p/history?version_id=v2'),
    );
    const dialog = await screen.findByRole('dialog', { name: 'v2' });
    expect(await within(dialog).findByText('Firefox/130.0 (Linux)')).toBeInTheDocument();
    await user.click(within(dialog).getByRole('link', { name: 'Show advanced' }));
    await waitFor(() =>
      expect(router.state.location.pathname).toBe('/projects/mergin/p/history/v2/points.gpkg'),
    );
    const changes = await screen.findByRole('table', { name: 'Changes of points' });
    expect(within(changes).getByRole('img', { name: 'insert' })).toBeInTheDocument();
    const crumbs = screen.getByRole('navigation', { name: 'Breadcrumbs' });
    expect(within(crumbs).getByRole('link', { name: 'v2' })).toBeInTheDocument();
  });

  it('closing the details removes version_id', async () => {
    const { router, user } = await openApp(
      '/projects/mergin/p/history?version_id=v2',
      handlers(true),
    );
    const dialog = await screen.findByRole('dialog', { name: 'v2' });
    await user.click(within(dialog).getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(router.state.location.href).toBe('/projects/mergin/p/history'));
  });

  it('anonymous visitors see the file version detail of a public project', async () => {
    await openApp('/projects/mergin/p/history/v2/points.gpkg', handlers(false));
    expect(await screen.findByRole('table', { name: 'Changes of points' })).toBeInTheDocument();
    expect(screen.queryByRole('tab', { name: 'History' })).toBeNull();
  });
});
