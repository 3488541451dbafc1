/**
 * What the map and the attribute table show of a project's queued edits (issue 34): each
 * feature's pending change (added, changed, deleted) in one GeoPackage, the values to show
 * while it is queued, and which of the server's features the map must not draw (a queued
 * change draws them itself).
 */
import type { EditGeometry, EditValue, FeatureEdit } from '@/db/editQueue';

export type PendingKind = 'added' | 'changed' | 'deleted';

export const PENDING_LABELS: Record<PendingKind, string> = {
  added: 'Pending: added',
  changed: 'Pending: changed',
  deleted: 'Pending: deleted',
};

export interface PendingFeature {
  layer: string;
  fid: number;
  kind: PendingKind;
  /** The values to show: a new feature's, or the changed columns' new values. */
  values: Record<string, EditValue>;
  /** The geometry drawn (EPSG:4326), null when not known. */
  geometry: EditGeometry | null;
  /** The photos still on this device (paths). */
  photos: string[];
  /** The rows this is made of, oldest first (a change of a feature may be in two batches). */
  rows: FeatureEdit[];
}

const KIND: Record<FeatureEdit['kind'], PendingKind> = {
  insert: 'added',
  update: 'changed',
  delete: 'deleted',
};

/** The pending features of `file`, by `layer/fid`: later rows of a feature merged in. */
export function pendingFeatures(
  rows: readonly FeatureEdit[],
  file: string,
): Map<string, PendingFeature> {
  const features = new Map<string, PendingFeature>();
  const sorted = [...rows]
    .filter((row) => row.file === file)
    .sort((a, b) => a.createdAt - b.createdAt);
  for (const row of sorted) {
    const key = `${row.layer}/${row.fid}`;
    const known = features.get(key);
    if (!known) {
      features.set(key, {
        layer: row.layer,
        fid: row.fid,
        kind: KIND[row.kind],
        values: { ...row.values },
        geometry: row.display ?? null,
        photos: [...row.photos],
        rows: [row],
      });
      continue;
    }
    known.rows.push(row);
    known.photos.push(...row.photos);
    if (row.kind === 'delete') known.kind = 'deleted';
    known.values = { ...known.values, ...row.values };
    if (row.display !== undefined && row.display !== null) known.geometry = row.display;
  }
  return features;
}

export const pendingKey = (layer: string, fid: number) => `${layer}/${fid}`;
