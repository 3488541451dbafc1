/**
 * GET /v2/projects/{id}/delta?since=vA[&to=vB] (api-reference §1.9, client-compat §6.2): the
 * net change of each file between versions A and B (B: the latest when not given), as the
 * python client's v2 pull reads it: `{"to_version": "vB", "items": [{path, size, checksum,
 * version, change, diffs}]}`, items by path.
 *
 * Per file, from its changes in A+1 … B (the first tells whether it existed at A, the last
 * whether it exists at B):
 * - absent at both ends (created and removed inside the range): no item;
 * - absent at A: `create`; absent at B: `delete` (size and checksum of the file as it last was);
 * - present at both ends: `update_diff` when every change was a diff update, with one diff
 *   id (the stored diff, or a merged one for several: diff-ids.ts), else `update` (pushed
 *   whole somewhere in the range, or removed and added again): the client downloads it whole.
 * `size`/`checksum` are the file's at B, `version` the version of its last change.
 * `diffs` is always a list (empty unless update_diff).
 *
 * Refusals (400): a version that is not `vN`, `to` past the latest version, `since` after
 * `to`. `since` equal to `to` answers no items.
 */
import type { AppContext } from '../../context';
import { lastChangesAt, listChanges, type ChangeRow } from '../../db/queries/pull';
import type { FileChange, User } from '../../db/schema';
import type { DeltaItem, DeltaQuery, ProjectDelta } from '../../schemas/pull';
import { versionNumber as numberOfVersion } from '../../schemas/protocol';

export type { DeltaItem, DeltaQuery, ProjectDelta };
import { badRequest } from '../../errors';
import { projectFor } from '../permissions';
import { mergedDiffId } from './diff-ids';

export const INVALID_VERSION = "Invalid version name, expected 'v' followed by a number";
export const TO_EXCEEDS_LATEST = "The 'to' parameter exceeds latest project version";
export const SINCE_AFTER_TO = "The 'since' parameter must not be greater than 'to'";

/** `vN` as N; Infinity for a well-formed number too large to be a version. */
function versionNumber(text: unknown): number {
  const n = typeof text === 'string' ? numberOfVersion(text) : Number.NaN;
  if (Number.isNaN(n)) throw badRequest(INVALID_VERSION);
  return Number.isSafeInteger(n) ? n : Infinity;
}

function itemOf(changes: ChangeRow[], before: ChangeRow | undefined): DeltaItem | null {
  const first = changes[0]!;
  const last = changes.at(-1)!;
  const existedBefore = first.change !== 'create';
  const existsAfter = last.change !== 'delete';
  if (!existedBefore && !existsAfter) return null;
  const item = (row: ChangeRow, change: FileChange, diffs: { id: string }[] = []): DeltaItem => ({
    path: last.path,
    size: row.size,
    checksum: row.checksum ?? '',
    version: `v${last.versionName}`,
    change,
    diffs,
  });
  if (!existedBefore) return item(last, 'create');
  if (!existsAfter) {
    const present = changes.findLast((row) => row.change !== 'delete') ?? before;
    return item(present ?? last, 'delete');
  }
  const diffs = changes.every((row) => row.change === 'update_diff' && row.diff !== null);
  if (!diffs) return item(last, 'update');
  const id =
    changes.length === 1
      ? changes[0]!.diff!.path
      : mergedDiffId(last.path, first.versionName, last.versionName);
  return item(last, 'update_diff', [{ id }]);
}

/** The delta of `projectId` for `caller` (read access, as downloads). */
export async function projectDelta(
  ctx: AppContext,
  caller: User | null,
  projectId: string,
  query: DeltaQuery,
): Promise<ProjectDelta> {
  const access = await projectFor(ctx, caller, { id: projectId }, 'read');
  const latest = access.project.latestVersion;
  const since = versionNumber(query.since);
  const to = query.to === undefined || query.to === '' ? latest : versionNumber(query.to);
  if (to > latest) throw badRequest(TO_EXCEEDS_LATEST);
  if (since > to) throw badRequest(SINCE_AFTER_TO);

  const db = ctx.database.db;
  const rows =
    since === to ? [] : await listChanges(db, access.project.id, { after: since, upTo: to });
  const byPath = new Map<string, ChangeRow[]>();
  for (const row of rows) {
    const list = byPath.get(row.path);
    if (list) list.push(row);
    else byPath.set(row.path, [row]);
  }
  // Files removed by their only change in the range: their size and checksum from before.
  const removedOnly = [...byPath.values()]
    .filter((changes) => changes.every((row) => row.change === 'delete'))
    .map((changes) => changes[0]!.path);
  const before = await lastChangesAt(db, access.project.id, removedOnly, since);

  const items: DeltaItem[] = [];
  for (const [path, changes] of byPath) {
    const item = itemOf(changes, before.get(path));
    if (item) items.push(item);
  }
  return { to_version: `v${to}`, items };
}
