import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase, type WaymarkDatabase } from '@/db/db';
import {
  batchContents,
  currentBatch,
  discardEdits,
  finishBatch,
  nextBatch,
  projectEdits,
  projectsWithEdits,
  queuedPhoto,
  refuseBatch,
  retryBatch,
  saveEdit,
  type Clock,
} from './editStore';

let db: WaymarkDatabase;
let clock: Clock;
beforeEach(async () => {
  db = openDatabase(`edits-${Math.random()}`);
  await db.open();
  let tick = 0;
  let id = 0;
  clock = { now: () => ++tick, newId: () => `id-${++id}` };
});
afterEach(async () => {
  await db.delete();
});

const target = { projectPath: 'ws/trees', projectId: 'p1', file: 'survey.gpkg', version: 'v2' };
const point = { type: 'Point', coordinates: [14.4, 50.1] };
const photo = (path: string) => ({ path, blob: new Blob([path]) });

describe('the edit queue', () => {
  it('records each save at once; new features get local fids below the ones given', async () => {
    const first = await saveEdit(
      db,
      target,
      { kind: 'insert', layer: 'trees', values: { photo: 'photos/a.jpg' }, geometry: point },
      [photo('photos/a.jpg')],
      clock,
    );
    const second = await saveEdit(
      db,
      target,
      { kind: 'insert', layer: 'trees', values: {}, geometry: point },
      [],
      clock,
    );
    expect([first?.fid, second?.fid]).toEqual([-1, -2]);
    // (jsdom's Blobs come back from fake-indexeddb as plain objects.)
    expect(await queuedPhoto(db, 'ws/trees', 'photos/a.jpg')).toBeDefined();
    // Another layer counts on its own.
    const other = await saveEdit(
      db,
      target,
      { kind: 'insert', layer: 'zones', values: {}, geometry: null },
      [],
      clock,
    );
    expect(other?.fid).toBe(-1);
    expect(await projectEdits(db, 'ws/trees')).toHaveLength(3);
    expect(await projectsWithEdits(db)).toEqual(['ws/trees']);
  });

  it('merges later saves of a feature; a delete of a new one leaves nothing, photos included', async () => {
    const inserted = await saveEdit(
      db,
      target,
      { kind: 'insert', layer: 'trees', values: { photo: 'photos/a.jpg' }, geometry: point },
      [photo('photos/a.jpg')],
      clock,
    );
    await saveEdit(
      db,
      target,
      {
        kind: 'update',
        layer: 'trees',
        fid: -1,
        values: { photo: 'photos/b.jpg' },
        before: { photo: 'photos/a.jpg' },
      },
      [photo('photos/b.jpg')],
      clock,
    );
    const rows = await projectEdits(db, 'ws/trees');
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ id: inserted?.id, kind: 'insert', photos: ['photos/b.jpg'] });
    expect(await queuedPhoto(db, 'ws/trees', 'photos/a.jpg')).toBeUndefined();
    await saveEdit(db, target, { kind: 'delete', layer: 'trees', fid: -1, before: {} }, [], clock);
    expect(await projectEdits(db, 'ws/trees')).toEqual([]);
    expect(await db.editPhotos.count()).toBe(0);
  });

  it('a batch takes every open row; saves while it is in flight wait for the next one', async () => {
    await saveEdit(
      db,
      target,
      { kind: 'insert', layer: 'trees', values: {}, geometry: point },
      [],
      clock,
    );
    await saveEdit(
      db,
      target,
      { kind: 'update', layer: 'trees', fid: 5, values: { a: 1 }, before: { a: 0 } },
      [],
      clock,
    );
    await saveEdit(db, target, { kind: 'delete', layer: 'trees', fid: 6, before: {} }, [], clock);
    const batch = await nextBatch(db, 'ws/trees', clock);
    expect(batch?.editIds).toHaveLength(3);
    // Resumed with the same id (a reload, another attempt).
    expect((await nextBatch(db, 'ws/trees', clock))?.id).toBe(batch?.id);

    // The new feature edited while its insert is in flight: a new open row by its local fid.
    await saveEdit(
      db,
      target,
      { kind: 'update', layer: 'trees', fid: -1, values: { a: 2 }, before: { a: null } },
      [],
      clock,
    );
    const { rows } = await batchContents(db, batch!);
    expect(rows.map((row) => row.kind)).toEqual(['insert', 'update', 'delete']);

    await finishBatch(db, batch!, [{ file: 'survey.gpkg', layer: 'trees', localFid: -1, fid: 41 }]);
    const left = await projectEdits(db, 'ws/trees');
    expect(left).toHaveLength(1);
    expect(left[0]).toMatchObject({ kind: 'update', fid: 41, batchId: null });
    expect(await currentBatch(db, 'ws/trees')).toBeUndefined();
    const next = await nextBatch(db, 'ws/trees', clock);
    expect(next?.editIds).toEqual([left[0]!.id]);
  });

  it('saves in the same millisecond keep their order, whatever their ids', async () => {
    let id = 10;
    const still: Clock = { now: () => 1000, newId: () => `id-${--id}` };
    const saves = [
      { kind: 'insert', layer: 'trees', values: {}, geometry: point },
      { kind: 'update', layer: 'trees', fid: 2, values: { a: 1 }, before: { a: 0 } },
      { kind: 'insert', layer: 'zones', values: {}, geometry: null },
      { kind: 'delete', layer: 'trees', fid: 3, before: {} },
    ] as const;
    for (const save of saves) await saveEdit(db, target, save, [], still);
    const rows = await projectEdits(db, 'ws/trees');
    expect(rows.map((row) => [row.kind, row.layer])).toEqual([
      ['insert', 'trees'],
      ['update', 'trees'],
      ['insert', 'zones'],
      ['delete', 'trees'],
    ]);
    const batch = await nextBatch(db, 'ws/trees', still);
    const { rows: sent } = await batchContents(db, batch!);
    expect(sent.map((row) => row.kind)).toEqual(['insert', 'update', 'insert', 'delete']);
  });

  it('a refused batch stays with its message and blocks the project until retried or discarded', async () => {
    await saveEdit(
      db,
      target,
      { kind: 'update', layer: 'trees', fid: 5, values: { gone: 1 }, before: { gone: 0 } },
      [],
      clock,
    );
    const batch = (await nextBatch(db, 'ws/trees', clock))!;
    await refuseBatch(db, batch.id, 'The layer trees has no column gone');
    expect(await currentBatch(db, 'ws/trees')).toMatchObject({
      phase: 'refused',
      error: 'The layer trees has no column gone',
    });
    expect(await nextBatch(db, 'ws/trees', clock)).toBeUndefined();
    expect(await projectEdits(db, 'ws/trees')).toHaveLength(1);

    await retryBatch(db, batch.id, clock);
    const again = (await nextBatch(db, 'ws/trees', clock))!;
    expect(again.id).not.toBe(batch.id);
    expect(again.phase).toBe('sending');
    expect((await batchContents(db, again)).rows).toHaveLength(1);

    await refuseBatch(db, again.id, 'still');
    await discardEdits(db, 'ws/trees', again.id);
    expect(await projectEdits(db, 'ws/trees')).toEqual([]);
    expect(await currentBatch(db, 'ws/trees')).toBeUndefined();
  });
});
