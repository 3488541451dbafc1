import { notifications } from '@mantine/notifications';
import { screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeServer, json, problem, type FakeHandler } from '@/test/fakeServer';
import { renderWithRouter } from '@/test/render';
import { FileVersionDetail } from './FileVersionDetail';

const DETAIL = '/v1/project/version/p-1/v3';
const CHANGESET = '/v1/resource/changesets/ns/p/v3';
const PATH = 'data/points.gpkg';

const version = (changeset: Record<string, unknown> | undefined) => ({
  name: 'v3',
  created: '2024-05-04T14:21:56Z',
  project_size: 10,
  changes: { added: [], updated: [{ path: PATH, size: 10 }], removed: [] },
  changesets: changeset ? { [PATH]: changeset } : {},
});

const SUMMARY = [
  { table: 'gpkg_contents', insert: 0, update: 1, delete: 0 },
  { table: 'points', insert: 1, update: 1, delete: 1 },
  { table: 'areas', insert: 0, update: 0, delete: 0 },
];

const ENTRIES = [
  {
    table: 'points',
    type: 'insert',
    changes: [
      { name: 'fid', new: 4 },
      { name: 'geom', new: 'POINT (1 2)' },
      { name: 'name', new: 'oak' },
    ],
  },
  {
    table: 'points',
    type: 'update',
    changes: [
      { name: 'fid', old: 1 },
      { name: 'name', old: 'ash', new: 'elm' },
    ],
  },
  {
    table: 'points',
    type: 'delete',
    changes: [
      { name: 'fid', old: 2 },
      { name: 'geom', old: 'POINT (3 4)' },
      { name: 'name', old: 'fir' },
    ],
  },
  { table: 'gpkg_contents', type: 'update', changes: [{ name: 'table_name', old: 'points' }] },
];

async function open(handlers: Record<string, FakeHandler>) {
  const server = fakeServer({
    'GET /config': () => json({ docs_url: 'https://docs.example.com' }),
    ...handlers,
  });
  const view = await renderWithRouter(
    <FileVersionDetail namespace="ns" projectName="p" projectId="p-1" version="v3" path={PATH} />,
  );
  return { ...view, server };
}

function cells(table: HTMLElement): string[][] {
  return within(table)
    .getAllByRole('row')
    .map((row) =>
      [...row.querySelectorAll('th, td')].map(
        (cell) =>
          cell.querySelector('[role="img"]')?.getAttribute('aria-label') ?? cell.textContent ?? '',
      ),
    );
}

afterEach(() => {
  notifications.clean();
  vi.unstubAllGlobals();
});

