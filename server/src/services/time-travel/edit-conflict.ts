/**
 * Edit-conflict files (geodiff's rebase conflicts, written by the clients as
 * `<name> (edit conflict, <user> v<N>).json`): `{"geodiff": [{"table", "type": "conflict",
 * "fid", "changes": [{"column", "base", "old", "new"}]}]}`, values as geodiff's valueToJSON
 * writes them (integers and reals as numbers, text, blobs in base64, null; a value geodiff
 * did not record is left out). `old` is theirs (the server's value the rebase overwrote),
 * `new` ours (the value the file kept).
 *
 * - parseEditConflict: the fields, or null when the text is not of that form.
 * - theirsChangeset: for 'Keep this copy', the changeset writing theirs back into the
 *   original for every field that still holds ours (the others were changed since, or
 *   already hold theirs: left alone).
 */
import Database from 'better-sqlite3';
import { ChangesetWriter, type Value } from '../../geodiff/format';
import { coveredTables, quote as q, type TableInfo } from '../../geodiff/schema';

export type Cell = number | string | null;

export interface ConflictField {
  table: string;
  fid: string;
  column: number;
  base: Cell;
  ours: Cell;
  theirs: Cell;
  /** Whether geodiff recorded theirs (a value left out is not written back). */
  hasTheirs: boolean;
}

/** Edit-conflict files larger than this are not read. */
export const MAX_EDIT_CONFLICT_BYTES = 8 * 1024 * 1024;

const isCell = (v: unknown): v is Cell =>
  v === null || typeof v === 'string' || (typeof v === 'number' && Number.isFinite(v));

/** The fields of an edit-conflict file's text; null when it is not one. */
export function parseEditConflict(text: string): ConflictField[] | null {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    return null;
  }
  const list = (data as { geodiff?: unknown } | null)?.geodiff;
  if (!Array.isArray(list)) return null;
  const fields: ConflictField[] = [];
  for (const feature of list as unknown[]) {
    if (typeof feature !== 'object' || feature === null) return null;
    const { table, fid, changes } = feature as Record<string, unknown>;
    if (typeof table !== 'string' || !Array.isArray(changes)) return null;
    if (typeof fid !== 'string' && typeof fid !== 'number') return null;
    for (const change of changes as unknown[]) {
      if (typeof change !== 'object' || change === null) return null;
      const c = change as Record<string, unknown>;
      if (typeof c.column !== 'number' || !Number.isSafeInteger(c.column) || c.column < 0) {
        return null;
      }
      for (const key of ['base', 'old', 'new']) if (key in c && !isCell(c[key])) return null;
      fields.push({
        table,
        fid: String(fid),
        column: c.column,
        base: (c.base as Cell | undefined) ?? null,
        ours: (c.new as Cell | undefined) ?? null,
        theirs: (c.old as Cell | undefined) ?? null,
        hasTheirs: 'old' in c,
      });
    }
  }
  return fields;
}

/** The covered tables of a SQLite file by lower-case name (empty when it cannot be read). */
export function tablesOf(file: string): Map<string, TableInfo> {
  let db: Database.Database;
  try {
    db = new Database(file, { readonly: true, fileMustExist: true });
  } catch {
    return new Map();
  }
  try {
    return coveredTables(db);
  } catch {
    return new Map();
  } finally {
    db.close();
  }
}

function groupBy<T>(items: T[], key: (item: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const item of items) {
    const k = key(item);
    groups.set(k, [...(groups.get(k) ?? []), item]);
  }
  return groups;
}

/** A stored value as geodiff's JSON writes it. */
function asCell(value: unknown): Cell {
  if (value === null || value === undefined) return null;
  if (typeof value === 'bigint') return Number(value);
  if (value instanceof Uint8Array) return Buffer.from(value).toString('base64');
  return value as Cell;
}

/** A JSON cell as the value to store, by the type the column holds or declares. */
function asValue(cell: Cell, current: unknown, declared: string): Value {
  if (cell === null) return null;
  if (typeof cell === 'number') {
    return Number.isInteger(cell) && /INT/i.test(declared) ? BigInt(cell) : cell;
  }
  const binary = current instanceof Uint8Array || !/CHAR|CLOB|TEXT|DATE|TIME|^$/i.test(declared);
  return binary ? Buffer.from(cell, 'base64') : cell;
}

/**
 * The changeset writing theirs into `file` (a copy of the original) where a field still
 * holds ours; null when no field does.
 */
export function theirsChangeset(file: string, fields: ConflictField[]): Uint8Array | null {
  const db = new Database(file, { readonly: true, fileMustExist: true });
  try {
    const tables = coveredTables(db);
    const writer = new ChangesetWriter();
    let written = 0;
    const byTable = groupBy(fields, (f) => f.table.toLowerCase());
    for (const [key, tableFields] of byTable) {
      const table = tables.get(key);
      const pkCols = table?.columns.filter((c) => c.pk > 0) ?? [];
      if (!table || pkCols.length !== 1) continue;
      const pkIndex = table.columns.indexOf(pkCols[0]!);
      const select = db
        .prepare(`SELECT * FROM ${q(table.name)} WHERE ${q(pkCols[0]!.name)} = ?`)
        .raw(true)
        .safeIntegers(true);
      let started = false;
      for (const [fid, rowFields] of groupBy(tableFields, (f) => f.fid)) {
        if (!/^-?\d+$/.test(fid)) continue;
        const row = select.get(BigInt(fid)) as unknown[] | undefined;
        if (!row) continue;
        const old: Value[] = table.columns.map(() => undefined);
        const next: Value[] = table.columns.map(() => undefined);
        old[pkIndex] = row[pkIndex] as Value;
        let changed = false;
        for (const field of rowFields) {
          const column = table.columns[field.column];
          if (!column || field.column === pkIndex || !field.hasTheirs) continue;
          const current = row[field.column];
          if (JSON.stringify(asCell(current)) !== JSON.stringify(field.ours)) continue;
          if (JSON.stringify(field.theirs) === JSON.stringify(field.ours)) continue;
          old[field.column] = (
            current instanceof Uint8Array ? Buffer.from(current) : current
          ) as Value;
          next[field.column] = asValue(field.theirs, current, column.declared);
          changed = true;
        }
        if (!changed) continue;
        if (!started)
          writer.table(
            table.name,
            table.columns.map((c) => c.pk > 0),
          );
        started = true;
        writer.change({ op: 'update', indirect: false, old, new: next });
        written++;
      }
    }
    return written > 0 ? writer.result() : null;
  } finally {
    db.close();
  }
}
