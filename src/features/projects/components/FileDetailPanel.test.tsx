import { notifications } from '@mantine/notifications';
import { screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeServer } from '@/test/fakeServer';
import { renderWithRouter } from '@/test/render';
import { FileDetailPanel } from './FileDetailPanel';
import { ImagePreview } from './FilePreview';
import type { ListedFile } from '../model/files';

const RAW = '/v1/project/raw/ns/p';

function panel(file: ListedFile | undefined, onClose = () => undefined) {
  return renderWithRouter(
    <FileDetailPanel namespace="ns" projectName="p" file={file} onClose={onClose} />,
  );
}

afterEach(() => {
  notifications.clean();
  vi.unstubAllGlobals();
});

describe('FileDetailPanel', () => {
  it('shows the file and a text preview read with HEAD and a Range request', async () => {
    const text = Array.from({ length: 80 }, (_, i) => `row ${i}`).join('\n');
    const server = fakeServer({
      [`HEAD ${RAW}`]: () =>
        new Response(null, { status: 200, headers: { 'Content-Type': 'text/plain' } }),
      [`GET ${RAW}`]: () =>
        new Response(text, { status: 206, headers: { 'Content-Type': 'text/plain' } }),
    });
    await panel({ path: 'notes/readme.txt', size: 5000, mtime: '2024-05-04T14:21:56Z' });
    expect(await screen.findAllByRole('heading', { name: 'readme.txt' })).not.toHaveLength(0);
    expect(screen.getByText('4.9 kB')).toBeInTheDocument();
    const preview = await screen.findByTestId('text-preview');
    expect(preview.textContent?.split('\n')).toHaveLength(50);
    const get = server.calls(`GET ${RAW}`)[0];
    expect(get?.headers.Range).toBe('bytes=0-65535');
    expect(new URL(get?.url ?? '', 'http://x').searchParams.get('file')).toBe('notes/readme.txt');
  });

  it('shows SVG as text rather than rendering it', async () => {
    fakeServer({
      [`HEAD ${RAW}`]: () =>
        new Response(null, { status: 200, headers: { 'Content-Type': 'image/svg+xml' } }),
      [`GET ${RAW}`]: () => new Response('<svg onload="x()"></svg>', { status: 206 }),
    });
    await panel({ path: 'a.svg', size: 30, mtime: '2024-05-04T14:21:56Z' });
    expect(await screen.findByTestId('text-preview')).toHaveTextContent('<svg onload="x()"></svg>');
    expect(screen.queryByRole('img')).not.toBeInTheDocument();
  });

  it('previews images after a HEAD request only', async () => {
    const server = fakeServer({
      [`HEAD ${RAW}`]: () =>
        new Response(null, { status: 200, headers: { 'Content-Type': 'image/png' } }),
    });
    await panel({ path: 'photos/a.png', size: 300, mtime: '2024-05-04T14:21:56Z' });
    const image = await screen.findByRole('img', { name: 'photos/a.png' });
    expect(image.getAttribute('src')).toBe('/v1/project/raw/ns/p?file=photos%2Fa.png');
    expect(server.calls(`GET ${RAW}`)).toHaveLength(0);
  });

  it('shows the modified time, and no row for a time the server does not know', async () => {
    fakeServer({});
    const big = { path: 'big.tif', size: 104857600 };
    const { unmount } = await panel({ ...big, mtime: '2024-05-04T14:21:56Z' });
    expect(await screen.findByText('Modified')).toBeInTheDocument();
    expect(screen.getByText(/4 May 2024/)).toBeInTheDocument();
    unmount();
    await panel({ ...big, mtime: null });
    expect(await screen.findAllByRole('heading', { name: 'big.tif' })).not.toHaveLength(0);
    expect(screen.getByText('Size')).toBeInTheDocument();
    expect(screen.queryByText('Modified')).not.toBeInTheDocument();
  });

  it('asks nothing about files of 100 MB or more', async () => {
    const server = fakeServer({});
    await panel({ path: 'big.tif', size: 104857600, mtime: '2024-05-04T14:21:56Z' });
    expect(await screen.findAllByRole('heading', { name: 'big.tif' })).not.toHaveLength(0);
    expect(server.requests).toHaveLength(0);
  });

  it('downloads under the name of Content-Disposition', async () => {
    fakeServer({
      [`HEAD ${RAW}`]: () => new Response(null, { status: 200 }),
      [`GET ${RAW}`]: () =>
        new Response('data', {
          status: 200,
          headers: { 'Content-Disposition': "attachment; filename*=UTF-8''a%20b.gpkg" },
        }),
    });
    const createObjectURL = vi.fn(() => 'blob:x');
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL, revokeObjectURL: vi.fn() }));
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (
      this: HTMLAnchorElement,
    ) {
      expect(this.download).toBe('a b.gpkg');
    });
    const { user } = await panel({ path: 'a.gpkg', size: 4, mtime: '2024-05-04T14:21:56Z' });
    await user.click(await screen.findByRole('button', { name: 'Download' }));
    await waitFor(() => expect(click).toHaveBeenCalled());
    click.mockRestore();
  });

  it('closes with the close button', async () => {
    fakeServer({ [`HEAD ${RAW}`]: () => new Response(null, { status: 200 }) });
    const onClose = vi.fn();
    const { user } = await panel(
      { path: 'a.gpkg', size: 4, mtime: '2024-05-04T14:21:56Z' },
      onClose,
    );
    await user.click(await screen.findByRole('button', { name: 'Close' }));
    expect(onClose).toHaveBeenCalled();
  });
});

