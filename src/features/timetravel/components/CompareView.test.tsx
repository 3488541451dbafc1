import type { Comparison, CompareRows } from '@contract/compare';
import { notifications } from '@mantine/notifications';
import { screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeServer, json, problem } from '@/test/fakeServer';
import { renderWithRouter } from '@/test/render';
import { CompareView } from './CompareView';

const COMPARE = '/app/project/compare/ns/p';
const ROWS = '/app/project/compare/ns/p/rows';

const comparison: Comparison = {
  from: 'v1',
  to: 'v3',
  files: [
    {
      path: 'photos/a.jpg',
      change: 'added',
      versioned: false,
      from: null,
      to: { version: 'v2', size: 2048, checksum: 'b' },
    },
    {
      path: 'survey.gpkg',
      change: 'updated',
      versioned: true,
      from: { version: 'v1', size: 1024, checksum: 'c' },
      to: { version: 'v3', size: 3072, checksum: 'd' },
    },
  ],
};

const rows: CompareRows = {
  path: 'survey.gpkg',
  from: 'v1',
  to: 'v3',
  status: 'done',
  error: null,
  summary: [
    { table: 'gpkg_contents', insert: 0, update: 1, delete: 0 },
    { table: 'points', insert: 0, update: 1, delete: 1 },
  ],
  count: 2,
  page: 1,
  per_page: 500,
  entries: [
    {
      table: 'points',
      type: 'update',
      changes: [
        { column: 0, name: 'fid', type: 'integer', old: 1 },
        { column: 2, name: 'name', type: 'text', old: 'oak', new: 'maple' },
      ],
    },
    {
      table: 'points',
      type: 'delete',
      changes: [
        { column: 0, name: 'fid', type: 'integer', old: 3 },
        { column: 2, name: 'name', type: 'text', old: 'fir' },
      ],
    },
  ],
};

function view(from: string | undefined, to: string | undefined, onChange = vi.fn()) {
  return renderWithRouter(
    <CompareView
      namespace="ns"
      projectName="p"
      latest="v3"
      from={from}
      to={to}
      onChange={onChange}
    />,
  );
}

afterEach(() => {
  notifications.clean();
  vi.unstubAllGlobals();
});

function cells(table: HTMLElement): string[][] {
  return within(table)
    .getAllByRole('row')
    .map((row) => [...row.querySelectorAll('th, td')].map((cell) => cell.textContent ?? ''));
}

// Rendering Mantine tables in jsdom is slow on a busy machine.
describe('CompareView', () => {
  it('asks for two versions until both are given, and says when they are the same', async () => {
    const server = fakeServer({});
    const first = await view(undefined, 'v2');
    expect(screen.getByText('Pick the two versions to compare.')).toBeInTheDocument();
    first.unmount();
    await view('v2', 'v2');
    expect(
      screen.getByText('Both sides are the same version: nothing changed.'),
    ).toBeInTheDocument();
    expect(server.calls(`GET ${COMPARE}`)).toHaveLength(0);
  });

  it('lists the files added, edited and removed, and the net rows of an edited GeoPackage', async () => {
    const server = fakeServer({
      [`GET ${COMPARE}`]: () => json(comparison),
      [`GET ${ROWS}`]: () => json(rows),
    });
    await view('v1', 'v3');
    expect(screen.getByRole('heading', { name: 'Compare v1 with v3' })).toBeInTheDocument();
    const added = await screen.findByRole('region', { name: 'Files added' });
    expect(within(added).getByRole('group', { name: 'photos/a.jpg' })).toHaveTextContent(
      '2.0 kB (v2)',
    );
    expect(screen.getByRole('region', { name: 'Files removed' })).toHaveTextContent('No files');
    const survey = within(screen.getByRole('region', { name: 'Files edited' })).getByRole('group', {
      name: 'survey.gpkg',
    });
    expect(survey).toHaveTextContent('1.0 kB (v1) → 3.0 kB (v3)');
    const points = await within(survey).findByRole('table', { name: 'Changes of points' });
    expect(cells(points).slice(1)).toEqual([
      ['', '1', 'oak → maple'],
      ['', '3', 'fir'],
    ]);
    expect(
      cells(within(survey).getByRole('table', { name: 'Row changes of survey.gpkg' })),
    ).toEqual([
      ['ID', 'Table', 'Insert', 'Update', 'Delete'],
      ['1', 'points', '0', '1', '1'],
    ]);
    const compared = new URL(server.calls(`GET ${COMPARE}`)[0]?.url ?? '', 'http://x').searchParams;
    expect(Object.fromEntries(compared)).toEqual({ from: 'v1', to: 'v3' });
    const asked = new URL(server.calls(`GET ${ROWS}`)[0]?.url ?? '', 'http://x').searchParams;
    expect(Object.fromEntries(asked)).toEqual({
      from: 'v1',
      to: 'v3',
      path: 'survey.gpkg',
      page: '1',
      per_page: '500',
    });
  });

  it('swaps the versions', async () => {
    fakeServer({ [`GET ${COMPARE}`]: () => json({ ...comparison, files: [] }) });
    const onChange = vi.fn();
    const { user } = await view('v1', 'v3', onChange);
    expect(await screen.findByText('No differences between these versions.')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Swap versions' }));
    expect(onChange).toHaveBeenCalledWith({ from: 'v3', to: 'v1' });
  });

  it("says why rows cannot be compared, and shows the server's refusal", async () => {
    fakeServer({
      [`GET ${COMPARE}`]: () => json(comparison),
      [`GET ${ROWS}`]: () =>
        json({ ...rows, status: 'error', error: 'a table has no primary key', entries: [] }),
    });
    const first = await view('v1', 'v3');
    expect(
      await screen.findByText('Rows cannot be compared: a table has no primary key'),
    ).toBeInTheDocument();
    first.unmount();
    fakeServer({ [`GET ${COMPARE}`]: () => problem('Version v9 not found', 404) });
    await view('v1', 'v9');
    expect(await screen.findByRole('alert')).toHaveTextContent('Version v9 not found');
  });
});