// Rendering Mantine tables in jsdom is slow on a busy machine.
describe('FileVersionDetail', () => {
  it('shows one table per changed table with a change-type icon and a column per field', async () => {
    const { server } = await open({
      [`GET ${DETAIL}`]: () => json(version({ size: 10, summary: SUMMARY })),
      [`GET ${CHANGESET}`]: () => json(ENTRIES),
    });
    const points = await screen.findByRole('table', { name: 'Changes of points' });
    expect(screen.getByRole('heading', { name: PATH })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Show on map' }).getAttribute('href')).toMatch(
      /\/map\?version=v\d+&file=.+\.gpkg&changes=true$/,
    );
    expect(cells(points)).toEqual([
      ['Change', 'fid', 'geom', 'name'],
      ['insert', '4', 'POINT (1 2)', 'oak'],
      ['update', '1', '', 'ash → elm'],
      ['delete', '2', 'POINT (3 4)', 'fir'],
    ]);
    expect(within(points).getByRole('img', { name: 'insert' })).toBeInTheDocument();
    expect(within(points).getByRole('img', { name: 'update' })).toBeInTheDocument();
    expect(within(points).getByRole('img', { name: 'delete' })).toBeInTheDocument();

    expect(cells(screen.getByRole('table', { name: 'Summary' }))).toEqual([
      ['ID', 'Table', 'Insert', 'Update', 'Delete'],
      ['1', 'points', '1', '1', '1'],
      ['2', 'areas', '0', '0', '0'],
    ]);
    expect(screen.queryByText('gpkg_contents')).toBeNull();
    const areas = screen.getByRole('table', { name: 'Changes of areas' });
    expect(within(areas).getByText('No changeset for current layer')).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'areas' })).toBeInTheDocument();

    const url = new URL(server.calls(`GET ${CHANGESET}`)[0]?.url ?? '', 'http://x');
    expect(url.searchParams.get('path')).toBe(PATH);
  });

  it('pages tables of more than 10 rows, 10 at a time, within 400 px', async () => {
    const rows = (count: number) =>
      Array.from({ length: count }, (_, i) => ({
        table: 'points',
        type: 'insert',
        changes: [{ name: 'fid', new: i + 1 }],
      }));
    const { user, unmount } = await open({
      [`GET ${DETAIL}`]: () => json(version({ size: 10 })),
      [`GET ${CHANGESET}`]: () => json(rows(11)),
    });
    const table = await screen.findByRole('table', { name: 'Changes of points' });
    expect(within(table).getAllByRole('row')).toHaveLength(11);
    // 400 px: Mantine writes it in rem (16 px each).
    expect(table.closest('[style*="max-height"]')?.getAttribute('style')).toMatch(
      /--table-max-height: calc\(25rem/,
    );
    const pages = screen.getByRole('navigation', { name: 'Pages of points' });
    await user.click(await within(pages).findByRole('button', { name: 'Page 2' }));
    expect(cells(table).slice(1)).toEqual([['insert', '11']]);
    unmount();

    await open({
      [`GET ${DETAIL}`]: () => json(version({ size: 10 })),
      [`GET ${CHANGESET}`]: () => json(rows(10)),
    });
    const ten = await screen.findByRole('table', { name: 'Changes of points' });
    expect(within(ten).getAllByRole('row')).toHaveLength(11);
    expect(screen.queryByRole('navigation', { name: 'Pages of points' })).toBeNull();
  });

  it("shows 'Changes cannot be calculated' with the documentation link for a failed changeset", async () => {
    const { server } = await open({
      [`GET ${DETAIL}`]: () => json(version({ size: 10, error: 'Changes cannot be calculated' })),
    });
    expect(
      await screen.findByRole('heading', { name: 'Changes cannot be calculated' }),
    ).toBeInTheDocument();
    expect(await screen.findByRole('link', { name: 'documentation' })).toHaveAttribute(
      'href',
      'https://docs.example.com/manage/synchronisation',
    );
    expect(server.calls(`GET ${CHANGESET}`)).toHaveLength(0);
  });

  it('names the reason the server gives', async () => {
    await open({
      [`GET ${DETAIL}`]: () =>
        json(
          version({
            status: 'error',
            size: 0,
            error: 'Changes cannot be calculated: no primary key in table trees',
          }),
        ),
    });
    expect(
      await screen.findByRole('heading', { name: 'Changes cannot be calculated' }),
    ).toBeInTheDocument();
    expect(screen.getByText('no primary key in table trees')).toBeInTheDocument();
  });

  it('asks the changeset again while the server answers that it is pending', async () => {
    let calls = 0;
    const { server } = await open({
      [`GET ${DETAIL}`]: () => problem('You do not have permissions for this project', 403),
      [`GET ${CHANGESET}`]: () => {
        calls += 1;
        return calls === 1
          ? json({ status: 'pending', detail: 'Changes are being calculated' }, 202)
          : json(ENTRIES);
      },
    });
    expect(await screen.findByText('Calculating changes…')).toBeInTheDocument();
    expect(
      await screen.findByRole('table', { name: 'Changes of points' }, { timeout: 60_000 }),
    ).toBeInTheDocument();
    expect(server.calls(`GET ${CHANGESET}`)).toHaveLength(2);
  });

  it("shows the server's detail, else 'Failed to display changeset of file', when the call fails", async () => {
    const { unmount } = await open({
      [`GET ${DETAIL}`]: () => json(version({ size: 10 })),
      [`GET ${CHANGESET}`]: () => problem('Diff not found', 404),
    });
    expect(
      await screen.findByRole('heading', { name: 'Changes cannot be calculated' }),
    ).toBeInTheDocument();
    // Shown once, in the page: no toast repeats it.
    expect(screen.getAllByText('Diff not found')).toHaveLength(1);
    unmount();
    notifications.clean();

    await open({
      [`GET ${DETAIL}`]: () => json(version({ size: 10 })),
      [`GET ${CHANGESET}`]: () => json(undefined, 502),
    });
    expect(await screen.findByText('Failed to display changeset of file')).toBeInTheDocument();
  });

  it("settles on 'No changeset for current layer' for a GeoPackage added in the version, without asking", async () => {
    const { server } = await open({
      [`GET ${DETAIL}`]: () =>
        json({
          ...version(undefined),
          changes: { added: [{ path: PATH, size: 10 }], updated: [], removed: [] },
        }),
      [`GET ${CHANGESET}`]: () => problem('Diff not found', 404),
    });
    expect(await screen.findByText('No changeset for current layer')).toBeInTheDocument();
    expect(screen.queryByText('Calculating changes…')).not.toBeInTheDocument();
    expect(server.calls(`GET ${CHANGESET}`)).toHaveLength(0);
  });

  it("says 'No changeset for current layer' when there are no changed rows", async () => {
    await open({
      [`GET ${DETAIL}`]: () => json(version({ size: 10, summary: [] })),
      [`GET ${CHANGESET}`]: () => json([]),
    });
    expect(await screen.findByText('No changeset for current layer')).toBeInTheDocument();
  });

  it('waits for the changeset while the server calculates it', async () => {
    let calls = 0;
    const { server } = await open({
      [`GET ${DETAIL}`]: () => {
        calls += 1;
        if (calls === 1) return json(version(undefined));
        return json(version(calls === 2 ? { status: 'pending', size: 0 } : { status: 'done' }));
      },
      [`GET ${CHANGESET}`]: () => json(ENTRIES),
    });
    expect(await screen.findByText('Calculating changes…')).toBeInTheDocument();
    expect(server.calls(`GET ${CHANGESET}`)).toHaveLength(0);
    expect(
      await screen.findByRole('table', { name: 'Changes of points' }, { timeout: 60_000 }),
    ).toBeInTheDocument();
    expect(server.calls(`GET ${DETAIL}`)).toHaveLength(3);
  });
});
