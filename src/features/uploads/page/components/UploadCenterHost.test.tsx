import { notifications } from '@mantine/notifications';
import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { openDatabase, type UploadRecord } from '@/db/db';
import { renderWithRouter } from '@/test/render';
import { resetUploadEngineDemand, wantUploadEngine } from '../state/engineDemand';
import type * as StoredUploads from '../state/storedUploads';

const engine = vi.hoisted(() => ({ started: 0 }));
const queue = vi.hoisted(() => ({ check: null as Promise<boolean> | null }));

// The real IndexedDB check, recorded so a test can wait for its answer.
vi.mock('../state/storedUploads', async (importOriginal) => {
  const real = await importOriginal<typeof StoredUploads>();
  return {
    ...real,
    hasStoredUploads: (name?: string) => (queue.check = real.hasStoredUploads(name)),
  };
});

vi.mock('../engine', () => ({
  startUploadEngine: () => {
    engine.started += 1;
  },
  onUploadSettled: () => () => undefined,
  useUploads: () => [],
  cancelUpload: vi.fn(),
  retryUpload: vi.fn(),
  dismissUpload: vi.fn(),
  enqueueUpload: vi.fn(),
}));

// The engine starts only where workers exist.
vi.stubGlobal('Worker', class {});
const { UploadCenterHost } = await import('./UploadCenterHost');

afterEach(async () => {
  notifications.clean();
  resetUploadEngineDemand();
  engine.started = 0;
  queue.check = null;
  await openDatabase().delete();
});

/** The host checks the queue once at start: wait for its answer (and what it renders). */
async function queueChecked(): Promise<void> {
  await waitFor(() => expect(queue.check).not.toBeNull());
  await act(async () => {
    await queue.check;
  });
}

describe('UploadCenterHost', () => {
  it('does not load the upload engine when no upload is stored', async () => {
    await renderWithRouter(<UploadCenterHost />);
    await queueChecked();
    expect(engine.started).toBe(0);
  });

  it('starts the engine at once when an upload is stored, so it resumes', async () => {
    const db = openDatabase();
    await db.uploads.put({ id: 'u1', phase: 'queued', createdAt: 1 } as UploadRecord);
    db.close();
    await renderWithRouter(<UploadCenterHost />);
    await waitFor(() => expect(engine.started).toBe(1));
  });

  it('starts the engine when uploads are wanted (a project upload area is shown)', async () => {
    await renderWithRouter(<UploadCenterHost />);
    await queueChecked();
    expect(engine.started).toBe(0);
    wantUploadEngine();
    await waitFor(() => expect(engine.started).toBe(1));
  });

  it('refuses a file drop away from a project Files tab', async () => {
    await renderWithRouter(<UploadCenterHost />);
    const dataTransfer = { types: ['Files'], items: [], files: [], dropEffect: 'copy' };
    const over = fireEvent.dragOver(document.body, { dataTransfer });
    expect(over).toBe(false);
    fireEvent.drop(document.body, { dataTransfer });
    expect(
      await screen.findByText("Files can be dropped only on a project's Files tab"),
    ).toBeInTheDocument();
  });
});
