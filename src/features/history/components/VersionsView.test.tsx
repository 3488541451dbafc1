import { notifications } from '@mantine/notifications';
import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeServer, json, problem } from '@/test/fakeServer';
import { renderWithRouter } from '@/test/render';
import { VersionsView } from './VersionsView';

const LIST = '/v1/project/versions/paginated/ns/p';

const version = (n: number) => ({
  name: `v${n}`,
  author: 'ada',
  created: '2024-05-05T09:00:01Z',
  project_name: 'p',
  namespace: 'ns',
  project_size: 1536 * n,
  changes: { added: n, updated: 1, updated_diff: 1, removed: 0 },
});

afterEach(() => {
  notifications.clean();
  vi.unstubAllGlobals();
});

function query(url: string | undefined) {
  return new URL(url ?? '', 'http://x').searchParams;
}

// Rendering Mantine tables in jsdom is slow on a busy machine.
describe('VersionsView', () => {
  it('lists versions newest first with their changes, size and a download of each', async () => {
    const server = fakeServer({
      [`GET ${LIST}`]: () => json({ count: 2, versions: [version(2), version(1)] }),
    });
    await renderWithRouter(<VersionsView namespace="ns" projectName="p" onOpen={() => {}} />);
    const table = await screen.findByRole('table', { name: 'Versions' });
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((cell) => cell.textContent),
    ).toEqual([
      'Version',
      'Created',
      'Author',
      'Files added',
      'Files edited',
      'Files removed',
      'Size',
      'Download',
    ]);
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows).toHaveLength(2);
    const cells = within(rows[0] as HTMLElement)
      .getAllByRole('cell')
      .map((cell) => cell.textContent);
    expect(cells.slice(2, 7)).toEqual(['ada', '2', '2', '0', '3.0 kB']);
    expect(screen.getByRole('link', { name: 'v2' })).toHaveAttribute(
      'href',
      '/projects/ns/p/history?version_id=v2',
    );
    expect(screen.getByRole('link', { name: 'Download v1' })).toHaveAttribute(
      'href',
      '/v1/project/download/ns/p?format=zip&version=v1',
    );
    const params = query(server.calls(`GET ${LIST}`)[0]?.url);
    expect(params.get('page')).toBe('1');
    expect(params.get('per_page')).toBe('50');
    expect(params.get('descending')).toBe('true');
    expect(screen.queryByRole('navigation', { name: 'Versions pagination' })).toBeNull();
  });

  it('sorts oldest first from the sort menu', async () => {
    const server = fakeServer({
      [`GET ${LIST}`]: (request) =>
        json({
          count: 2,
          versions:
            query(request.url).get('descending') === 'false'
              ? [version(1), version(2)]
              : [version(2), version(1)],
        }),
    });
    const { user } = await renderWithRouter(
      <VersionsView namespace="ns" projectName="p" onOpen={() => {}} />,
    );
    await screen.findByRole('link', { name: 'v2' });
    await user.click(screen.getByRole('button', { name: 'Sort' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Sort by oldest' }));
    await waitFor(() =>
      expect(query(server.calls(`GET ${LIST}`).at(-1)?.url).get('descending')).toBe('false'),
    );
    const table = screen.getByRole('table', { name: 'Versions' });
    await waitFor(() => expect(within(table).getAllByRole('link')[0]).toHaveTextContent('v1'));
  });

  it('opens a version from its row', async () => {
    fakeServer({ [`GET ${LIST}`]: () => json({ count: 1, versions: [version(1)] }) });
    const onOpen = vi.fn();
    const { user } = await renderWithRouter(
      <VersionsView namespace="ns" projectName="p" onOpen={onOpen} />,
    );
    const link = await screen.findByRole('link', { name: 'v1' });
    await user.click(within(link.closest('tr') as HTMLElement).getByText('ada'));
    expect(onOpen).toHaveBeenCalledWith('v1');
  });

  it("says 'No versions found.' for a project without versions", async () => {
    fakeServer({ [`GET ${LIST}`]: () => json({ count: 0, versions: [] }) });
    await renderWithRouter(<VersionsView namespace="ns" projectName="p" onOpen={() => {}} />);
    expect(await screen.findByText('No versions found.')).toBeInTheDocument();
  });

  it('pages through 50 versions at a time', async () => {
    // The first version of each page stands for the page (rendering 50 rows is slow in jsdom).
    const server = fakeServer({
      [`GET ${LIST}`]: (request) => {
        const page = Number(query(request.url).get('page'));
        return json({ count: 120, versions: [version(120 - (page - 1) * 50)] });
      },
    });
    const { user } = await renderWithRouter(
      <VersionsView namespace="ns" projectName="p" onOpen={() => {}} />,
    );
    await screen.findByRole('link', { name: 'v120' });
    const nav = screen.getByRole('navigation', { name: 'Versions pagination' });
    const third = await within(nav).findByRole('button', { name: 'Page 3' });
    expect(within(nav).queryByRole('button', { name: 'Page 4' })).toBeNull();
    await user.click(third);
    expect(await screen.findByRole('link', { name: 'v20' })).toBeInTheDocument();
    expect(query(server.calls(`GET ${LIST}`).at(-1)?.url).get('page')).toBe('3');
  });

  it("shows 'Failed to fetch project versions' when the list fails", async () => {
    fakeServer({ [`GET ${LIST}`]: () => json({}, 500) });
    await renderWithRouter(<VersionsView namespace="ns" projectName="p" onOpen={() => {}} />);
    expect(await screen.findByText('Failed to fetch project versions')).toBeInTheDocument();
  });

  it("prefers the server's detail when the list fails", async () => {
    fakeServer({ [`GET ${LIST}`]: () => problem('Project not found', 404) });
    await renderWithRouter(<VersionsView namespace="ns" projectName="p" onOpen={() => {}} />);
    expect(await screen.findByText('Project not found')).toBeInTheDocument();
  });

  it('compares two picked versions; a third pick lets go of the first', async () => {
    fakeServer({
      [`GET ${LIST}`]: () => json({ count: 3, versions: [version(3), version(2), version(1)] }),
    });
    const onCompare = vi.fn();
    const onOpen = vi.fn();
    const { user } = await renderWithRouter(
      <VersionsView namespace="ns" projectName="p" onOpen={onOpen} onCompare={onCompare} />,
    );
    await screen.findByRole('link', { name: 'v3' });
    const compare = screen.getByRole('button', { name: 'Compare' });
    expect(compare).toBeDisabled();
    await user.click(screen.getByRole('checkbox', { name: 'Select v3' }));
    expect(compare).toBeDisabled();
    await user.click(screen.getByRole('checkbox', { name: 'Select v1' }));
    expect(compare).toBeEnabled();
    await user.click(screen.getByRole('checkbox', { name: 'Select v2' }));
    expect(screen.getByRole('checkbox', { name: 'Select v3' })).not.toBeChecked();
    expect(screen.getByRole('checkbox', { name: 'Select v1' })).toBeChecked();
    await user.click(compare);
    expect(onCompare).toHaveBeenCalledWith('v1', 'v2');
    // Picking does not open the version.
    expect(onOpen).not.toHaveBeenCalled();
  });

  it('has no picking without a compare handler', async () => {
    fakeServer({ [`GET ${LIST}`]: () => json({ count: 1, versions: [version(1)] }) });
    await renderWithRouter(<VersionsView namespace="ns" projectName="p" onOpen={() => {}} />);
    await screen.findByRole('link', { name: 'v1' });
    expect(screen.queryByRole('checkbox')).toBeNull();
    expect(screen.queryByRole('button', { name: 'Compare' })).toBeNull();
  });
});
