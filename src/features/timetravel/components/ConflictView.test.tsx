import type { ConflictFile, ConflictList, ConflictRows, EditConflict } from '@contract/conflicts';
import type { NewVersion } from '@contract/restore';
import { PUSH_ID_HEADER } from '@contract/protocol';
import { notifications } from '@mantine/notifications';
import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeServer, json, problem } from '@/test/fakeServer';
import { renderWithRouter } from '@/test/render';
import { ConflictView } from './ConflictView';
import { ConflictsNotice } from './ConflictsNotice';

const LIST = '/app/project/conflicts/ns/p';
const EDIT = '/app/project/conflicts/ns/p/edit';
const RESOLVE = '/app/project/conflicts/ns/p/resolve';
const ROWS = '/app/project/conflicts/ns/p/rows';

const COPY = 'notes (conflicted copy, ann v1).txt';
const EDIT_FILE = 'survey (edit conflict, ann v2).json';

const copy: ConflictFile = {
  path: COPY,
  kind: 'conflicted_copy',
  original: 'notes.txt',
  original_exists: true,
  user: 'ann',
  version: 'v1',
  size: 12,
  checksum: 'a',
};
const edit: ConflictFile = {
  path: EDIT_FILE,
  kind: 'edit_conflict',
  original: 'survey.gpkg',
  original_exists: true,
  user: 'ann',
  version: 'v2',
  size: 300,
  checksum: 'b',
};
const list: ConflictList = { conflicts: [copy, edit] };

const editConflict: EditConflict = {
  path: EDIT_FILE,
  original: 'survey.gpkg',
  original_exists: true,
  user: 'ann',
  version: 'v2',
  fields: [
    { table: 'points', fid: '7', column: 2, name: 'name', base: 'oak', ours: 'ash', theirs: 'elm' },
    { table: 'points', fid: '7', column: 5, name: null, base: null, ours: 3, theirs: 4 },
  ],
};

const made: NewVersion = {
  version: 'v4',
  origin: { action: 'keep_copy', version: null, path: COPY, original: 'notes.txt' },
  changes: { added: 0, updated: 1, removed: 1 },
};

const files = [
  { path: 'notes.txt', size: 14, checksum: 'c', mtime: '2024-05-04T14:21:56Z' },
  { path: COPY, size: 12, checksum: 'c', mtime: '2024-05-05T08:00:00Z' },
  { path: 'survey.gpkg', size: 4096, checksum: 'c', mtime: '2024-05-05T08:00:00Z' },
  { path: EDIT_FILE, size: 300, checksum: 'c', mtime: '2024-05-05T08:00:00Z' },
];

function view(path: string, canResolve = true, onResolved = vi.fn()) {
  return renderWithRouter(
    <ConflictView
      namespace="ns"
      projectName="p"
      version="v3"
      files={files}
      path={path}
      canResolve={canResolve}
      onResolved={onResolved}
    />,
  );
}

afterEach(() => {
  notifications.clean();
  vi.unstubAllGlobals();
});

