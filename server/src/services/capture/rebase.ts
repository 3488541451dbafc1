/**
 * The rebase rule of the desktop plugin's geodiff (geodiff/src/geodiffrebase.cpp,
 * `_handle_update`), for one updated feature: per changed column, with `base` the value
 * the client edited, `theirs` the latest version's value and `ours` the client's new one:
 *
 * - ours equals theirs: both sides made the same change: nothing to write, no conflict;
 * - theirs equals base: only we changed it: ours is written;
 * - else both changed it differently: ours is written (geodiff keeps the rebased change),
 *   and a conflict records base, theirs and ours.
 *
 * The other cases of geodiff's rebase (an update of a deleted row, a delete of a deleted
 * row, an insert whose fid is taken) are handled where the rows are (apply-edits.ts).
 */

export interface ConflictItem {
  /** The column's position in the table. */
  column: number;
  base: unknown;
  theirs: unknown;
  ours: unknown;
}

export interface ColumnChange extends ConflictItem {
  name: string;
}

/** SQLite values compared as geodiff compares them (integers and reals by value, blobs by bytes). */
export function sameValue(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (a === null || b === null || a === undefined || b === undefined) return false;
  if (a instanceof Uint8Array && b instanceof Uint8Array) return Buffer.from(a).equals(b);
  if (
    (typeof a === 'bigint' || typeof a === 'number') &&
    (typeof b === 'bigint' || typeof b === 'number')
  ) {
    return Number(a) === Number(b);
  }
  return false;
}

/** Which of our column changes to write, and which conflict. */
export function rebaseUpdate(changes: ColumnChange[]): {
  apply: ColumnChange[];
  conflicts: ColumnChange[];
} {
  const apply: ColumnChange[] = [];
  const conflicts: ColumnChange[] = [];
  for (const change of changes) {
    if (sameValue(change.ours, change.theirs)) continue;
    apply.push(change);
    if (!sameValue(change.base, change.theirs)) conflicts.push(change);
  }
  return { apply, conflicts };
}
