import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { pasteInto, renderWithRouter } from '@/test/render';
import { FileBrowser } from './FileBrowser';
import type { ListedFile } from '../model/files';

const file = (
  path: string,
  size = 2048,
  mtime: string | null = '2024-05-01T00:00:00Z',
): ListedFile => ({
  path,
  size,
  mtime,
});

const FILES = [
  file('project.qgz'),
  file('data/points.gpkg', 4096, '2024-05-04T00:00:00Z'),
  file('data/photo.jpg'),
  file('b.xlsx', 1),
];

function rowNames(): string[] {
  const table = screen.getByRole('table');
  return within(table)
    .getAllByRole('row')
    .slice(1)
    .map((row) => (within(row).queryAllByRole('cell')[0]?.textContent ?? '').trim());
}

describe('FileBrowser', () => {
  it('lists folders first with name, modified and size', async () => {
    await renderWithRouter(
      <FileBrowser namespace="ns" projectName="p" files={FILES} location="" />,
    );
    expect(
      within(screen.getByRole('table'))
        .getAllByRole('columnheader')
        .map((c) => c.textContent),
    ).toEqual(['Name', 'Modified', 'Size']);
    expect(rowNames()).toEqual(['data', 'b.xlsx', 'project.qgz']);
    expect(screen.getByRole('link', { name: 'data' })).toHaveAttribute(
      'href',
      '/projects/ns/p/tree/data',
    );
    expect(screen.getByRole('link', { name: 'project.qgz' })).toHaveAttribute(
      'href',
      '/projects/ns/p/blob/project.qgz',
    );
    expect(screen.queryByRole('link', { name: 'Parent folder' })).not.toBeInTheDocument();
  });

  it('has a .. row to the parent folder inside a folder', async () => {
    await renderWithRouter(
      <FileBrowser namespace="ns" projectName="p" files={FILES} location="data" />,
    );
    expect(screen.getByRole('link', { name: 'Parent folder' })).toHaveAttribute(
      'href',
      '/projects/ns/p/tree',
    );
    expect(screen.getByRole('link', { name: 'Parent folder' })).toHaveTextContent('..');
    expect(rowNames()).toEqual(['..', 'photo.jpg', 'points.gpkg']);
    const photo = screen.getByRole('link', { name: 'photo.jpg' }).closest('tr') as HTMLElement;
    expect(photo.querySelector('[data-icon="photo"]')).not.toBeNull();
  });

  it('filters by the search and sorts by size', async () => {
    const { user } = await renderWithRouter(
      <FileBrowser namespace="ns" projectName="p" files={FILES} location="" />,
    );
    await pasteInto(user, screen.getByRole('textbox', { name: 'Search files' }), 'gpkg');
    expect(rowNames()).toEqual(['data/points.gpkg']);
    await user.clear(screen.getByRole('textbox', { name: 'Search files' }));
    await pasteInto(user, screen.getByRole('textbox', { name: 'Search files' }), 'nothing');
    expect(screen.getByText('No files found.')).toBeInTheDocument();
    await user.clear(screen.getByRole('textbox', { name: 'Search files' }));
    await user.click(screen.getByRole('button', { name: 'Sort' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Sort by size' }));
    await waitFor(() => expect(rowNames()).toEqual(['data', 'project.qgz', 'b.xlsx']));
  });

  it('pages 10,000 files by 50', async () => {
    const many = Array.from({ length: 10_000 }, (_, i) =>
      file(`f${String(i).padStart(5, '0')}.txt`, i),
    );
    const { user } = await renderWithRouter(
      <FileBrowser namespace="ns" projectName="p" files={many} location="" />,
    );
    expect(rowNames()).toHaveLength(50);
    expect(rowNames()[0]).toBe('f00000.txt');
    await user.click(await screen.findByRole('button', { name: 'Page 2' }));
    expect(rowNames()[0]).toBe('f00050.txt');
    expect(screen.getByRole('button', { name: 'Page 200' })).toBeInTheDocument();
  });

  it('badges pending changes and lists only them with the diff filter', async () => {
    const changes = new Map([
      ['data/points.gpkg', 'updated' as const],
      ['b.xlsx', 'removed' as const],
    ]);
    const onDelete = vi.fn();
    const { user } = await renderWithRouter(
      <FileBrowser
        namespace="ns"
        projectName="p"
        files={FILES}
        location=""
        changes={changes}
        onDelete={onDelete}
      />,
    );
    const row = screen.getByRole('link', { name: 'b.xlsx' }).closest('tr') as HTMLElement;
    expect(within(row).getByText('Deleted file')).toBeInTheDocument();
    await user.click(screen.getByText('Pending changes'));
    await waitFor(() =>
      expect(rowNames()).toEqual(['b.xlsxDeleted file', 'data/points.gpkgModified file']),
    );
    await user.click(screen.getByText('All files'));
    await user.click(screen.getByRole('button', { name: 'Delete folder data' }));
    expect(onDelete).toHaveBeenCalledWith('data', true);
    // Files have theirs too, except one already deleted.
    await user.click(screen.getByRole('button', { name: 'Delete file project.qgz' }));
    expect(onDelete).toHaveBeenCalledWith('project.qgz', false);
    expect(screen.queryByRole('button', { name: 'Delete file b.xlsx' })).not.toBeInTheDocument();
  });

  it('has no filter and no delete buttons without changes and permission', async () => {
    await renderWithRouter(
      <FileBrowser namespace="ns" projectName="p" files={FILES} location="" />,
    );
    expect(screen.queryByText('Pending changes')).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /Delete (folder|file)/ })).not.toBeInTheDocument();
  });
});