// Rendering Mantine in jsdom is slow on a busy machine.
describe('conflicts', () => {
  it('the notice lists each conflict file as a link, and is absent without any', async () => {
    fakeServer({ [`GET ${LIST}`]: () => json(list) });
    const first = await renderWithRouter(
      <ConflictsNotice namespace="ns" projectName="p" version="v3" />,
    );
    const notice = await screen.findByRole('region', { name: 'Conflicts' });
    expect(notice).toHaveTextContent('Conflicting file in project');
    expect(within(notice).getByRole('link', { name: COPY })).toHaveAttribute(
      'href',
      `/projects/ns/p/conflicts/${encodeURI(COPY).replace(/,/g, '%2C')}`,
    );
    expect(notice).toHaveTextContent('(conflicted copy of notes.txt, ann v1)');
    expect(notice).toHaveTextContent('(edit conflict of survey.gpkg, ann v2)');
    first.unmount();

    const server = fakeServer({ [`GET ${LIST}`]: () => json({ conflicts: [] }) });
    await renderWithRouter(<ConflictsNotice namespace="ns" projectName="p" version="v3" />);
    await waitFor(() => expect(server.calls(`GET ${LIST}`)).toHaveLength(1));
    expect(screen.queryByRole('region', { name: 'Conflicts' })).toBeNull();
  });

  it("shows a conflicted copy beside its original; 'Keep this copy' makes a new version", async () => {
    const server = fakeServer({
      [`GET ${LIST}`]: () => json(list),
      [`POST ${RESOLVE}`]: () => json(made, 201),
    });
    const onResolved = vi.fn();
    const { user } = await view(COPY, true, onResolved);
    const original = await screen.findByRole('region', { name: 'Original' });
    expect(original).toHaveTextContent('notes.txt');
    expect(original).toHaveTextContent('14 B');
    const side = screen.getByRole('region', { name: 'Conflicted copy' });
    expect(side).toHaveTextContent(COPY);
    expect(side).toHaveTextContent('12 B');

    // It asks first, naming what it overwrites (issue 31); cancelled, nothing is sent.
    await user.click(screen.getByRole('button', { name: 'Keep this copy' }));
    let dialog = await screen.findByRole('dialog', { name: 'Overwrite notes.txt?' });
    expect(dialog).toHaveTextContent(
      `notes.txt gets the content of ${COPY}, the copy ann made (v1): everything notes.txt holds now, including changes others made since, is overwritten`,
    );
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(server.calls(`POST ${RESOLVE}`)).toHaveLength(0);
    await user.click(screen.getByRole('button', { name: 'Keep this copy' }));
    dialog = await screen.findByRole('dialog', { name: 'Overwrite notes.txt?' });
    await user.click(within(dialog).getByRole('button', { name: 'Overwrite' }));
    await waitFor(() => expect(onResolved).toHaveBeenCalledWith(made));
    const [request] = server.calls(`POST ${RESOLVE}`);
    expect(request?.body).toEqual({ path: COPY, action: 'keep' });
    expect(request?.headers[PUSH_ID_HEADER]).toMatch(/^[0-9a-f-]{36}$/);
    expect(await screen.findByText('New version v4 created')).toBeInTheDocument();
  });

  it("shows an edit conflict as base, ours and theirs per field; 'Discard copy' removes it", async () => {
    const server = fakeServer({
      [`GET ${LIST}`]: () => json(list),
      [`GET ${EDIT}`]: () => json(editConflict),
      [`POST ${RESOLVE}`]: () => json(made, 201),
    });
    const { user } = await view(EDIT_FILE);
    const table = await screen.findByRole('table', { name: 'Conflicting fields' });
    const rows = within(table)
      .getAllByRole('row')
      .map((row) => [...row.querySelectorAll('th, td')].map((cell) => cell.textContent));
    expect(rows).toEqual([
      ['Table', 'Feature', 'Field', 'Base', 'Ours', 'Theirs'],
      ['points', '7', 'name', 'oak', 'ash', 'elm'],
      ['points', '7', 'column 5', 'NULL', '3', '4'],
    ]);
    await user.click(screen.getByRole('button', { name: 'Discard copy' }));
    await waitFor(() => expect(server.calls(`POST ${RESOLVE}`)).toHaveLength(1));
    expect(server.calls(`POST ${RESOLVE}`)[0]?.body).toEqual({
      path: EDIT_FILE,
      action: 'discard',
    });
  });

  it('offers readers no resolution, and says why a resolution failed', async () => {
    fakeServer({ [`GET ${LIST}`]: () => json(list) });
    const first = await view(COPY, false);
    expect(await screen.findByRole('region', { name: 'Original' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Keep this copy' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Discard copy' })).toBeNull();
    first.unmount();

    fakeServer({
      [`GET ${LIST}`]: () => json(list),
      [`POST ${RESOLVE}`]: () => problem('The project is locked', 423),
    });
    const onResolved = vi.fn();
    const { user } = await view(COPY, true, onResolved);
    await user.click(await screen.findByRole('button', { name: 'Discard copy' }));
    expect(await screen.findByText('The project is locked')).toBeInTheDocument();
    expect(onResolved).not.toHaveBeenCalled();
  });

  it('says so for a file that is not a conflict file', async () => {
    fakeServer({ [`GET ${LIST}`]: () => json(list) });
    await view('notes.txt');
    expect(
      await screen.findByText('This file is not a conflict file of the project (any more).'),
    ).toBeInTheDocument();
  });

  it('shows the rows keeping a GeoPackage copy would change in its original', async () => {
    const gpkgCopy = 'survey (conflicted copy, ann v2).gpkg';
    const rows: ConflictRows = {
      path: gpkgCopy,
      original: 'survey.gpkg',
      original_exists: true,
      status: 'done',
      error: null,
      summary: [{ table: 'points', insert: 0, update: 1, delete: 0 }],
      count: 1,
      page: 1,
      per_page: 500,
      entries: [
        {
          table: 'points',
          type: 'update',
          changes: [
            { column: 0, name: 'fid', type: 'integer', old: 7 },
            { column: 2, name: 'name', type: 'text', old: 'elm', new: 'ash' },
          ],
        },
      ],
    };
    const server = fakeServer({
      [`GET ${LIST}`]: () =>
        json({ conflicts: [{ ...copy, path: gpkgCopy, original: 'survey.gpkg', version: 'v2' }] }),
      [`GET ${ROWS}`]: () => json(rows),
    });
    await view(gpkgCopy);
    const section = await screen.findByRole('region', {
      name: 'Rows of survey.gpkg that keeping this copy changes',
    });
    const table = await within(section).findByRole('table', { name: 'Changes of points' });
    expect(within(table).getByText('elm → ash')).toBeInTheDocument();
    const asked = new URL(server.calls(`GET ${ROWS}`)[0]?.url ?? '', 'http://x').searchParams;
    expect(Object.fromEntries(asked)).toEqual({ path: gpkgCopy, page: '1', per_page: '500' });
  });

  it('shows no rows for a copy of a file that is not a GeoPackage', async () => {
    const server = fakeServer({ [`GET ${LIST}`]: () => json(list) });
    await view(COPY);
    expect(await screen.findByRole('region', { name: 'Original' })).toBeInTheDocument();
    expect(
      screen.queryByRole('region', { name: /^Rows of .* that keeping this copy changes$/ }),
    ).toBeNull();
    expect(server.calls(`GET ${ROWS}`)).toHaveLength(0);
  });
});
