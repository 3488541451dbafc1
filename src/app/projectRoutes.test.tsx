import { notifications } from '@mantine/notifications';
import { createMemoryHistory } from '@tanstack/react-router';
import { screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { api } from '@/api';
import { db } from '@/db';
import { fakeServer, json, problem, sessionHandlers, type FakeHandler } from '@/test/fakeServer';
import { createTestQueryClient, renderRouter } from '@/test/render';
import { createAppRouter } from './router';

beforeEach(async () => {
  api.setCsrfToken(null);
  api.setMaintenance(false);
  await db.lastWorkspace.clear();
});

afterEach(() => {
  notifications.clean();
  vi.unstubAllGlobals();
});

async function open(path: string, handlers: Record<string, FakeHandler>) {
  const server = fakeServer(handlers);
  const queryClient = createTestQueryClient();
  const router = createAppRouter(queryClient, createMemoryHistory({ initialEntries: [path] }));
  const view = await renderRouter(router, queryClient);
  return { ...view, server };
}

const project = (role: string | null) => ({
  id: 'p-1',
  name: 'p',
  namespace: 'mergin',
  workspace_id: 1,
  version: 'v2',
  updated: '2024-05-05T09:00:01Z',
  disk_usage: 10,
  tags: [],
  role,
  public: true,
  access: { owners: [], writers: [], readers: [], public: true },
  files: [
    { path: 'data/points.gpkg', size: 10, mtime: '2024-05-05T09:00:01Z' },
    { path: 'data/notes.txt', size: 10, mtime: '2024-05-05T09:00:01Z' },
  ],
});

describe('project routes', () => {
  it("shows 'My projects' with 'Create project' to workspace owners", async () => {
    const { server } = await open('/projects', {
      ...sessionHandlers({ authenticated: true }),
      'GET /v1/project/paginated': () => json({ projects: [], count: 0 }),
    });
    expect(await screen.findByRole('heading', { name: /My projects/ })).toBeInTheDocument();
    expect(await screen.findByRole('button', { name: 'Create project' })).toBeInTheDocument();
    const url = new URL(server.calls('GET /v1/project/paginated')[0]?.url ?? '', 'http://x');
    expect(url.searchParams.get('only_namespace')).toBe('mergin');
  });

  it('shows public projects to anonymous visitors of /projects', async () => {
    const { server } = await open('/projects', {
      ...sessionHandlers({ authenticated: false }),
      'GET /v1/project/paginated': () => json({ projects: [], count: 0 }),
    });
    expect(await screen.findByRole('heading', { name: /Public projects/ })).toBeInTheDocument();
    await waitFor(() => expect(server.calls('GET /v1/project/paginated')).toHaveLength(1));
    const url = new URL(server.calls('GET /v1/project/paginated')[0]?.url ?? '', 'http://x');
    expect(url.searchParams.get('only_public')).toBe('true');
    expect(screen.queryByRole('button', { name: 'Create project' })).not.toBeInTheDocument();
  });

  it('opens a folder of the tree with the file panel of file_path', async () => {
    await open('/projects/mergin/p/blob/data/notes.txt', {
      ...sessionHandlers({ authenticated: false }),
      'GET /v1/project/mergin/p': () => json(project(null)),
      'HEAD /v1/project/raw/mergin/p': () =>
        new Response(null, { status: 200, headers: { 'Content-Type': 'application/x' } }),
    });
    expect(await screen.findByRole('link', { name: 'points.gpkg' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Parent folder' })).toBeInTheDocument();
    expect(await screen.findAllByRole('heading', { name: 'notes.txt' })).not.toHaveLength(0);
  });

  it('sends anonymous visitors of a private project to sign in', async () => {
    const { router } = await open('/projects/mergin/p/tree', {
      ...sessionHandlers({ authenticated: false }),
      'GET /v1/project/mergin/p': () => problem('x', 403),
    });
    await waitFor(() =>
      expect(router.state.location.href).toBe('/login?redirect=/projects/mergin/p/tree'),
    );
  });

  it('sends non-owners away from the settings to /projects', async () => {
    const { router } = await open('/projects/mergin/p/settings', {
      ...sessionHandlers({ authenticated: true }),
      'GET /v1/project/mergin/p': () => json(project('reader')),
      'GET /v1/project/paginated': () => json({ projects: [], count: 0 }),
    });
    await waitFor(() => expect(router.state.location.pathname).toBe('/projects'));
  });

  it('shows the settings to owners', async () => {
    await open('/projects/mergin/p/settings', {
      ...sessionHandlers({ authenticated: true }),
      'GET /v1/project/mergin/p': () => json(project('owner')),
    });
    expect(await screen.findByRole('button', { name: 'Make private' })).toBeInTheDocument();
    expect(screen.getByRole('tab', { name: 'Settings' })).toHaveAttribute('aria-selected', 'true');
  });

  it('sends non-owners away from the collaborators to /projects', async () => {
    const { router } = await open('/projects/mergin/p/collaborators', {
      ...sessionHandlers({ authenticated: true }),
      'GET /v1/project/mergin/p': () => json(project('writer')),
      'GET /v1/project/paginated': () => json({ projects: [], count: 0 }),
    });
    await waitFor(() => expect(router.state.location.pathname).toBe('/projects'));
  });

  it('shows owners the members, Share and the pending requests of the project', async () => {
    const { server } = await open('/projects/mergin/p/collaborators', {
      ...sessionHandlers({ authenticated: true }),
      'GET /v1/project/mergin/p': () => json(project('owner')),
      'GET /app/project/p-1/access': () =>
        json([
          {
            id: 1,
            username: 'admin',
            email: 'admin@example.com',
            project_role: 'owner',
            role: 'owner',
          },
        ]),
      'GET /app/project/access-request/mergin': () =>
        json({
          items: [
            {
              id: 4,
              requested_by: 'jane',
              project_name: 'p',
              namespace: 'mergin',
              expire: new Date(Date.now() + 86_400_000 * 3).toISOString(),
              status: 'pending',
            },
          ],
          count: 1,
        }),
    });
    expect(await screen.findByRole('cell', { name: 'admin@example.com' })).toBeInTheDocument();
    expect(screen.getByText('(me)')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Share' })).toBeInTheDocument();
    expect(
      await screen.findByRole('button', { name: 'Accept request of jane to mergin/p' }),
    ).toBeInTheDocument();
    const url = new URL(
      server.calls('GET /app/project/access-request/mergin')[0]?.url ?? '',
      'http://x',
    );
    expect(url.searchParams.get('project_name')).toBe('p');
    expect(screen.getByRole('tab', { name: 'Collaborators' })).toHaveAttribute(
      'aria-selected',
      'true',
    );
  });
});
