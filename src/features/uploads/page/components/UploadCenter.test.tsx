import { notifications } from '@mantine/notifications';
import { screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderWithRouter } from '@/test/render';
import type { ProjectDetail } from '@contract/projects';
import type { UploadOutcome } from '../../model/types';

const engine = vi.hoisted(() => ({
  listeners: [] as Array<(outcome: UploadOutcome) => void>,
  started: 0,
}));

vi.mock('../engine', () => ({
  startUploadEngine: () => {
    engine.started += 1;
  },
  onUploadSettled: (listener: (outcome: UploadOutcome) => void) => {
    engine.listeners.push(listener);
    return () => engine.listeners.splice(engine.listeners.indexOf(listener), 1);
  },
  useUploads: () => [],
  cancelUpload: vi.fn(),
  retryUpload: vi.fn(),
  dismissUpload: vi.fn(),
  enqueueUpload: vi.fn(),
}));

// The engine starts only where workers exist.
vi.stubGlobal('Worker', class {});
const { UploadCenter } = await import('./UploadCenter');

const settle = (outcome: UploadOutcome) => {
  for (const listener of [...engine.listeners]) listener(outcome);
};

afterEach(() => notifications.clean());

describe('UploadCenter', () => {
  it('starts the engine and tells each outcome, refetching the project and the profile', async () => {
    const { queryClient } = await renderWithRouter(<UploadCenter />);
    expect(engine.started).toBe(1);
    const invalidate = vi.spyOn(queryClient, 'invalidateQueries');
    const project = {} as ProjectDetail;

    settle({ kind: 'finished', id: 'u1', projectPath: 'ws/survey', project });
    expect(await screen.findByText('Upload finished: ws/survey')).toBeInTheDocument();
    expect(invalidate).toHaveBeenCalledWith({ queryKey: ['projects', 'detail', 'ws', 'survey'] });
    expect(invalidate).toHaveBeenCalledWith({ queryKey: ['auth', 'profile'] });

    settle({ kind: 'updated', id: 'u2', projectPath: 'ws/survey', project });
    expect(await screen.findByText('Project updated')).toBeInTheDocument();

    settle({ kind: 'cancelled', id: 'u3', projectPath: 'ws/survey' });
    expect(await screen.findByText('Operation canceled by the user.')).toBeInTheDocument();

    settle({ kind: 'failed', id: 'u4', projectPath: 'ws/survey', error: 'Version mismatch' });
    expect(await screen.findByText('Version mismatch')).toBeInTheDocument();
  });
});
