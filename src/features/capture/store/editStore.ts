/**
 * The field edit queue in IndexedDB (issue 34; stores of src/db/editQueue.ts): each save is
 * written in one transaction before the call resolves (a tab closed a second later loses
 * nothing), batches are made of a project's open rows and removed only when the server
 * confirmed their version. The merge rules are model/queue.ts.
 */
import type { QueuedBatch, QueuedPhoto, FeatureEdit, WaymarkDatabase } from '@/db/db';
import { mergeSave, renumber, type Save } from '../model/queue';

export interface SaveTarget {
  projectPath: string;
  projectId: string;
  file: string;
  /** The version the feature was seen at. */
  version: string;
}

export interface Clock {
  now: () => number;
  newId: () => string;
}

const defaultClock: Clock = { now: () => Date.now(), newId: () => crypto.randomUUID() };

/** The rows of a project (all of them: open, in a batch, refused), oldest first. */
export async function projectEdits(
  db: WaymarkDatabase,
  projectPath: string,
): Promise<FeatureEdit[]> {
  const rows = await db.featureEdits.where('projectPath').equals(projectPath).toArray();
  return rows.sort((a, b) => a.createdAt - b.createdAt);
}

/** The open row of a feature (not in a batch), if any. */
function openRowOf(rows: readonly FeatureEdit[], file: string, layer: string, fid: number) {
  return rows.find(
    (row) => row.batchId === null && row.file === file && row.layer === layer && row.fid === fid,
  );
}

/**
 * Records a save: merges it into the feature's open row and stores the photos it added, all in
 * one transaction. Answers the row as stored (null when the save left nothing to send).
 */
export async function saveEdit(
  db: WaymarkDatabase,
  target: SaveTarget,
  save: Save,
  photos: ReadonlyArray<{ path: string; blob: Blob }> = [],
  clock: Clock = defaultClock,
): Promise<FeatureEdit | null> {
  return db.transaction('rw', db.featureEdits, db.editPhotos, async () => {
    const rows = await db.featureEdits.where('projectPath').equals(target.projectPath).toArray();
    const open =
      save.kind === 'insert' ? undefined : openRowOf(rows, target.file, save.layer, save.fid);
    // A new feature's local fid: below every fid this device gave in the layer.
    const lowest = Math.min(
      0,
      ...rows.filter((r) => r.file === target.file && r.layer === save.layer).map((r) => r.fid),
    );
    // Saves keep their order: two in the same millisecond still get distinct, rising times
    // (the batch lists rows by createdAt, and ties would fall back to the random ids).
    const now = rows.reduce((at, row) => Math.max(at, row.createdAt + 1), clock.now());
    const result = mergeSave(open, save, {
      projectPath: target.projectPath,
      projectId: target.projectId,
      file: target.file,
      version: target.version,
      now,
      newId: clock.newId,
      localFid: () => lowest - 1,
      photos: photos.map((photo) => photo.path),
    });
    if (result.remove) await db.featureEdits.delete(result.remove);
    if (result.put) {
      await db.featureEdits.put(result.put);
      const kept = photos.filter((photo) => result.put?.photos.includes(photo.path));
      await db.editPhotos.bulkPut(
        kept.map((photo): QueuedPhoto => ({
          projectPath: target.projectPath,
          path: photo.path,
          blob: photo.blob,
          editId: result.put?.id as string,
          at: now,
        })),
      );
    }
    const dropped = result.dropPhotos.filter(
      (path) => !photos.some((photo) => photo.path === path),
    );
    if (dropped.length > 0) {
      await db.editPhotos.bulkDelete(dropped.map((path) => [target.projectPath, path]));
    }
    return result.put;
  });
}

/** The bytes of a queued photo (for its thumbnail and its upload), if still queued. */
export async function queuedPhoto(
  db: WaymarkDatabase,
  projectPath: string,
  path: string,
): Promise<Blob | undefined> {
  return (await db.editPhotos.get([projectPath, path]))?.blob;
}

/** The project's batch in flight or refused, if any (at most one per project). */
export async function currentBatch(
  db: WaymarkDatabase,
  projectPath: string,
): Promise<QueuedBatch | undefined> {
  const batches = await db.editBatches.where('projectPath').equals(projectPath).toArray();
  return batches.sort((a, b) => a.createdAt - b.createdAt)[0];
}

/**
 * The batch to send for a project: the one in flight (resumed with the same id, so the server
 * answers a repeat with its first outcome), else a new one of every open row; undefined when
 * there is nothing to send or the project's batch was refused (it waits for the user).
 */