describe('ImagePreview', () => {
  it('zooms between 50% and 150% and rotates by 90°', async () => {
    const { user } = await renderWithRouter(<ImagePreview url="/x.png" alt="x" />);
    const image = screen.getByRole('img', { name: 'x' });
    for (let i = 0; i < 6; i += 1)
      await user.click(screen.getByRole('button', { name: 'Zoom in' }));
    expect(screen.getByRole('button', { name: 'Zoom in' })).toBeDisabled();
    expect(image.style.transform).toBe('rotate(0deg) scale(1.5)');
    for (let i = 0; i < 10; i += 1)
      await user.click(screen.getByRole('button', { name: 'Zoom out' }));
    expect(screen.getByRole('button', { name: 'Zoom out' })).toBeDisabled();
    expect(image.style.transform).toBe('rotate(0deg) scale(0.5)');
    await user.click(screen.getByRole('button', { name: 'Rotate' }));
    expect(image.style.transform).toBe('rotate(90deg) scale(0.5)');
  });

  it("badges a pending change and stages the deletion with 'Delete file'", async () => {
    fakeServer({
      [`HEAD ${RAW}`]: () =>
        new Response(null, { status: 200, headers: { 'Content-Type': 'text/plain' } }),
      [`GET ${RAW}`]: () => new Response('old', { status: 206 }),
    });
    const onDelete = vi.fn();
    const file = { path: 'notes.txt', size: 3, mtime: '2024-05-04T14:21:56Z' };
    const { user } = await renderWithRouter(
      <FileDetailPanel
        namespace="ns"
        projectName="p"
        file={file}
        onClose={() => undefined}
        change="updated"
        newSize={2048}
        onDelete={onDelete}
      />,
    );
    expect(await screen.findByText('Modified file')).toBeInTheDocument();
    expect(screen.getByText('New size')).toBeInTheDocument();
    expect(screen.getByText('2.0 kB')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Delete file' }));
    expect(onDelete).toHaveBeenCalledTimes(1);
  });

  it("hides 'Delete file' for a removed file and download for a new one", async () => {
    const file = { path: 'new.csv', size: 3, mtime: '2024-05-04T14:21:56Z' };
    const first = await renderWithRouter(
      <FileDetailPanel
        namespace="ns"
        projectName="p"
        file={file}
        onClose={() => undefined}
        change="removed"
        onDelete={() => undefined}
      />,
    );
    expect(await screen.findByText('Deleted file')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Delete file' })).not.toBeInTheDocument();
    first.unmount();
    await renderWithRouter(
      <FileDetailPanel
        namespace="ns"
        projectName="p"
        file={file}
        onClose={() => undefined}
        change="added"
      />,
    );
    expect(await screen.findByText('New file')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Download' })).not.toBeInTheDocument();
  });
});
