/**
 * How saves become queued row changes (issue 34; docs/decisions/0119-edit-queue.md).
 * Pure: the store (store/editStore.ts) reads the open row of a feature, asks `mergeSave` what to
 * write, and writes it in the same IndexedDB transaction.
 *
 * One open row per feature holds its net change since it was first edited on this device:
 * - a new feature: an insert (a later edit changes the insert; a delete drops it, photos too);
 * - an existing one: an update of the changed columns with their values as first seen (a later
 *   edit merges in; a column set back to what it was drops out; nothing left drops the row),
 *   or a delete (of a feature with an open update: the delete, with the values first seen).
 * A row already sent in a batch is never changed: a save of that feature starts a new open row.
 * All open rows of a project go out together as one batch, so several saves make one version.
 */
import type { EditGeometry, EditValue, FeatureEdit } from '@/db/editQueue';

/** What one press of 'Save' (or 'Delete feature') asks for. */
export type Save =
  | {
      kind: 'insert';
      layer: string;
      values: Record<string, EditValue>;
      geometry: EditGeometry | null;
    }
  | {
      kind: 'update';
      layer: string;
      fid: number;
      /** The columns changed by this save, with their new values. */
      values: Record<string, EditValue>;
      /** The same columns' values as the form showed them before the save. */
      before: Record<string, EditValue>;
      /** Set when the geometry was moved. */
      geometry?: EditGeometry | null;
      /** The geometry as shown (drawn while the change is queued). */
      display?: EditGeometry | null;
    }
  | {
      kind: 'delete';
      layer: string;
      fid: number;
      /** The feature's values as shown (kept with the delete). */
      before: Record<string, EditValue>;
      /** The geometry as shown (drawn while the delete is queued). */
      display?: EditGeometry | null;
    };

/** Where a save goes and when. */
export interface SaveContext {
  projectPath: string;
  projectId: string;
  file: string;
  /** The version the feature was seen at. */
  version: string;
  now: number;
  newId: () => string;
  /** For an insert: the local (negative) fid to give the new feature. */
  localFid: () => number;
  /** The photos the save added: their project paths. */
  photos: readonly string[];
}

/** What to write: the row to put (or null), the row to remove, photo paths no longer needed. */
export interface MergeResult {
  put: FeatureEdit | null;
  remove: string | null;
  dropPhotos: string[];
}

export const DELETED_FEATURE_MESSAGE = 'This feature was deleted on this device';

const sameValue = (a: EditValue | undefined, b: EditValue | undefined) =>
  a === b || (a === undefined && b === null) || (a === null && b === undefined);

/** The photo paths among `candidates` that the row's values still name. */
function referenced(values: Record<string, EditValue>, candidates: readonly string[]): string[] {
  const named = new Set(Object.values(values).filter((v): v is string => typeof v === 'string'));
  return [...new Set(candidates)].filter((path) => named.has(path));
}

/**
 * The row a save makes of the feature's open row (`open`, undefined when it has none). Throws
 * for a save of a feature deleted on this device.
 */
