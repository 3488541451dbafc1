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

const project = (role: 'reader' | 'writer') => ({
  id: 'p-1',
  name: 'p',
  namespace: 'mergin',
  workspace_id: 1,
  version: 'v3',
  updated: '2024-05-05T09:00:01Z',
  disk_usage: 10,
  tags: [],
  role,
  permissions: { upload: role === 'writer', update: false, delete: false },
  access: { owners: [], writers: [], readers: [], public: false },
  files: [
    { path: 'notes.txt', size: 10, mtime: '2024-05-05T09:00:01Z' },
    { path: 'notes (conflicted copy, ann v2).txt', size: 12, mtime: '2024-05-05T09:00:01Z' },
  ],
});

const version = (n: number) => ({
  name: `v${n}`,
  author: 'ada',
  created: '2024-05-05T09:00:01Z',
  project_size: 10,
  changes: { added: 0, updated: 1, updated_diff: 0, removed: 0 },
});

function handlers(role: 'reader' | 'writer'): Record<string, FakeHandler> {
  return {
    ...sessionHandlers({ authenticated: true }),
    'GET /v1/project/mergin/p': () => json(project(role)),
    'GET /v1/project/versions/paginated/mergin/p': () =>
      json({ count: 3, versions: [version(3), version(2), version(1)] }),
    'GET /v1/project/version/p-1/v1': () =>
      json({
        ...version(1),
        user_agent: 'Firefox',
        changes: { added: [{ path: 'notes.txt', size: 10 }], updated: [], removed: [] },
        changesets: {},
      }),
    'GET /app/project/compare/mergin/p': () => json({ from: 'v1', to: 'v3', files: [] }),
    'GET /app/project/conflicts/mergin/p': () =>
      json({
        conflicts: [
          {
            path: 'notes (conflicted copy, ann v2).txt',
            kind: 'conflicted_copy',
            original: 'notes.txt',
            original_exists: true,
            user: 'ann',
            version: 'v2',
            size: 12,
            checksum: 'a',
          },
        ],
      }),
  };
}

// Rendering the whole app in jsdom is slow on a busy machine.
describe('time-travel routes', { timeout: 60_000 }, () => {
  it("the versions list's 'Compare' opens the compare page of the two picked versions", async () => {
    const { router, user } = await openApp('/projects/mergin/p/history', handlers('writer'));
    const table = await screen.findByRole('table', { name: 'Versions' }, { timeout: 60_000 });
    await user.click(within(table).getByRole('checkbox', { name: 'Select v3' }));
    await user.click(within(table).getByRole('checkbox', { name: 'Select v1' }));
    await user.click(screen.getByRole('button', { name: 'Compare' }));
    await waitFor(() =>
      expect(router.state.location.href).toBe('/projects/mergin/p/compare?from=v1&to=v3'),
    );
    expect(await screen.findByRole('heading', { name: 'Compare v1 with v3' })).toBeInTheDocument();
    expect(await screen.findByText('No differences between these versions.')).toBeInTheDocument();
    expect(screen.getByRole('tab', { name: 'History' })).toHaveAttribute('aria-selected', 'true');
  });

  it('a malformed version in the compare search is dropped, and the page asks for two', async () => {
    await openApp('/projects/mergin/p/compare?from=latest&to=v2', handlers('writer'));
    expect(
      await screen.findByText('Pick the two versions to compare.', {}, { timeout: 60_000 }),
    ).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Compare versions' })).toBeInTheDocument();
  });

  it('writers get the restore buttons on a version; readers only the compare link', async () => {
    const writer = await openApp('/projects/mergin/p/history?version_id=v1', handlers('writer'));
    const dialog = await screen.findByRole('dialog', { name: 'v1' }, { timeout: 60_000 });
    expect(await within(dialog).findByText('Firefox')).toBeInTheDocument();
    expect(
      within(dialog).getByRole('button', { name: 'Restore this version' }),
    ).toBeInTheDocument();
    expect(within(dialog).getByRole('button', { name: 'Restore this file' })).toBeInTheDocument();
    writer.unmount();
    closeApp();

    await openApp('/projects/mergin/p/history?version_id=v1', handlers('reader'));
    const seen = await screen.findByRole('dialog', { name: 'v1' }, { timeout: 60_000 });
    expect(await within(seen).findByText('Firefox')).toBeInTheDocument();
    expect(
      within(seen).getByRole('link', { name: 'Compare with the latest version' }),
    ).toHaveAttribute('href', '/projects/mergin/p/compare?from=v1&to=v3');
    expect(within(seen).queryByRole('button', { name: 'Restore this version' })).toBeNull();
    expect(within(seen).queryByRole('button', { name: 'Restore this file' })).toBeNull();
  });

  it("the project's files list the conflicts; a link opens the conflict page", async () => {
    const { router, user } = await openApp('/projects/mergin/p/tree', handlers('reader'));
    const notice = await screen.findByRole('region', { name: 'Conflicts' }, { timeout: 60_000 });
    await user.click(
      within(notice).getByRole('link', { name: 'notes (conflicted copy, ann v2).txt' }),
    );
    await waitFor(() =>
      expect(decodeURIComponent(router.state.location.pathname)).toBe(
        '/projects/mergin/p/conflicts/notes (conflicted copy, ann v2).txt',
      ),
    );
    expect(await screen.findByRole('region', { name: 'Original' })).toHaveTextContent('notes.txt');
    // A reader sees the conflict but cannot resolve it.
    expect(screen.queryByRole('button', { name: 'Keep this copy' })).toBeNull();
  });
});
