import { describe, expect, it, vi } from 'vitest';
import type { ProjectDetail, ProjectFile } from '@contract/projects';
import type { ChosenFile } from '../../model/selection';
import type { PushPlan } from '../../model/plan';
import { createPendingUploads, type PendingUploadsDeps } from './pendingUploads';

const file = (path: string, checksum: string, size = 4): ProjectFile => ({
  path,
  checksum,
  size,
  mtime: '2026-01-01T00:00:00Z',
});

const project = (version: string, files: ProjectFile[]): ProjectDetail =>
  ({ id: 'p-1', namespace: 'ws', name: 'survey', version, files }) as ProjectDetail;

const chosen = (relativePath: string, text: string): ChosenFile => ({
  relativePath,
  file: new Blob([text]),
  size: text.length,
  lastModified: 0,
});

/** Checksums are the text itself, so tests read what was hashed. */
function setup(latest: ProjectDetail, overrides: Partial<PendingUploadsDeps> = {}) {
  let ids = 0;
  const notify = vi.fn();
  const plans: PushPlan[] = [];
  const deps: PendingUploadsDeps = {
    sha1: vi.fn(async (blob: Blob, options) => {
      options?.onProgress?.(blob.size, blob.size);
      return blob.text();
    }),
    fetchLatest: vi.fn(async () => latest),
    enqueue: vi.fn(async (plan: PushPlan) => {
      plans.push(plan);
      return 'upload-1';
    }),
    cancel: vi.fn(async () => undefined),
    randomId: () => `uuid-${++ids}`,
    notify,
    isOnline: () => true,
    isNetworkError: () => false,
    dropStaged: vi.fn(),
    spaceRefusal: vi.fn(async () => null),
    ...overrides,
  };
  const store = createPendingUploads(deps, { noChanges: 'NO CHANGES', cancelled: 'CANCELLED' });
  return { store, deps, notify, plans };
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

/** Waits until every chosen file of ws/survey has its checksum. */
async function analysed(store: ReturnType<typeof setup>['store']): Promise<void> {
  await vi.waitFor(
    () => {
      const files = [...(store.get('ws/survey')?.files.values() ?? [])];
      expect(files.filter((f) => f.checksum === null)).toEqual([]);
      expect(store.get('ws/survey')?.analysing).toEqual({});
    },
    { timeout: 60_000 },
  );
}

describe('pending uploads', () => {
  const viewed = project('v1', [file('survey.gpkg', 'gpkg1'), file('notes.txt', 'note')]);

  it('analyses chosen files in the worker and hands the plan to the engine', async () => {
    const { store, plans, deps } = setup(viewed);
    store.choose(viewed, [chosen('notes.txt', 'new notes'), chosen('a.csv', 'x,y')], '', undefined);
    await analysed(store);
    expect(deps.sha1).toHaveBeenCalledTimes(2);
    store.remove(viewed, 'survey.gpkg', false);
    expect(await store.prepare('ws/survey')).toEqual({ kind: 'started' });
    // One plan: the push request's body as it goes on the wire, chunk ids and push id made.
    // uuid-1 and uuid-2 name the staged copies written while hashing.
    expect(plans[0]).toEqual({
      pushId: 'uuid-3',
      projectId: 'p-1',
      namespace: 'ws',
      name: 'survey',
      body: {
        version: 'v1',
        changes: {
          added: [
            {
              path: 'a.csv',
              checksum: 'x,y',
              size: 3,
              mtime: expect.any(String),
              chunks: ['uuid-4'],
            },
          ],
          updated: [
            {
              path: 'notes.txt',
              checksum: 'new notes',
              size: 9,
              mtime: expect.any(String),
              chunks: ['uuid-5'],
            },
          ],
          removed: [{ path: 'survey.gpkg', checksum: 'gpkg1', size: 4 }],
        },
      },
    });
    // The engine gets the staged copies, never the files to read again.
    const files = vi.mocked(deps.enqueue).mock.calls[0]?.[1];
    const staged = vi.mocked(deps.sha1).mock.calls.map(([, options]) => options?.stageAs);
    expect(new Set(staged)).toEqual(new Set(['uuid-1', 'uuid-2']));
    expect([...(files ?? [])].sort(([a], [b]) => a.localeCompare(b))).toEqual([
      ['a.csv', { fileId: expect.stringMatching(/^uuid-[12]$/) }],
      ['notes.txt', { fileId: expect.stringMatching(/^uuid-[12]$/) }],
    ]);
    expect(vi.mocked(deps.enqueue).mock.calls[0]?.[2]).toEqual({});
    expect(store.get('ws/survey')?.uploadId).toBe('upload-1');
    store.settled('upload-1');
    expect(store.get('ws/survey')).toBeUndefined();
  });

  it("discards an identical re-upload with 'No changes detected'", async () => {
    const { store, notify } = setup(viewed);
    store.choose(viewed, [chosen('notes.txt', 'note')], '');
    await vi.waitFor(() => expect(store.get('ws/survey')).toBeUndefined(), { timeout: 60_000 });
    expect(notify).toHaveBeenCalledWith('info', 'NO CHANGES');
  });

  it('asks before replacing a versioned file changed on the server, else rebases silently', async () => {
    const latest = project('v2', [file('survey.gpkg', 'gpkg2'), file('notes.txt', 'note')]);
    const { store, plans } = setup(latest);
    store.choose(viewed, [chosen('survey.gpkg', 'mine')], '');
    await analysed(store);
    const result = await store.prepare('ws/survey');
    expect(result).toMatchObject({ kind: 'conflict', paths: ['survey.gpkg'] });
    expect(plans).toHaveLength(0);
    store.abortStart('ws/survey');
    expect(store.get('ws/survey')?.starting).toBe(false);
    if (result.kind !== 'conflict') throw new Error('expected a conflict');
    await store.overwrite('ws/survey', result.latest);
    expect(plans[0]?.body).toMatchObject({
      version: 'v2',
      changes: { updated: [{ path: 'survey.gpkg' }] },
    });
  });

  it('pushes on the latest version when only other files changed there', async () => {
    const latest = project('v2', [file('survey.gpkg', 'gpkg1'), file('other.txt', 'o')]);
    const { store, plans } = setup(latest);
    store.choose(viewed, [chosen('notes.txt', 'mine')], '');
    await analysed(store);
    expect(await store.prepare('ws/survey')).toEqual({ kind: 'started' });
    // notes.txt is gone on the server: it is added again.
    expect(plans[0]?.body).toMatchObject({
      version: 'v2',
      changes: { added: [{ path: 'notes.txt' }] },
    });
  });

  it('closing the panel cancels the analysis, or the engine upload', async () => {
    let release: (value: string) => void = () => undefined;
    const { store, notify, deps } = setup(viewed, {
      sha1: vi.fn(
        (_blob: Blob, options) =>
          new Promise<string>((resolve, reject) => {
            release = resolve;
            options?.signal?.addEventListener('abort', () => reject(new Error('aborted')));
          }),
      ),
    });
    store.choose(viewed, [chosen('a.csv', 'x')], '');
    store.discard('ws/survey');
    expect(store.get('ws/survey')).toBeUndefined();
    expect(notify).toHaveBeenCalledWith('error', 'CANCELLED');
    release('x');
    await settle();
    expect(store.get('ws/survey')).toBeUndefined();

    const second = setup(viewed);
    second.store.remove(viewed, 'notes.txt', false);
    await second.store.prepare('ws/survey');
    second.store.discard('ws/survey');
    expect(second.deps.cancel).toHaveBeenCalledWith('upload-1');
    expect(deps.cancel).not.toHaveBeenCalled();
  });

  it('reports a failure to read the latest version and keeps the changes', async () => {
    const { store, notify } = setup(viewed, {
      fetchLatest: vi.fn(async () => {
        throw new Error('Failed to load project data');
      }),
    });
    store.remove(viewed, 'notes.txt', false);
    expect(await store.prepare('ws/survey')).toEqual({ kind: 'failed' });
    expect(notify).toHaveBeenCalledWith('error', 'Failed to load project data');
    expect(store.get('ws/survey')?.starting).toBe(false);
  });

  it('forgets the pending upload when the engine settles it before enqueue resolves', async () => {
    const { store } = setup(viewed, {
      enqueue: vi.fn(async () => {
        store.settled('fast-1');
        return 'fast-1';
      }),
    });
    store.remove(viewed, 'notes.txt', false);
    expect(await store.prepare('ws/survey')).toEqual({ kind: 'started' });
    expect(store.get('ws/survey')).toBeUndefined();
  });

  it('offline: queues the plan against the viewed version with what a rebase needs', async () => {
    const { store, plans, deps } = setup(viewed, { isOnline: () => false });
    store.choose(viewed, [chosen('notes.txt', 'new notes'), chosen('a.csv', 'x,y')], '', undefined);
    await analysed(store);
    store.remove(viewed, 'survey.gpkg', false);
    expect(await store.prepare('ws/survey', 'martin')).toEqual({ kind: 'queued' });
    expect(deps.fetchLatest).not.toHaveBeenCalled();
    expect(plans[0]?.body.version).toBe('v1');
    expect(plans[0]?.body.changes.removed).toEqual([
      { path: 'survey.gpkg', checksum: 'gpkg1', size: 4 },
    ]);
    expect(vi.mocked(deps.enqueue).mock.calls[0]?.[2]).toEqual({
      offline: {
        username: 'martin',
        baseFiles: [
          { path: 'survey.gpkg', size: 4, checksum: 'gpkg1' },
          { path: 'notes.txt', size: 4, checksum: 'note' },
        ],
      },
    });
    expect(store.get('ws/survey')?.uploadId).toBe('upload-1');
  });

  it('queues offline too when the server cannot be reached', async () => {
    const { store, plans, deps } = setup(viewed, {
      fetchLatest: vi.fn(async () => {
        throw new Error('unreachable');
      }),
      isNetworkError: (error) => error instanceof Error && error.message === 'unreachable',
    });
    store.choose(viewed, [chosen('a.csv', 'x,y')], '', undefined);
    await analysed(store);
    expect(await store.prepare('ws/survey', 'martin')).toEqual({ kind: 'queued' });
    expect(deps.fetchLatest).toHaveBeenCalledTimes(1);
    expect(plans[0]?.body.version).toBe('v1');
  });

  it('refuses chosen files the device has no space for, before anything is copied', async () => {
    const { store, deps, notify } = setup(viewed, {
      spaceRefusal: vi.fn(async (bytes: number) => (bytes > 5 ? `NO SPACE ${bytes}` : null)),
    });
    store.choose(viewed, [chosen('notes.txt', 'new notes')], '', undefined);
    await vi.waitFor(() => expect(notify).toHaveBeenCalledWith('error', 'NO SPACE 9'), {
      timeout: 30_000,
    });
    expect(deps.sha1).not.toHaveBeenCalled();
    expect(store.get('ws/survey')).toBeUndefined();
  });

  it('removes staged copies no plan sends: a replaced file, a discarded upload', async () => {
    const { store, deps } = setup(viewed);
    store.choose(viewed, [chosen('a.csv', 'one')], '', undefined);
    await analysed(store);
    const first = store.get('ws/survey')?.files.get('a.csv')?.fileId;
    expect(first).toBeDefined();
    store.choose(viewed, [chosen('a.csv', 'two')], '', undefined);
    expect(deps.dropStaged).toHaveBeenCalledWith([first]);
    await analysed(store);
    const second = store.get('ws/survey')?.files.get('a.csv')?.fileId;
    store.discard('ws/survey');
    expect(deps.dropStaged).toHaveBeenLastCalledWith([second]);
  });
});
