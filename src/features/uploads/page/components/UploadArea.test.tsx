import { fireEvent, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { renderWithRouter } from '@/test/render';
import { UploadArea } from './UploadArea';

describe('UploadArea', () => {
  it('offers file and folder pickers and recommends the plugin', async () => {
    const onFiles = vi.fn();
    await renderWithRouter(
      <UploadArea
        refusal={null}
        onFiles={onFiles}
        onRefused={() => undefined}
        docsUrl="https://docs.example"
      />,
    );
    expect(screen.getByRole('region', { name: 'Upload files or folders' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Choose files' })).toBeEnabled();
    expect(screen.getByRole('button', { name: 'Choose folder' })).toBeEnabled();
    expect(screen.getByRole('note', { name: 'Syncing from QGIS?' })).toHaveTextContent(
      'may overwrite changes other users made',
    );
    const folder = screen.getByTestId('upload-folder-input');
    expect(folder).toHaveAttribute('webkitdirectory');
    const file = new File(['a'], 'a.txt');
    Object.defineProperty(file, 'webkitRelativePath', { value: 'survey/data/a.txt' });
    fireEvent.change(folder, { target: { files: [file] } });
    expect(onFiles.mock.calls[0]?.[0]).toMatchObject([{ relativePath: 'survey/data/a.txt' }]);
  });

  it('explains instead of opening a picker during an upload', async () => {
    const onRefused = vi.fn();
    const { user } = await renderWithRouter(
      <UploadArea
        refusal="You cannot update files during upload"
        onFiles={() => undefined}
        onRefused={onRefused}
      />,
    );
    await user.click(screen.getByRole('button', { name: 'Choose files' }));
    expect(onRefused).toHaveBeenCalledWith('You cannot update files during upload');
  });

  it('works offline: the upload is queued on this device', async () => {
    const onLine = vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(false);
    try {
      await renderWithRouter(
        <UploadArea refusal={null} onFiles={() => undefined} onRefused={() => undefined} />,
      );
      expect(screen.getByRole('button', { name: 'Choose files' })).toBeEnabled();
      expect(screen.getByRole('button', { name: 'Choose folder' })).toBeEnabled();
      expect(
        screen.queryByText('Not available offline: connect to the internet first'),
      ).not.toBeInTheDocument();
    } finally {
      onLine.mockRestore();
    }
  });
});
