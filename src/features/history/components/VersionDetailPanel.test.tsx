import { notifications } from '@mantine/notifications';
import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeServer, json, problem } from '@/test/fakeServer';
import { renderWithRouter } from '@/test/render';
import { VersionDetailPanel, type VersionDetailPanelProps } from './VersionDetailPanel';

const DETAIL = '/v1/project/version/p-1/v3';

const detail = (changesets: Record<string, unknown>) => ({
  name: 'v3',
  author: 'ada',
  created: '2024-05-04T14:21:56Z',
  project_name: 'p',
  namespace: 'ns',
  user_agent: 'Chrome/130.0 (Linux)',
  project_size: 3 * 1024 * 1024,
  changes: {
    added: [
      { path: 'photos/a.jpg', size: 2048 },
      { path: 'notes.txt', size: 10 },
    ],
    updated: [
      { path: 'data/points.gpkg', size: 98304 },
      { path: 'data/broken.gpkg', size: 4096 },
    ],
    removed: [],
  },
  changesets,
});

function panel(slots: Pick<VersionDetailPanelProps, 'actions' | 'fileActions'> = {}) {
  return renderWithRouter(
    <VersionDetailPanel
      namespace="ns"
      projectName="p"
      projectId="p-1"
      version="v3"
      onClose={() => {}}
      {...slots}
    />,
  );
}

afterEach(() => {
  notifications.clean();
  vi.unstubAllGlobals();
});

function field(label: string): string | null | undefined {
  return screen.getByText(label, { selector: 'p' }).nextElementSibling?.textContent;
}