export function mergeSave(
  open: FeatureEdit | undefined,
  save: Save,
  context: SaveContext,
): MergeResult {
  const base = {
    projectPath: context.projectPath,
    projectId: context.projectId,
    file: context.file,
    layer: save.layer,
    baseVersion: context.version,
    batchId: null,
    createdAt: context.now,
    updatedAt: context.now,
  };
  if (open?.kind === 'delete') throw new Error(DELETED_FEATURE_MESSAGE);

  if (save.kind === 'insert') {
    const values = { ...save.values };
    const photos = referenced(values, context.photos);
    return {
      put: {
        ...base,
        id: context.newId(),
        kind: 'insert',
        fid: context.localFid(),
        values,
        before: {},
        geometry: save.geometry,
        display: save.geometry,
        photos,
      },
      remove: null,
      dropPhotos: context.photos.filter((path) => !photos.includes(path)),
    };
  }

  if (save.kind === 'delete') {
    if (open?.kind === 'insert') {
      // Added and deleted on this device: nothing to send.
      return { put: null, remove: open.id, dropPhotos: open.photos };
    }
    const before = { ...save.before, ...(open?.before ?? {}) };
    return {
      put: {
        ...base,
        ...(open ? { baseVersion: open.baseVersion, createdAt: open.createdAt } : {}),
        id: open?.id ?? context.newId(),
        kind: 'delete',
        fid: save.fid,
        values: {},
        before,
        display: open?.display ?? save.display ?? null,
        photos: [],
      },
      remove: null,
      dropPhotos: open?.photos ?? [],
    };
  }

  // An update.
  if (open?.kind === 'insert') {
    const values = { ...open.values, ...save.values };
    const candidates = [...open.photos, ...context.photos];
    const photos = referenced(values, candidates);
    return {
      put: {
        ...open,
        values,
        geometry: save.geometry !== undefined ? save.geometry : open.geometry,
        display: save.geometry !== undefined ? save.geometry : open.display,
        photos,
        updatedAt: context.now,
      },
      remove: null,
      dropPhotos: candidates.filter((path) => !photos.includes(path)),
    };
  }
  const before: Record<string, EditValue> = { ...(open?.before ?? {}) };
  for (const [name, value] of Object.entries(save.before)) {
    if (!(name in before)) before[name] = value;
  }
  const merged = { ...(open?.values ?? {}), ...save.values };
  // A column set back to what it was is no change.
  const values = Object.fromEntries(
    Object.entries(merged).filter(([name, value]) => !sameValue(value, before[name])),
  );
  for (const name of Object.keys(before)) if (!(name in values)) delete before[name];
  const geometry = save.geometry !== undefined ? save.geometry : open?.geometry;
  const candidates = [...(open?.photos ?? []), ...context.photos];
  const photos = referenced(values, candidates);
  const dropPhotos = candidates.filter((path) => !photos.includes(path));
  if (Object.keys(values).length === 0 && geometry === undefined) {
    return { put: null, remove: open?.id ?? null, dropPhotos };
  }
  return {
    put: {
      ...base,
      ...(open ? { baseVersion: open.baseVersion, createdAt: open.createdAt } : {}),
      id: open?.id ?? context.newId(),
      kind: 'update',
      fid: save.fid,
      values,
      before,
      ...(geometry !== undefined ? { geometry } : {}),
      display: geometry !== undefined ? geometry : (open?.display ?? save.display ?? null),
      photos,
    },
    remove: null,
    dropPhotos,
  };
}

/** Counts of a project's queued rows, as the Outbox lists them. */
export interface EditCounts {
  added: number;
  changed: number;
  deleted: number;
  photos: number;
}

export function countEdits(rows: readonly FeatureEdit[]): EditCounts {
  return {
    added: rows.filter((row) => row.kind === 'insert').length,
    changed: rows.filter((row) => row.kind === 'update').length,
    deleted: rows.filter((row) => row.kind === 'delete').length,
    photos: rows.reduce((sum, row) => sum + row.photos.length, 0),
  };
}

const plural = (count: number, one: string, many: string) => `${count} ${count === 1 ? one : many}`;

/** '2 features added · 1 changed · 1 deleted · 1 photo' (parts with 0 left out). */
export function describeEdits(counts: EditCounts): string {
  const parts: string[] = [];
  if (counts.added > 0) parts.push(`${plural(counts.added, 'feature', 'features')} added`);
  if (counts.changed > 0) parts.push(`${plural(counts.changed, 'feature', 'features')} changed`);
  if (counts.deleted > 0) parts.push(`${plural(counts.deleted, 'feature', 'features')} deleted`);
  if (counts.photos > 0) parts.push(plural(counts.photos, 'photo', 'photos'));
  return parts.join(' · ');
}

/**
 * After a batch landed: the fids the server gave the batch's new features, applied to rows
 * still queued that refer to them by their local fid (edited again while the batch was in
 * flight). Answers the rows that changed.
 */
export function renumber(
  rows: readonly FeatureEdit[],
  given: ReadonlyArray<{ layer: string; file: string; localFid: number; fid: number }>,
): FeatureEdit[] {
  const changed: FeatureEdit[] = [];
  for (const row of rows) {
    const match = given.find(
      (g) => g.layer === row.layer && g.file === row.file && g.localFid === row.fid,
    );
    if (match) changed.push({ ...row, fid: match.fid });
  }
  return changed;
}
