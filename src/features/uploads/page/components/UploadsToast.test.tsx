import { screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { renderWithRouter } from '@/test/render';
import type { UploadProgress } from '../../model/types';
import { STORAGE_LIMIT_MESSAGE } from '../../model/texts';
import { UploadsToast } from './UploadsToast';

const upload = (change: Partial<UploadProgress>): UploadProgress => ({
  id: 'u1',
  projectPath: 'ws/survey',
  phase: 'uploading',
  loadedBytes: 3 * 1024 * 1024,
  totalBytes: 12 * 1024 * 1024,
  chunksDone: 0,
  chunksTotal: 2,
  bytesPerSecond: 1024 * 1024,
  secondsLeft: 9,
  retryInSeconds: null,
  error: null,
  updatedAt: 0,
  ...change,
});

describe('UploadsToast', () => {
  it('shows a progress bar per project while uploads run', async () => {
    const onCancel = vi.fn();
    const { user } = await renderWithRouter(
      <UploadsToast
        uploads={[
          upload({}),
          upload({ id: 'u2', projectPath: 'ws/other', phase: 'waiting-network' }),
          upload({ id: 'u3', projectPath: 'ws/done', phase: 'finished' }),
        ]}
        onCancel={onCancel}
        onRetry={() => undefined}
        onDismiss={() => undefined}
      />,
    );
    const toast = await screen.findByRole('status', { name: 'Uploading data to projects' });
    expect(within(toast).getByRole('progressbar', { name: 'ws/survey' })).toHaveAttribute(
      'aria-valuenow',
      '25',
    );
    expect(toast).toHaveTextContent('Uploading 3.0 MB of 12.0 MB · 1.0 MB/s · 9 s left');
    expect(toast).toHaveTextContent('Waiting for the network…');
    expect(within(toast).queryByText('ws/done')).not.toBeInTheDocument();
    await user.click(within(toast).getByRole('button', { name: 'Cancel upload ws/survey' }));
    expect(onCancel).toHaveBeenCalledWith('u1');
  });

  it('keeps a failed upload with its reason, Retry and Dismiss', async () => {
    const onRetry = vi.fn();
    const onDismiss = vi.fn();
    const { user } = await renderWithRouter(
      <UploadsToast
        uploads={[upload({ phase: 'failed', error: 'Version mismatch' })]}
        onCancel={() => undefined}
        onRetry={onRetry}
        onDismiss={onDismiss}
      />,
    );
    const toast = await screen.findByRole('status', { name: 'Uploading data to projects' });
    expect(toast).toHaveTextContent('Upload failed: Version mismatch');
    await user.click(within(toast).getByRole('button', { name: 'Retry' }));
    await user.click(within(toast).getByRole('button', { name: 'Dismiss' }));
    expect(onRetry).toHaveBeenCalledWith('u1');
    expect(onDismiss).toHaveBeenCalledWith('u1');
  });

  it('offers no Retry for an over-quota refusal, which a retry cannot get past', async () => {
    await renderWithRouter(
      <UploadsToast
        uploads={[upload({ phase: 'failed', error: STORAGE_LIMIT_MESSAGE })]}
        onCancel={() => undefined}
        onRetry={() => undefined}
        onDismiss={() => undefined}
      />,
    );
    const toast = await screen.findByRole('status', { name: 'Uploading data to projects' });
    expect(toast).toHaveTextContent(`Upload failed: ${STORAGE_LIMIT_MESSAGE}`);
    expect(toast).not.toHaveTextContent('StorageLimitHit');
    expect(within(toast).queryByRole('button', { name: 'Retry' })).not.toBeInTheDocument();
    expect(within(toast).getByRole('button', { name: 'Dismiss' })).toBeInTheDocument();
  });

  it('is hidden when no upload runs', async () => {
    await renderWithRouter(
      <UploadsToast
        uploads={[upload({ phase: 'cancelled' })]}
        onCancel={() => undefined}
        onRetry={() => undefined}
        onDismiss={() => undefined}
      />,
    );
    expect(screen.queryByRole('status', { name: 'Uploading data to projects' })).toBeNull();
  });
});
