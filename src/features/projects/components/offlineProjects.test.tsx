// The project list with the real offline copies (Dexie on fake-indexeddb): saved when the
// server answers, shown when it cannot be reached, and a clear message when never saved.
import { screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeServer, json } from '@/test/fakeServer';
import { renderWithRouter } from '@/test/render';
import { ProjectsList } from './ProjectsList';
import { offlineStatus } from '@/offline/offlineStatus';
import { NOT_SAVED_OFFLINE } from '@/offline/texts';

afterEach(() => {
  vi.unstubAllGlobals();
  offlineStatus.reset();
});

const unreachable = () => Promise.reject(new TypeError('Failed to fetch'));

function project(name: string) {
  return {
    id: `id-${name}`,
    name,
    namespace: 'field',
    version: 'v1',
    updated: new Date().toISOString(),
    disk_usage: 1024,
    tags: [],
    access: { owners: [1], writers: [1], readers: [1], public: true },
  };
}

describe('project lists offline', () => {
  it('show the copy saved last when the server cannot be reached', async () => {
    const scope = { kind: 'mine', workspaceName: 'field' } as const;
    fakeServer({
      'GET /v1/project/paginated': () => json({ projects: [project('ridge')], count: 1 }),
    });
    const online = await renderWithRouter(
      <ProjectsList title="My projects" scope={scope} onOpenProject={() => undefined} />,
    );
    expect(await screen.findByRole('link', { name: 'ridge' })).toBeInTheDocument();
    expect(offlineStatus.savedAt()).toBeNull();
    online.unmount();

    fakeServer({ 'GET /v1/project/paginated': unreachable });
    await renderWithRouter(
      <ProjectsList title="My projects" scope={scope} onOpenProject={() => undefined} />,
    );
    expect(await screen.findByRole('link', { name: 'ridge' })).toBeInTheDocument();
    expect(offlineStatus.savedAt()).not.toBeNull();
  });

  it('say the list was not saved when there is no copy', async () => {
    fakeServer({ 'GET /v1/project/paginated': unreachable });
    await renderWithRouter(
      <ProjectsList
        title="My projects"
        scope={{ kind: 'mine', workspaceName: 'never-opened' }}
        onOpenProject={() => undefined}
      />,
    );
    expect(await screen.findByRole('alert')).toHaveTextContent(NOT_SAVED_OFFLINE);
  });
});
