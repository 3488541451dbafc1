import { screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderWithRouter } from '@/test/render';
import type { ProjectDetail } from '@contract/projects';
import { addOutboxNotice } from '@/offline/outboxNotices';
import type { UploadProgress } from '../../model/types';
import { createPendingUploads } from '../state/pendingUploads';
import { PendingUploadsContext } from '../state/usePendingUploads';

const engine = vi.hoisted(() => ({ uploads: [] as UploadProgress[] }));
vi.mock('../engine', () => ({
  startUploadEngine: vi.fn(),
  useUploads: () => engine.uploads,
  cancelUpload: vi.fn(),
  retryUpload: vi.fn(),
  dismissUpload: vi.fn(),
  enqueueUpload: vi.fn(),
}));
const { OutboxScreen } = await import('./OutboxScreen');

const project = {
  id: 'p-1',
  namespace: 'ws',
  name: 'survey',
  version: 'v1',
  files: [{ path: 'a.txt', size: 2, checksum: 'a', mtime: '' }],
} as ProjectDetail;

function store() {
  return createPendingUploads(
    {
      sha1: vi.fn(async () => 'x'),
      fetchLatest: vi.fn(async () => project),
      enqueue: vi.fn(async () => 'u'),
      cancel: vi.fn(async () => undefined),
      randomId: () => crypto.randomUUID(),
      notify: vi.fn(),
      isOnline: () => true,
      isNetworkError: () => false,
      dropStaged: vi.fn(),
      spaceRefusal: vi.fn(async () => null),
    },
    { noChanges: 'NO CHANGES', cancelled: 'CANCELLED' },
  );
}

afterEach(() => {
  localStorage.clear();
  engine.uploads = [];
});

describe('OutboxScreen (issue 31)', () => {
  it('never says all has landed while a change is not queued yet (refused, or never sent)', async () => {
    const pending = store();
    pending.remove(project, 'a.txt', false);
    await renderWithRouter(
      <PendingUploadsContext.Provider value={pending}>
        <OutboxScreen />
      </PendingUploadsContext.Provider>,
    );
    expect(screen.getByText('No upload from this browser waits to be sent.')).toBeInTheDocument();
    expect(screen.queryByText(/has landed/)).not.toBeInTheDocument();
    const section = screen.getByRole('region', { name: 'Not queued yet' });
    const item = within(section).getByRole('listitem', { name: 'ws/survey' });
    expect(within(item).getByRole('link', { name: 'ws/survey' })).toHaveAttribute(
      'href',
      '/projects/ws/survey/tree',
    );
    expect(item).toHaveTextContent('1 removed');
  });

  it('names the files of each queued upload', async () => {
    engine.uploads = [
      {
        id: 'u1',
        projectPath: 'ws/survey',
        phase: 'waiting-network',
        loadedBytes: 0,
        totalBytes: 4,
        chunksDone: 0,
        chunksTotal: 1,
        bytesPerSecond: null,
        secondsLeft: null,
        retryInSeconds: null,
        error: null,
        updatedAt: 0,
        changes: { added: 1, updated: 0, removed: 1 },
        files: [
          { path: 'b.txt', kind: 'added', size: 4, checksum: 'b' },
          { path: 'a.txt', kind: 'removed', size: 2, checksum: 'a' },
        ],
      },
    ];
    await renderWithRouter(<OutboxScreen />);
    const files = screen.getByRole('list', { name: 'Files' });
    expect(files).toHaveTextContent('b.txt (new)');
    expect(files).toHaveTextContent('a.txt (deleted)');
  });

  it('keeps landed uploads that did not do all that was asked until dismissed', async () => {
    addOutboxNotice({
      id: 'u2',
      projectPath: 'ws/survey',
      kind: 'updated',
      at: Date.now(),
      versionMade: false,
      files: [{ path: 'a.txt', kind: 'removal-dropped' }],
    });
    const { user } = await renderWithRouter(<OutboxScreen />);
    const section = screen.getByRole('region', { name: 'Landed, but not as asked' });
    expect(section).toHaveTextContent('No new version of ws/survey: nothing was left to send');
    expect(section).toHaveTextContent(
      'a.txt: not deleted, because it changed on the server meanwhile',
    );
    await user.click(within(section).getByRole('button', { name: 'Dismiss ws/survey' }));
    expect(screen.queryByRole('region', { name: 'Landed, but not as asked' })).toBeNull();
    expect(localStorage.getItem('waymark.outboxNotices')).toBeNull();
  });
});
