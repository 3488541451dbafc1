import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { renderWithRouter } from '@/test/render';
import { UploadDropZone } from './UploadDropZone';

function fileItem(file: File) {
  return { kind: 'file', webkitGetAsEntry: () => null, getAsFile: () => file };
}
const textItem = { kind: 'string', webkitGetAsEntry: () => null, getAsFile: () => null };

function transfer(items: unknown[]) {
  return { items, files: [], types: ['Files'], dropEffect: 'none' };
}

async function zone(context: { canUpload?: boolean; running?: boolean } = {}) {
  const onFiles = vi.fn();
  const onRefused = vi.fn();
  await renderWithRouter(
    <UploadDropZone
      canUpload={context.canUpload ?? true}
      onProjectTree
      running={context.running ?? false}
      onFiles={onFiles}
      onRefused={onRefused}
    >
      <table aria-label="Files" />
    </UploadDropZone>,
  );
  const target = screen.getByRole('table', { name: 'Files' });
  return { target, onFiles, onRefused };
}

describe('UploadDropZone', () => {
  it('takes dropped files', async () => {
    const { target, onFiles, onRefused } = await zone();
    const file = new File(['abc'], 'notes.txt');
    fireEvent.drop(target, { dataTransfer: transfer([fileItem(file)]) });
    await waitFor(() => expect(onFiles).toHaveBeenCalledTimes(1));
    expect(onFiles.mock.calls[0]?.[0]).toMatchObject([{ relativePath: 'notes.txt', size: 3 }]);
    expect(onRefused).not.toHaveBeenCalled();
  });

  it("refuses items that are not files with 'Drop only files or folders'", async () => {
    const { target, onFiles, onRefused } = await zone();
    fireEvent.drop(target, {
      dataTransfer: transfer([fileItem(new File(['a'], 'a.txt')), textItem]),
    });
    expect(onRefused).toHaveBeenCalledWith('Drop only files or folders');
    expect(onFiles).not.toHaveBeenCalled();
  });

  it("refuses a drop during an upload with 'You cannot update files during upload'", async () => {
    const { target, onFiles, onRefused } = await zone({ running: true });
    fireEvent.drop(target, { dataTransfer: transfer([fileItem(new File(['a'], 'a.txt'))]) });
    expect(onRefused).toHaveBeenCalledWith('You cannot update files during upload');
    expect(onFiles).not.toHaveBeenCalled();
  });

  it('refuses a drop without upload permission', async () => {
    const { target, onRefused } = await zone({ canUpload: false });
    fireEvent.drop(target, { dataTransfer: transfer([fileItem(new File(['a'], 'a.txt'))]) });
    expect(onRefused).toHaveBeenCalledWith(
      'You do not have permission to upload files to this project',
    );
  });

  it('takes a drop offline: the upload is queued on this device', async () => {
    const onLine = vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(false);
    try {
      const { target, onFiles, onRefused } = await zone();
      fireEvent.drop(target, { dataTransfer: transfer([fileItem(new File(['a'], 'a.txt'))]) });
      await vi.waitFor(() => expect(onFiles).toHaveBeenCalled(), { timeout: 60_000 });
      expect(onRefused).not.toHaveBeenCalled();
    } finally {
      onLine.mockRestore();
    }
  });

  it('highlights after 30 ms: primary when allowed, red when refused', async () => {
    vi.useFakeTimers();
    try {
      const allowed = await zone();
      const box = allowed.target.parentElement as HTMLElement;
      fireEvent.dragOver(allowed.target, {
        dataTransfer: transfer([fileItem(new File(['a'], 'a.txt'))]),
      });
      expect(box).toHaveAttribute('data-drop-highlight', 'none');
      act(() => vi.advanceTimersByTime(30));
      expect(box).toHaveAttribute('data-drop-highlight', 'allowed');
      fireEvent.dragLeave(allowed.target);
      act(() => vi.advanceTimersByTime(30));
      expect(box).toHaveAttribute('data-drop-highlight', 'none');
      fireEvent.dragOver(allowed.target, { dataTransfer: transfer([textItem]) });
      act(() => vi.advanceTimersByTime(30));
      expect(box).toHaveAttribute('data-drop-highlight', 'refused');
    } finally {
      vi.useRealTimers();
    }
  });
});