// Rendering Mantine tables in jsdom is slow on a busy machine.
describe('VersionDetailPanel', () => {
  it('shows the version, author, size, creation, user agent and a download', async () => {
    fakeServer({ [`GET ${DETAIL}`]: () => json(detail({})) });
    await panel();
    expect(await screen.findByText('User agent')).toBeInTheDocument();
    expect(field('Version')).toBe('v3');
    expect(field('Author')).toBe('ada');
    expect(field('Project size')).toBe('3.0 MB');
    expect(field('Created')).toMatch(/^4 May 2024, \d\d:\d\d$/);
    expect(field('User agent')).toBe('Chrome/130.0 (Linux)');
    expect(screen.getByRole('link', { name: 'Download' })).toHaveAttribute(
      'href',
      '/v1/project/download/ns/p?format=zip&version=v3',
    );
  });

  it('lists files added, edited and removed with counts and sizes', async () => {
    fakeServer({
      [`GET ${DETAIL}`]: () =>
        json(
          detail({
            'data/points.gpkg': {
              size: 512,
              summary: [
                { table: 'gpkg_contents', insert: 0, update: 1, delete: 0 },
                { table: 'points', insert: 3, update: 2, delete: 1 },
              ],
            },
            'data/broken.gpkg': { size: 0, error: 'Changes cannot be calculated' },
          }),
        ),
    });
    await panel();
    const added = await screen.findByRole('button', { name: 'Files added 2' });
    const edited = screen.getByRole('button', { name: 'Files edited 2' });
    const removed = screen.getByRole('button', { name: 'Files removed 0' });
    expect(added).toHaveAttribute('aria-expanded', 'true');
    expect(edited).toHaveAttribute('aria-expanded', 'true');
    expect(removed).toHaveAttribute('aria-expanded', 'false');

    const photo = screen.getByText('photos/a.jpg').closest('li') as HTMLElement;
    expect(within(photo).getByText('2.0 kB')).toBeInTheDocument();

    const points = screen.getByText('data/points.gpkg').closest('li') as HTMLElement;
    expect(within(points).getByText('96.0 kB')).toBeInTheDocument();
    const summary = within(points).getByRole('table', { name: 'Changes of data/points.gpkg' });
    const rows = within(summary)
      .getAllByRole('row')
      .map((row) => [...row.querySelectorAll('th, td')].map((cell) => cell.textContent));
    expect(rows).toEqual([
      ['ID', 'Table', 'Insert', 'Update', 'Delete'],
      ['1', 'points', '3', '2', '1'],
    ]);
    expect(within(points).getByRole('link', { name: 'Show advanced' })).toHaveAttribute(
      'href',
      '/projects/ns/p/history/v3/data/points.gpkg',
    );
    expect(within(points).getByRole('link', { name: 'Show on map' })).toHaveAttribute(
      'href',
      '/projects/ns/p/map?version=v3&file=data/points.gpkg&changes=true',
    );

    const broken = screen.getByText('data/broken.gpkg').closest('li') as HTMLElement;
    expect(
      within(broken).getByText('Details not available: Changes cannot be calculated'),
    ).toBeInTheDocument();
    expect(within(broken).queryByRole('link', { name: 'Show advanced' })).toBeNull();
  });

  it("offers 'Show on map' for an edited SQLite file as for a GeoPackage, not for other files", async () => {
    const sqlite = 'data/roads.sqlite';
    const done = { size: 64, summary: [{ table: 'roads', insert: 1, update: 0, delete: 0 }] };
    fakeServer({
      [`GET ${DETAIL}`]: () =>
        json({
          ...detail({ [sqlite]: done, 'data/list.csv': done }),
          changes: {
            added: [],
            updated: [
              { path: sqlite, size: 8192 },
              { path: 'data/list.csv', size: 10 },
            ],
            removed: [],
          },
        }),
    });
    await panel();
    const roads = (await screen.findByText(sqlite)).closest('li') as HTMLElement;
    expect(within(roads).getByRole('link', { name: 'Show on map' })).toHaveAttribute(
      'href',
      `/projects/ns/p/map?version=v3&file=${sqlite}&changes=true`,
    );
    const csv = screen.getByText('data/list.csv').closest('li') as HTMLElement;
    expect(within(csv).queryByRole('link', { name: 'Show on map' })).toBeNull();
  });

  it('asks again while the server is still calculating a changeset', async () => {
    let calls = 0;
    fakeServer({
      [`GET ${DETAIL}`]: () => {
        calls += 1;
        return json(
          detail(
            calls === 1
              ? { 'data/points.gpkg': { status: 'pending', size: 0 } }
              : {
                  'data/points.gpkg': {
                    size: 10,
                    summary: [{ table: 'points', insert: 1, update: 0, delete: 0 }],
                  },
                  'data/broken.gpkg': {
                    status: 'error',
                    size: 0,
                    error: 'Changes cannot be calculated: file unreadable',
                  },
                },
          ),
        );
      },
    });
    await panel();
    expect(await screen.findAllByText('Calculating changes…')).toHaveLength(2);
    await waitFor(
      () => expect(screen.getByRole('link', { name: 'Show advanced' })).toBeInTheDocument(),
      { timeout: 60_000 },
    );
    expect(screen.queryByText('Calculating changes…')).toBeNull();
    expect(
      screen.getByText('Details not available: Changes cannot be calculated: file unreadable'),
    ).toBeInTheDocument();
  });

  it("shows 'Failed to fetch project version', or the server's detail", async () => {
    fakeServer({ [`GET ${DETAIL}`]: () => json(undefined, 500) });
    const view = await panel();
    expect(await screen.findByRole('alert')).toHaveTextContent('Failed to fetch project version');
    view.unmount();
    fakeServer({ [`GET ${DETAIL}`]: () => problem('Version v3 not found', 404) });
    await panel();
    expect(await screen.findByRole('alert')).toHaveTextContent('Version v3 not found');
  });

  it('says what a time-travel version did, and shows the actions handed in', async () => {
    fakeServer({
      [`GET ${DETAIL}`]: () =>
        json({
          ...detail({}),
          changes: {
            added: [{ path: 'notes.txt', size: 10 }],
            updated: [{ path: 'a.txt', size: 1 }],
            removed: [{ path: 'gone.txt', size: 1 }],
          },
          origin: { action: 'restore_version', version: 'v1', path: null, original: null },
        }),
    });
    await panel({
      actions: <button type="button">Version action</button>,
      fileActions: (path) => <button type="button">{`File action ${path}`}</button>,
    });
    expect(await screen.findByText('Action')).toBeInTheDocument();
    expect(field('Action')).toBe('Restored v1');
    expect(screen.getByRole('button', { name: 'Version action' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'File action notes.txt' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'File action a.txt' })).toBeInTheDocument();
    // A file removed in the version has nothing to restore from it.
    expect(screen.queryByRole('button', { name: 'File action gone.txt' })).toBeNull();
  });

  it('says nothing of an origin on an ordinary version', async () => {
    fakeServer({ [`GET ${DETAIL}`]: () => json(detail({})) });
    await panel();
    expect(await screen.findByText('User agent')).toBeInTheDocument();
    expect(screen.queryByText('Action')).toBeNull();
  });
});
