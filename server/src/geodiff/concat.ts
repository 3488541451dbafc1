/**
 * Concatenation of consecutive changesets into one that has the same effect, as geodiff's
 * concat_changes does it (its changesetconcat.cpp, itself modelled on SQLite's
 * sqlite3changegroup): per table and primary key, the row's changes are folded in order:
 *
 *   INSERT + UPDATE = INSERT with the updated values     INSERT + DELETE = nothing
 *   UPDATE + UPDATE = UPDATE from the first old values to the last new ones (nothing when
 *                     every column ends where it started)
 *   UPDATE + DELETE = DELETE with the original old values
 *   DELETE + INSERT = UPDATE from the deleted to the inserted values (nothing when equal)
 *
 * Sequences a consistent history cannot hold (INSERT + INSERT, UPDATE + INSERT,
 * DELETE + UPDATE, DELETE + DELETE) drop the row's recorded change, as geodiff does; they are
 * counted in `unsupported`. Tables come out in the order they first appear, rows in the
 * order their primary key first appears.
 */
import { ChangesetFormatError, type Change, type Changeset, type Value } from './format';

export interface ConcatResult {
  changeset: Changeset;
  /** Row changes dropped for an impossible sequence (see above). */
  unsupported: number;
}

const textEncoder = new TextEncoder();

/** A value as a string that is equal exactly when geodiff's Value comparison is. */
function valueKey(value: Value): string {
  if (value === undefined) return 'u';
  if (value === null) return 'n';
  if (typeof value === 'bigint') return `i${value}`;
  if (typeof value === 'number') {
    const bytes = new Uint8Array(8);
    new DataView(bytes.buffer).setFloat64(0, value, false);
    return `r${Buffer.from(bytes).toString('hex')}`;
  }
  if (typeof value === 'string')
    return `t${Buffer.from(textEncoder.encode(value)).toString('hex')}`;
  return `b${Buffer.from(value).toString('hex')}`;
}

const same = (a: Value, b: Value) => valueKey(a) === valueKey(b);

function rowKey(pk: boolean[], change: Change): string {
  const record = change.op === 'insert' ? change.new! : change.old!;
  const parts: string[] = [];
  pk.forEach((isKey, i) => {
    if (isKey) parts.push(valueKey(record[i]));
  });
  return parts.join('\u0000');
}

/** geodiff's mergeValue: the second value unless it is undefined. */
const mergeValue = (one: Value, two: Value): Value => (two !== undefined ? two : one);

/**
 * geodiff's mergeUpdate: old values from `old1` (else `old2`), new ones from `new2` (else
 * `new1`); columns that end where they started are left undefined. Null when nothing but
 * the key would remain.
 */
function mergeUpdate(
  pk: boolean[],
  old1: Value[],
  old2: Value[] | null,
  new1: Value[],
  new2: Value[] | null,
): { old: Value[]; new: Value[] } | null {
  let required = false;
  const oldOut: Value[] = [];
  const newOut: Value[] = [];
  for (let i = 0; i < pk.length; i++) {
    const vOld = mergeValue(old1[i], old2 ? old2[i] : undefined);
    const vNew = mergeValue(new1[i], new2 ? new2[i] : undefined);
    const equal = same(vOld, vNew);
    if (!equal && !pk[i]) required = true;
    oldOut.push(pk[i] || !equal ? vOld : undefined);
    newOut.push(pk[i] || equal ? undefined : vNew);
  }
  return required ? { old: oldOut, new: newOut } : null;
}

type Merged = Change | 'removed' | 'unsupported';

/** Folds the later change `e2` into the recorded change `e1` of the same row. */
function mergeChanges(pk: boolean[], e1: Change, e2: Change): Merged {
  const pair = `${e1.op}+${e2.op}`;
  switch (pair) {
    case 'insert+delete':
      return 'removed';
    case 'insert+update':
      return {
        op: 'insert',
        indirect: e1.indirect,
        new: e1.new!.map((value, i) => (e2.new![i] !== undefined ? e2.new![i] : value)),
      };
    case 'update+update': {
      const merged = mergeUpdate(pk, e2.old!, e1.old!, e1.new!, e2.new!);
      return merged ? { op: 'update', indirect: e1.indirect, ...merged } : 'removed';
    }
    case 'update+delete':
      return {
        op: 'delete',
        indirect: e1.indirect,
        old: e1.old!.map((value, i) => (value === undefined ? e2.old![i] : value)),
      };
    case 'delete+insert': {
      const merged = mergeUpdate(pk, e1.old!, null, e2.new!, null);
      return merged ? { op: 'update', indirect: e1.indirect, ...merged } : 'removed';
    }
    default:
      return 'unsupported';
  }
}

interface TableState {
  name: string;
  pk: boolean[];
  rows: Map<string, Change>;
}

/**
 * The changeset equivalent to applying `changesets` one after the other. Throws
 * ChangesetFormatError when a table appears with different columns in two of them.
 */
export function concatChangesets(changesets: Changeset[]): ConcatResult {
  const tables = new Map<string, TableState>();
  let unsupported = 0;
  for (const changeset of changesets) {
    for (const group of changeset) {
      let table = tables.get(group.name);
      if (!table) {
        table = { name: group.name, pk: group.pk, rows: new Map() };
        tables.set(group.name, table);
      } else if (
        table.pk.length !== group.pk.length ||
        table.pk.some((flag, i) => flag !== group.pk[i])
      ) {
        throw new ChangesetFormatError(`Table ${group.name} changes its columns between diffs`);
      }
      for (const change of group.changes) {
        const key = rowKey(table.pk, change);
        const recorded = table.rows.get(key);
        if (!recorded) {
          table.rows.set(key, change);
          continue;
        }
        const merged = mergeChanges(table.pk, recorded, change);
        if (merged === 'removed' || merged === 'unsupported') {
          if (merged === 'unsupported') unsupported++;
          table.rows.delete(key);
        } else {
          table.rows.set(key, merged);
        }
      }
    }
  }
  const changeset: Changeset = [...tables.values()]
    .filter((table) => table.rows.size > 0)
    .map((table) => ({ name: table.name, pk: table.pk, changes: [...table.rows.values()] }));
  return { changeset, unsupported };
}