export async function nextBatch(
  db: WaymarkDatabase,
  projectPath: string,
  clock: Clock = defaultClock,
): Promise<QueuedBatch | undefined> {
  return db.transaction('rw', db.featureEdits, db.editBatches, async () => {
    const existing = await currentBatch(db, projectPath);
    if (existing) return existing.phase === 'sending' ? existing : undefined;
    const open = (await projectEdits(db, projectPath)).filter((row) => row.batchId === null);
    if (open.length === 0) return undefined;
    const now = clock.now();
    const batch: QueuedBatch = {
      id: clock.newId(),
      projectPath,
      projectId: (open[0] as FeatureEdit).projectId,
      editIds: open.map((row) => row.id),
      photoChunks: {},
      phase: 'sending',
      error: null,
      createdAt: now,
      updatedAt: now,
    };
    await db.editBatches.add(batch);
    await db.featureEdits.bulkPut(open.map((row) => ({ ...row, batchId: batch.id })));
    return batch;
  });
}

/** A batch's rows and their photos, in order. */
export async function batchContents(
  db: WaymarkDatabase,
  batch: QueuedBatch,
): Promise<{ rows: FeatureEdit[]; photos: QueuedPhoto[] }> {
  const rows = (await db.featureEdits.bulkGet(batch.editIds)).filter(
    (row): row is FeatureEdit => row !== undefined,
  );
  const paths = rows.flatMap((row) => row.photos);
  const photos = (
    await db.editPhotos.bulkGet(paths.map((path) => [batch.projectPath, path] as [string, string]))
  ).filter((photo): photo is QueuedPhoto => photo !== undefined);
  return { rows, photos };
}

/**
 * The server confirmed the batch: its rows and photos go, and rows queued since that name one
 * of its new features by the local fid get the fid the server gave it.
 */
export async function finishBatch(
  db: WaymarkDatabase,
  batch: QueuedBatch,
  fids: ReadonlyArray<{ file: string; layer: string; localFid: number; fid: number }>,
): Promise<void> {
  await db.transaction('rw', db.featureEdits, db.editPhotos, db.editBatches, async () => {
    const rows = (await db.featureEdits.bulkGet(batch.editIds)).filter(
      (row): row is FeatureEdit => row !== undefined,
    );
    await db.editPhotos.bulkDelete(
      rows.flatMap((row) =>
        row.photos.map((path) => [batch.projectPath, path] as [string, string]),
      ),
    );
    await db.featureEdits.bulkDelete(batch.editIds);
    await db.editBatches.delete(batch.id);
    const rest = await projectEdits(db, batch.projectPath);
    const renumbered = renumber(rest, fids);
    if (renumbered.length > 0) await db.featureEdits.bulkPut(renumbered);
  });
}

/** Photos uploaded as chunks for the batch (kept, so a resumed batch uploads only the rest). */
export async function recordPhotoChunks(
  db: WaymarkDatabase,
  batchId: string,
  photoChunks: QueuedBatch['photoChunks'],
): Promise<void> {
  await db.editBatches.update(batchId, { photoChunks, updatedAt: Date.now() });
}

/** The server refused the batch: it stays, with the server's message, until the user acts. */
export async function refuseBatch(db: WaymarkDatabase, batchId: string, message: string) {
  await db.editBatches.update(batchId, { phase: 'refused', error: message, updatedAt: Date.now() });
}

/** 'Try again': the refused batch is sent again under a new id (a new attempt, not a repeat). */
export async function retryBatch(
  db: WaymarkDatabase,
  batchId: string,
  clock: Clock = defaultClock,
): Promise<void> {
  await db.transaction('rw', db.featureEdits, db.editBatches, async () => {
    const batch = await db.editBatches.get(batchId);
    if (!batch) return;
    const id = clock.newId();
    await db.editBatches.delete(batchId);
    await db.editBatches.add({
      ...batch,
      id,
      phase: 'sending',
      error: null,
      photoChunks: {},
      updatedAt: clock.now(),
    });
    const rows = (await db.featureEdits.bulkGet(batch.editIds)).filter(
      (row): row is FeatureEdit => row !== undefined,
    );
    await db.featureEdits.bulkPut(rows.map((row) => ({ ...row, batchId: id })));
  });
}

/** 'Discard': the user gives up a project's queued edits (a refused batch, or all of them). */
export async function discardEdits(
  db: WaymarkDatabase,
  projectPath: string,
  batchId?: string,
): Promise<void> {
  await db.transaction('rw', db.featureEdits, db.editPhotos, db.editBatches, async () => {
    const rows = (await projectEdits(db, projectPath)).filter(
      (row) => batchId === undefined || row.batchId === batchId,
    );
    await db.editPhotos.bulkDelete(
      rows.flatMap((row) => row.photos.map((path) => [projectPath, path] as [string, string])),
    );
    await db.featureEdits.bulkDelete(rows.map((row) => row.id));
    if (batchId !== undefined) await db.editBatches.delete(batchId);
    else await db.editBatches.where('projectPath').equals(projectPath).delete();
  });
}

/** The projects with queued edits ('namespace/name'), in the order of their oldest edit. */
export async function projectsWithEdits(db: WaymarkDatabase): Promise<string[]> {
  const rows = await db.featureEdits.orderBy('createdAt').toArray();
  return [...new Set(rows.map((row) => row.projectPath))];
}
