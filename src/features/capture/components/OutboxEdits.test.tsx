import { render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { loadDb } from '@/db/lazy';
import { Providers, createTestQueryClient, testUser } from '@/test/render';
import { nextBatch, refuseBatch, saveEdit } from '../store/editStore';
import { OutboxEdits } from './OutboxEdits';

// The page's sender is not started here: the test plays the server's refusal itself.
const sync = vi.hoisted(() => ({ wake: vi.fn() }));
vi.mock('../sync/instance', () => ({
  startEditSync: () => undefined,
  wakeEditSync: sync.wake,
  useEditSyncStates: () => new Map(),
}));

const target = { projectPath: 'ws/trees', projectId: 'p1', file: 'survey.gpkg', version: 'v2' };
const REFUSAL = 'The layer trees has no column name';

/** Two saves of ws/trees (a tree added with a photo, another's name changed), refused. */
async function refusedEdits() {
  const db = await loadDb();
  await saveEdit(
    db,
    target,
    {
      kind: 'insert',
      layer: 'trees',
      values: { name: 'Ash', photo: 'photos/ash.jpg' },
      geometry: { type: 'Point', coordinates: [21, 52] },
    },
    [{ path: 'photos/ash.jpg', blob: new Blob(['jpeg']) }],
  );
  await saveEdit(db, target, {
    kind: 'update',
    layer: 'trees',
    fid: 3,
    values: { name: 'Elm' },
    before: { name: 'Plane' },
    display: null,
  });
  const batch = (await nextBatch(db, target.projectPath))!;
  await refuseBatch(db, batch.id, REFUSAL);
  return { db, batch };
}

afterEach(async () => {
  const db = await loadDb();
  await Promise.all([db.featureEdits.clear(), db.editPhotos.clear(), db.editBatches.clear()]);
  sync.wake.mockClear();
});

const wrap = () =>
  render(
    <Providers queryClient={createTestQueryClient()}>
      <OutboxEdits />
    </Providers>,
  );

describe('OutboxEdits', () => {
  it('lists a project’s queued edits and shows the server’s refusal with its message', async () => {
    await refusedEdits();
    wrap();
    const project = await screen.findByRole('listitem', { name: 'Edits of ws/trees' });
    expect(screen.getByRole('heading', { name: 'Field edits' })).toBeInTheDocument();
    expect(within(project).getByText('trees (new): added · photos/ash.jpg')).toBeInTheDocument();
    expect(within(project).getByText('trees 3: changed')).toBeInTheDocument();
    expect(within(project).getByRole('alert')).toHaveTextContent(`Refused: ${REFUSAL}`);
    expect(within(project).getByRole('button', { name: 'Try again' })).toBeInTheDocument();
  });

  it('‘Try again’ sends the refused edits again under a new id', async () => {
    const user = testUser();
    const { db, batch } = await refusedEdits();
    wrap();
    const project = await screen.findByRole('listitem', { name: 'Edits of ws/trees' });
    await user.click(within(project).getByRole('button', { name: 'Try again' }));
    await waitFor(() => expect(within(project).queryByRole('alert')).toBeNull());
    const [again] = await db.editBatches.toArray();
    expect(again).toMatchObject({ phase: 'sending', error: null, editIds: batch.editIds });
    expect(again!.id).not.toBe(batch.id);
    await waitFor(() => expect(sync.wake).toHaveBeenCalled());
  });

  it('‘Discard’ asks first, then deletes the refused edits and their photos', async () => {
    const user = testUser();
    const { db } = await refusedEdits();
    wrap();
    const project = await screen.findByRole('listitem', { name: 'Edits of ws/trees' });
    await user.click(within(project).getByRole('button', { name: 'Discard ws/trees' }));
    const dialog = await screen.findByRole('dialog', { name: 'Discard' });
    expect(dialog).toHaveTextContent('Discard the edits of ws/trees not sent yet?');
    // Nothing is deleted before the answer.
    expect(await db.featureEdits.count()).toBe(2);
    await user.click(within(dialog).getByRole('button', { name: 'Discard' }));
    await waitFor(() =>
      expect(screen.queryByRole('region', { name: 'Field edits' })).not.toBeInTheDocument(),
    );
    expect(await db.featureEdits.count()).toBe(0);
    expect(await db.editPhotos.count()).toBe(0);
    expect(await db.editBatches.count()).toBe(0);
  });
});
