/**
 * A queued batch as the edits call sends it (`@contract/edits`): its rows as changes in the
 * order they were first saved, the photos with their uploaded chunks, and the base version.
 */
import type { EditBatch as EditBatchBody, EditChange } from '@contract/edits';
import { versionNumber } from '@contract/protocol';
import type { FeatureEdit, UploadedPhoto } from '@/db/editQueue';

/**
 * The batch's base: the latest version any of its rows was seen at. Each update also carries
 * the values it saw (`old`), which the server compares with instead of the base's row, so a row
 * seen at an earlier version is still checked against what was seen.
 */
export function baseVersionOf(rows: readonly FeatureEdit[]): string {
  let best = rows[0]?.baseVersion ?? 'v0';
  for (const row of rows) {
    if (versionNumber(row.baseVersion) > versionNumber(best)) best = row.baseVersion;
  }
  return best;
}

export function changeOf(row: FeatureEdit): EditChange {
  const change: EditChange = {
    id: row.id,
    file: row.file,
    layer: row.layer,
    op: row.kind,
    fid: row.fid,
  };
  if (row.kind === 'insert') {
    change.values = row.values;
    change.geometry = (row.geometry ?? null) as EditChange['geometry'];
  } else if (row.kind === 'update') {
    change.values = row.values;
    change.old = row.before;
    if (row.geometry !== undefined) change.geometry = row.geometry as EditChange['geometry'];
  }
  return change;
}

export function batchBody(
  rows: readonly FeatureEdit[],
  photos: Readonly<Record<string, UploadedPhoto>>,
): EditBatchBody {
  const body: EditBatchBody = {
    base_version: baseVersionOf(rows),
    changes: rows.map(changeOf),
  };
  const listed = Object.entries(photos).map(([path, photo]) => ({
    path,
    size: photo.size,
    checksum: photo.checksum,
    chunks: photo.chunks,
  }));
  if (listed.length > 0) body.photos = listed;
  return body;
}
