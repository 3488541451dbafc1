import { screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { renderWithRouter } from '@/test/render';
import type { ProjectFile } from '@contract/projects';
import { filesOfProject, type PendingFile } from '../../model/pending';
import type { UploadProgress } from '../../model/types';
import type { PendingUpload } from '../state/pendingUploads';
import { DataSyncPanel } from './DataSyncPanel';

const BASE: ProjectFile[] = [
  { path: 'notes.txt', size: 10, checksum: 'n1', mtime: '2026-01-01T00:00:00Z' },
  { path: 'old.txt', size: 5, checksum: 'o1', mtime: '2026-01-01T00:00:00Z' },
];

function pending(change: Partial<PendingUpload> = {}, chosen: PendingFile[] = []): PendingUpload {
  const files = filesOfProject(BASE);
  files.delete('old.txt');
  for (const file of chosen) files.set(file.path, file);
  return {
    key: 'ws/survey',
    projectId: 'p',
    namespace: 'ws',
    name: 'survey',
    baseVersion: 'v1',
    baseFiles: BASE,
    files,
    ignored: [],
    analysing: {},
    starting: false,
    uploadId: null,
    queuedBelow: false,
    ...change,
  };
}

const chosen = (path: string, size: number, checksum: string | null): PendingFile => ({
  path,
  size,
  checksum,
  mtime: '2026-01-01T00:00:00Z',
  blob: new Blob(['x']),
});

describe('DataSyncPanel', () => {
  it('shows the size and the counts, and updates the changes', async () => {
    const onUpdate = vi.fn();
    const { user } = await renderWithRouter(
      <DataSyncPanel
        docked
        upload={pending({}, [chosen('notes.txt', 2048, 'n2'), chosen('new.csv', 1024, 'c')])}
        onUpdate={onUpdate}
        onClose={() => undefined}
      />,
    );
    const panel = screen.getByRole('region', { name: 'Data Sync' });
    expect(within(panel).getByText('3.0 kB')).toBeInTheDocument();
    const counts = within(panel).getByRole('group', { name: 'Changes' });
    expect(counts).toHaveTextContent('Added: 1');
    expect(counts).toHaveTextContent('Updated: 1');
    expect(counts).toHaveTextContent('Removed: 1');
    await user.click(within(panel).getByRole('button', { name: 'Update Changes' }));
    expect(onUpdate).toHaveBeenCalledTimes(1);
  });

  it("disables 'Update Changes' while files are analysed, with per-file progress", async () => {
    await renderWithRouter(
      <DataSyncPanel
        docked
        upload={pending({ analysing: { 'big.tif': { loaded: 50, total: 200 } } }, [
          chosen('big.tif', 200, null),
        ])}
        onUpdate={() => undefined}
        onClose={() => undefined}
      />,
    );
    expect(screen.getByRole('button', { name: 'Update Changes' })).toBeDisabled();
    const analysing = screen.getByRole('group', { name: 'Analysing files' });
    expect(
      within(analysing).getByRole('progressbar', { name: 'Analysing big.tif' }),
    ).toHaveAttribute('aria-valuenow', '25');
  });

  it("disables 'Update Changes' while the upload runs and shows its state", async () => {
    const progress: UploadProgress = {
      id: 'u1',
      projectPath: 'ws/survey',
      phase: 'retrying',
      loadedBytes: 0,
      totalBytes: 10,
      chunksDone: 0,
      chunksTotal: 1,
      bytesPerSecond: null,
      secondsLeft: null,
      retryInSeconds: 8,
      error: null,
      updatedAt: 0,
    };
    await renderWithRouter(
      <DataSyncPanel
        docked
        upload={pending({ uploadId: 'u1' })}
        progress={progress}
        onUpdate={() => undefined}
        onClose={() => undefined}
      />,
    );
    expect(screen.getByRole('button', { name: 'Update Changes' })).toBeDisabled();
    expect(screen.getByText('Connection problem, retrying in 8 s')).toBeInTheDocument();
  });

  it('closes (discarding) with its close button, after asking (issue 31)', async () => {
    const onClose = vi.fn();
    const { user } = await renderWithRouter(
      <DataSyncPanel docked upload={pending()} onUpdate={() => undefined} onClose={onClose} />,
    );
    await user.click(screen.getByRole('button', { name: 'Discard pending changes' }));
    let dialog = await screen.findByRole('dialog', { name: 'Discard pending changes?' });
    expect(dialog).toHaveTextContent('The pending changes (1 deleted) will be discarded');
    await user.click(within(dialog).getByRole('button', { name: 'Keep them' }));
    expect(onClose).not.toHaveBeenCalled();
    await user.click(screen.getByRole('button', { name: 'Discard pending changes' }));
    dialog = await screen.findByRole('dialog', { name: 'Discard pending changes?' });
    await user.click(within(dialog).getByRole('button', { name: 'Discard' }));
    expect(onClose).toHaveBeenCalledTimes(1);
  });

  it('floating (narrow screens), starts collapsed to its title, in the bottom right corner (issue 31)', async () => {
    const { user } = await renderWithRouter(
      <DataSyncPanel upload={pending()} onUpdate={() => undefined} onClose={() => undefined} />,
    );
    const panel = screen.getByRole('region', { name: 'Data Sync' });
    expect(panel).toHaveStyle({ position: 'fixed', bottom: '16px', right: '16px' });
    const toggle = screen.getByRole('button', { name: 'Show or hide the Data Sync details' });
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
    expect(screen.queryByRole('button', { name: 'Update Changes' })).toBeNull();
    await user.click(toggle);
    expect(screen.getByRole('button', { name: 'Update Changes' })).toBeVisible();
  });
});
