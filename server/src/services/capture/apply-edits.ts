/**
 * One GeoPackage's part of an edit batch (schemas/edits.ts), in the sandbox:
 *
 * 1. The batch's changes of the file are folded per feature (an insert then an update of
 *    the same fid is one insert; an insert then a delete is nothing) and checked against
 *    the LATEST file's schema: a column it no longer has is refused (422 UnknownColumn), a
 *    read-only layer too, values must fit their columns.
 * 2. Each feature's change is rebased from `base` (the version the client edited) onto
 *    `latest` with geodiff's rules (geodiff/src/geodiffrebase.cpp, see rebase.ts).
 * 3. The rebased changes are written into `output` (the caller's private work file of the
 *    latest version), in one transaction with the GeoPackage's own triggers on (R-tree,
 *    feature counts) and the file's other triggers set aside, as applying a pushed diff does
 *    (geodiff/apply.ts); the rows written are read back (defaults, the fids given), and the
 *    transaction is rolled back: the file holds the latest bytes again. From those rows the
 *    changeset turning `latest` into the new version is written to `diff` in geodiff's
 *    format (geodiff/format.ts): inserts with every column, updates with the key and the
 *    changed columns, deletes with every column.
 * 4. The changeset is applied to `output` the stable way (geodiff/apply.ts `stable`), as a
 *    pushed diff is and as every later rebuild of the version applies it: `output` becomes
 *    the version's bytes, in place, without a copy of the file. The caller hashes it.
 * 5. The conflicts as geodiff's edit-conflict entries.
 *
 * A refusal leaves `output` as it was (the writes rolled back; a file in WAL mode is not
 * switched out of it before the stable apply, which switches it as a rebuild does).
 */
import { writeFileSync } from 'node:fs';
import Database from 'better-sqlite3';
import { applyChangeset, setAsideOwnTriggers } from '../../geodiff/apply';
import { ChangesetWriter, type Value } from '../../geodiff/format';
import { coveredTables, quote as q, type TableInfo } from '../../geodiff/schema';
import { registerSpatialFunctions } from '../../geodiff/st-functions';
import type { EditChange, EditConflictNote } from '../../schemas/edits';
import type { GeoJsonGeometry, MapValue } from '../../schemas/map';
import { encodeGeometry, GeometryInputError } from './geometry-encode';
import { gpkgTables, type GpkgTable, type TableColumn } from './gpkg-tables';
import { rebaseUpdate, sameValue, type ConflictItem } from './rebase';

/** A refusal of the batch (crosses from the sandbox; the route answers `status`). */
export class EditRefusal extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = 'EditRefusal';
  }
}

export const unknownColumn = (column: string, layer: string) =>
  `Column ${column} is no longer in layer ${layer}: the change cannot be applied`;
export const unknownLayer = (layer: string, file: string) =>
  `Layer ${layer} is no longer in ${file}: the change cannot be applied`;
export const readOnlyLayer = (layer: string) => `Layer ${layer} is read-only`;
export const valueRequired = (column: string, layer: string) =>
  `A value is required in ${column} of layer ${layer}`;

const bad = (message: string) => new EditRefusal(400, 'InvalidEdit', message);

export interface EditsRequest {
  kind: 'edits';
  /** Project path of the GeoPackage (for messages and results). */
  file: string;
  /** Local copy of the base version's file; null when it is the latest one. */
  base: string | null;
  /**
   * A private work file of the latest version (the caller's): it becomes the new version,
   * in place; unchanged when the batch is refused or changes no row.
   */
  output: string;
  /** Where the changeset is written. */
  diff: string;
  changes: EditChange[];
  /** Tables the QGIS project marks read-only (lower case). */
  readOnly: string[];
  /** Lower-case table → columns the QGIS project requires (hard not-null). */
  required: Record<string, string[]>;
}

/** One feature of the edit-conflict file (geodiff's conflict JSON). */
export interface ConflictEntry {
  table: string;
  type: 'conflict';
  fid: string;
  changes: { column: number; base?: unknown; old?: unknown; new?: unknown }[];
}

export interface EditsResult {
  inserted: number;
  updated: number;
  deleted: number;
  fids: { layer: string; client_fid: number; fid: number }[];
  notes: Omit<EditConflictNote, 'file'>[];
  conflicts: ConflictEntry[];
  /** The changeset's size when rows changed (`output` is then the new version); else null. */
  written: { diffSize: number } | null;
}

/** The net change of one feature over the batch. */
interface NetChange {
  op: 'insert' | 'update' | 'delete';
  table: Table;
  fid: number;
  changeId: string | null;
  /** Column name → SQL value. */
  values: Map<string, Value>;
  old: Map<string, Value>;
  /** Geometry blob; undefined: unchanged. */
  geometry: Buffer | null | undefined;
}

interface Table {
  gpkg: GpkgTable;
  info: TableInfo;
  columns: Map<string, TableColumn>;
  /** Index of each column in the table's rows (SELECT *). */
  index: Map<string, number>;
  fidIndex: number;
  geomIndex: number;
}

/** An ISO date-time as its UTC form (`…T…Z` with milliseconds); other values as they are. */
function sameInstant(value: unknown): unknown {
  if (typeof value !== 'string' || !/^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}/.test(value)) return value;
  const at = new Date(value);
  return Number.isNaN(at.getTime()) ? value : at.toISOString();
}

const isDate = (text: string) => {
  const at = new Date(`${text}T00:00:00Z`);
  return !Number.isNaN(at.getTime()) && at.toISOString().startsWith(text);
};

/** A value of the contract as the SQL value of `column`; throws 400 when it does not fit. */
export function sqlValue(value: MapValue, column: TableColumn, layer: string): Value {
  if (value === null) return null;
  const wrong = () =>
    bad(`Column ${column.name} of layer ${layer} cannot hold ${JSON.stringify(value)}`);
  switch (column.type) {
    case 'boolean':
      if (value === true || value === 1 || value === 'true' || value === '1') return 1n;
      if (value === false || value === 0 || value === 'false' || value === '0') return 0n;
      throw wrong();
    case 'integer':
      if (typeof value === 'boolean') return value ? 1n : 0n;
      if (typeof value === 'number' && Number.isSafeInteger(value)) return BigInt(value);
      if (typeof value === 'string' && /^-?\d{1,18}$/.test(value.trim()))
        return BigInt(value.trim());
      throw wrong();
    case 'double':
      if (typeof value === 'number' && Number.isFinite(value)) return value;
      if (typeof value === 'string' && value.trim() !== '' && Number.isFinite(Number(value))) {
        return Number(value);
      }
      throw wrong();
    case 'blob':
      throw bad(`Column ${column.name} of layer ${layer} holds binary data: it cannot be edited`);
    case 'date':
      // GeoPackage dates: `YYYY-MM-DD`.
      if (typeof value === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(value) && isDate(value)) {
        return value;
      }
      throw wrong();
    case 'datetime': {
      // GeoPackage date-times: ISO 8601 in UTC, `YYYY-MM-DDTHH:MM:SS.SSSZ`.
      if (typeof value !== 'string' || !/^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}/.test(value)) {
        throw wrong();
      }
      const at = new Date(value);
      if (Number.isNaN(at.getTime())) throw wrong();
      return at.toISOString();
    }
    default: {
      if (typeof value === 'boolean') throw wrong();
      const text = String(value);
      if (column.type === 'text' && column.length !== null && [...text].length > column.length) {
        throw bad(
          `The value of ${column.name} in layer ${layer} is longer than ${column.length} characters`,
        );
      }
      return text;
    }
  }
}

/** A stored value as geodiff's conflict JSON writes it. */
function jsonCell(value: unknown): unknown {
  if (value === undefined || value === null) return null;
  if (typeof value === 'bigint') return Number(value);
  if (value instanceof Uint8Array) return Buffer.from(value).toString('base64');
  return value;
}

function asValue(v: unknown): Value {
  if (v instanceof Uint8Array) return new Uint8Array(v.buffer, v.byteOffset, v.byteLength);
  return v as Value;
}

function bindable(v: Value): unknown {
  return v instanceof Uint8Array && !Buffer.isBuffer(v)
    ? Buffer.from(v.buffer, v.byteOffset, v.byteLength)
    : v;
}

function openTables(db: Database.Database): Map<string, Table> {
  const covered = coveredTables(db);
  const tables = new Map<string, Table>();
  for (const gpkg of gpkgTables(db)) {
    const info = covered.get(gpkg.name.toLowerCase());
    if (!info || gpkg.fid === null) continue;
    const index = new Map(info.columns.map((c, i) => [c.name.toLowerCase(), i]));
    tables.set(gpkg.name.toLowerCase(), {
      gpkg,
      info,
      columns: new Map(gpkg.columns.map((c) => [c.name.toLowerCase(), c])),
      index,
      fidIndex: index.get(gpkg.fid.toLowerCase())!,
      geomIndex: gpkg.geometry ? index.get(gpkg.geometry.column.toLowerCase())! : -1,
    });
  }
  return tables;
}

/** Folds the changes per feature and checks them against the latest schema. */
function foldChanges(
  request: EditsRequest,
  latest: Map<string, Table>,
  baseTables: Set<string>,
  baseColumns: Map<string, Set<string>>,
): NetChange[] {
  const net = new Map<string, NetChange>();
  const order: NetChange[] = [];
  const readOnly = new Set(request.readOnly);
  for (const change of request.changes) {
    const key = change.layer.toLowerCase();
    const table = latest.get(key);
    if (!table) {
      if (baseTables.has(key))
        throw new EditRefusal(422, 'UnknownLayer', unknownLayer(change.layer, request.file));
      throw bad(`Layer ${change.layer} not found in ${request.file}`);
    }
    const layer = table.gpkg.name;
    if (readOnly.has(key)) throw new EditRefusal(422, 'ReadOnlyLayer', readOnlyLayer(layer));
    const values = new Map<string, Value>();
    for (const [name, value] of Object.entries(change.values ?? {})) {
      const column = table.columns.get(name.toLowerCase());
      if (!column) {
        if (baseColumns.get(key)?.has(name.toLowerCase())) {
          throw new EditRefusal(422, 'UnknownColumn', unknownColumn(name, layer));
        }
        throw bad(`Layer ${layer} has no column ${name}`);
      }
      values.set(column.name, sqlValue(value, column, layer));
    }
    const old = new Map<string, Value>();
    for (const [name, value] of Object.entries(change.old ?? {})) {
      const column = table.columns.get(name.toLowerCase());
      if (column) {
        try {
          old.set(column.name, sqlValue(value, column, layer));
        } catch {
          // A base the column cannot hold matches nothing: compared as given.
          old.set(column.name, typeof value === 'boolean' ? BigInt(value) : (value as Value));
        }
      }
    }
    let geometry: Buffer | null | undefined;
    if (change.geometry !== undefined && change.op !== 'delete') {
      const target = table.gpkg.geometry;
      if (change.geometry === null) geometry = null;
      else if (!target) throw bad(`Layer ${layer} has no geometry`);
      else if (!target.transform) {
        throw new EditRefusal(
          422,
          'ReadOnlyLayer',
          `Layer ${layer} has a CRS the server cannot reproject to`,
        );
      } else {
        try {
          geometry = encodeGeometry(change.geometry as GeoJsonGeometry, {
            type: target.type,
            srsId: target.srsId,
            z: target.z,
            m: target.m,
            transform: target.transform,
          });
        } catch (error) {
          if (error instanceof GeometryInputError) throw bad(`${layer}: ${error.message}`);
          throw error;
        }
      }
    }
    const id = `${key}|${change.fid}`;
    const existing = net.get(id);
    const changeId = change.id ?? null;
    const add = (op: NetChange['op']) => {
      const entry: NetChange = { op, table, fid: change.fid, changeId, values, old, geometry };
      net.set(id, entry);
      order.push(entry);
    };
    if (change.op !== 'insert' && !existing && change.fid <= 0) {
      throw bad(`Feature ${change.fid} of ${layer} is not inserted by this batch`);
    }
    if (change.op === 'insert') {
      if (existing && existing.op !== 'delete')
        throw bad(`Feature ${change.fid} of ${layer} is inserted twice`);
      add('insert');
    } else if (change.op === 'update') {
      if (existing?.op === 'delete')
        throw bad(`Feature ${change.fid} of ${layer} is changed after its deletion`);
      if (existing) {
        for (const [k, v] of values) existing.values.set(k, v);
        for (const [k, v] of old) if (!existing.old.has(k)) existing.old.set(k, v);
        if (geometry !== undefined) existing.geometry = geometry;
      } else {
        add('update');
      }
    } else {
      if (existing?.op === 'insert') {
        net.delete(id);
        order.splice(order.indexOf(existing), 1);
      } else if (existing) {
        existing.op = 'delete';
      } else {
        add('delete');
      }
    }
  }
  for (const entry of order) {
    // The QGIS project's required fields among the attribute columns (not the fid).
    const required = (request.required[entry.table.gpkg.name.toLowerCase()] ?? []).flatMap(
      (name) => entry.table.columns.get(name.toLowerCase())?.name ?? [],
    );
    for (const name of required) {
      const set = entry.values.has(name);
      if (
        (entry.op === 'insert' && (!set || entry.values.get(name) === null)) ||
        (entry.op === 'update' && set && entry.values.get(name) === null)
      ) {
        throw new EditRefusal(422, 'NotNull', valueRequired(name, entry.table.gpkg.name));
      }
    }
  }
  return order;
}

interface Written {
  table: Table;
  op: 'insert' | 'update' | 'delete';
  before: unknown[] | null;
  after: unknown[] | null;
}

type RowOf = (d: Database.Database, table: Table, fid: number | bigint) => unknown[] | undefined;

/** Statements of a connection by their text, prepared once (a batch runs the same few). */
const statementCache = new WeakMap<Database.Database, Map<string, Database.Statement>>();
function prepared(d: Database.Database, sql: string): Database.Statement {
  let statements = statementCache.get(d);
  if (!statements) {
    statements = new Map();
    statementCache.set(d, statements);
  }
  let statement = statements.get(sql);
  if (!statement) {
    statement = d.prepare(sql);
    statements.set(sql, statement);
  }
  return statement;
}

const maxOf = (values: bigint[]) => values.reduce((a, b) => (a > b ? a : b), 0n);

/**
 * The fid of each insert, as geodiff's rebase maps them (`_find_mapping_for_new_changeset`):
 * with `theirs` the fids the latest version inserted since the base, an insert whose fid is
 * one of theirs gets the next fid after theirs (in order); then an insert whose fid one of
 * those new fids took is moved on too. Beyond geodiff: a fid still taken in the file (or
 * the base) is skipped, and temporary fids (zero or negative) get the next free fid after
 * all. Runs before any change is written (`db` still holds the latest rows).
 */
function insertFids(
  db: Database.Database,
  base: string | null,
  changes: NetChange[],
  rowOf: RowOf,
): Map<NetChange, bigint> {
  const assigned = new Map<NetChange, bigint>();
  const tables = [...new Set(changes.filter((c) => c.op === 'insert').map((c) => c.table))];
  if (tables.length === 0) return assigned;
  if (base) db.prepare('ATTACH DATABASE ? AS b').run(base);
  try {
    for (const table of tables) {
      const t = q(table.gpkg.name);
      const fidCol = q(table.gpkg.fid!);
      const maxFid = () =>
        (db.prepare(`SELECT max(${fidCol}) FROM main.${t}`).pluck().safeIntegers(true).get() as
          bigint | null) ?? 0n;
      const inBase =
        base !== null &&
        db
          .prepare(`SELECT 1 FROM b.sqlite_master WHERE type = 'table' AND name = ?`)
          .get(table.gpkg.name) !== undefined;
      const theirs: bigint[] = base
        ? (db
            .prepare(
              inBase
                ? `SELECT ${fidCol} FROM main.${t} WHERE ${fidCol} NOT IN (SELECT ${fidCol} FROM b.${t})`
                : `SELECT ${fidCol} FROM main.${t}`,
            )
            .pluck()
            .safeIntegers(true)
            .all() as bigint[])
        : [];
      const theirSet = new Set(theirs);
      const inBaseRow = (fid: bigint) =>
        inBase && prepared(db, `SELECT 1 FROM b.${t} WHERE ${fidCol} = ?`).get(fid) !== undefined;
      const taken = (fid: bigint) => rowOf(db, table, fid) !== undefined || inBaseRow(fid);
      const inserts = changes.filter((c) => c.op === 'insert' && c.table === table);
      const used = new Set<bigint>();
      let free =
        theirs.length > 0
          ? maxOf(theirs) + 1n
          : maxOf([maxFid(), ...inserts.map((c) => BigInt(Math.max(c.fid, 0)))]) + 1n;
      const next = () => {
        while (used.has(free) || taken(free)) free++;
        used.add(free);
        return free++;
      };
      const unmapped: NetChange[] = [];
      for (const c of inserts) {
        if (c.fid <= 0) continue;
        if (theirSet.has(BigInt(c.fid))) assigned.set(c, next());
        else unmapped.push(c);
      }
      for (const c of unmapped) {
        const fid = BigInt(c.fid);
        if (used.has(fid) || taken(fid)) assigned.set(c, next());
        else {
          used.add(fid);
          assigned.set(c, fid);
        }
      }
      if (inserts.some((c) => c.fid <= 0)) {
        // Temporary fids: after every fid of the file and of the batch.
        free = maxOf([free - 1n, ...used, maxFid()]) + 1n;
        for (const c of inserts) if (c.fid <= 0) assigned.set(c, next());
      }
    }
  } finally {
    if (base) db.exec('DETACH DATABASE b');
  }
  return assigned;
}

/** Applies one file's part of a batch (module comment). */
export async function applyEdits(request: EditsRequest): Promise<EditsResult> {
  const result: EditsResult = {
    inserted: 0,
    updated: 0,
    deleted: 0,
    fids: [],
    notes: [],
    conflicts: [],
    written: null,
  };
  const base =
    request.base === null
      ? null
      : new Database(request.base, { readonly: true, fileMustExist: true });
  const db = new Database(request.output, { fileMustExist: true });
  const written: Written[] = [];
  try {
    // The writes are rolled back: the rollback journal in memory, no syncs. A file in WAL
    // mode stays in it (switching would write the file's header: its bytes would no longer
    // be the latest version's, which the stable apply below must start from).
    if (db.pragma('journal_mode', { simple: true }) !== 'wal') db.pragma('journal_mode = MEMORY');
    db.pragma('synchronous = OFF');
    registerSpatialFunctions(db);
    const latest = openTables(db);
    const baseTables = base ? openTables(base) : latest;
    const baseColumns = new Map(
      [...baseTables].map(([k, t]) => [k, new Set([...t.columns.keys()])]),
    );
    const changes = foldChanges(request, latest, new Set(baseTables.keys()), baseColumns);
    const rowOf = (d: Database.Database, table: Table, fid: number | bigint) =>
      prepared(d, `SELECT * FROM ${q(table.gpkg.name)} WHERE ${q(table.gpkg.fid!)} = ?`)
        .raw(true)
        .safeIntegers(true)
        .get(fid) as unknown[] | undefined;
    const baseRow = (table: Table, fid: number) => {
      const d = base ?? db;
      if (base) {
        const exists = prepared(
          d,
          `SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ? COLLATE NOCASE`,
        ).get(table.gpkg.name);
        if (!exists) return undefined;
      }
      return rowOf(d, table, fid);
    };
    const entryOf = (table: Table, fid: number | bigint): ConflictEntry => {
      let entry = result.conflicts.find(
        (c) => c.table === table.gpkg.name && c.fid === String(fid),
      );
      if (!entry) {
        entry = { table: table.gpkg.name, type: 'conflict', fid: String(fid), changes: [] };
        result.conflicts.push(entry);
      }
      return entry;
    };

    const assigned = insertFids(db, request.base, changes, rowOf);

    // The rows are written, read back, and rolled back (module comment, step 3).
    const write = () => {
      setAsideOwnTriggers(db);

      for (const change of changes) {
        const { table } = change;
        const t = q(table.gpkg.name);
        const fidCol = q(table.gpkg.fid!);
        const layer = table.gpkg.name;
        const assignments = new Map(change.values);
        if (change.geometry !== undefined && table.gpkg.geometry) {
          assignments.set(table.gpkg.geometry.column, change.geometry);
        }
        if (change.op === 'insert') {
          const fid = assigned.get(change)!;
          const names = [table.gpkg.fid!, ...assignments.keys()];
          prepared(
            db,
            `INSERT INTO ${t} (${names.map(q).join(', ')}) VALUES (${names.map(() => '?').join(', ')})`,
          ).run(fid, ...[...assignments.values()].map(bindable));
          written.push({ table, op: 'insert', before: null, after: rowOf(db, table, fid)! });
          result.fids.push({ layer, client_fid: change.fid, fid: Number(fid) });
          continue;
        }
        const theirs = rowOf(db, table, change.fid);
        if (change.op === 'delete') {
          if (!theirs) {
            // geodiff: a delete of a row deleted meanwhile is dropped, without conflict.
            result.notes.push({
              layer,
              fid: change.fid,
              change_id: change.changeId,
              kind: 'already_deleted',
              columns: [],
            });
            continue;
          }
          prepared(db, `DELETE FROM ${t} WHERE ${fidCol} = ?`).run(change.fid);
          written.push({ table, op: 'delete', before: theirs, after: null });
          continue;
        }
        // update
        const ancestor = baseRow(table, change.fid);
        const columnsOf = [...assignments.keys()];
        if (!theirs) {
          // geodiff: our update of a row they deleted is dropped; the conflict records it.
          const items: ConflictItem[] = columnsOf.map((name) => {
            const i = table.index.get(name.toLowerCase())!;
            const baseValue = change.old.has(name) ? change.old.get(name) : ancestor?.[i];
            return { column: i, base: baseValue, ours: assignments.get(name), theirs: undefined };
          });
          const entry = entryOf(table, change.fid);
          for (const item of items) {
            entry.changes.push({
              column: item.column,
              base: jsonCell(item.base),
              new: jsonCell(item.ours),
            });
          }
          result.notes.push({
            layer,
            fid: change.fid,
            change_id: change.changeId,
            kind: 'deleted_meanwhile',
            columns: columnsOf,
          });
          continue;
        }
        const rebased = rebaseUpdate(
          columnsOf.map((name) => {
            const i = table.index.get(name.toLowerCase())!;
            // Date-times compare as instants (`…:00Z` and `…:00.000Z` are one value).
            const when = table.columns.get(name.toLowerCase())?.type === 'datetime';
            const v = (value: unknown) => (when ? sameInstant(value) : value);
            return {
              name,
              column: i,
              base: v(
                change.old.has(name) ? change.old.get(name) : ancestor ? ancestor[i] : theirs[i],
              ),
              theirs: v(theirs[i]),
              ours: v(assignments.get(name)),
            };
          }),
        );
        if (rebased.conflicts.length > 0) {
          const entry = entryOf(table, change.fid);
          for (const item of rebased.conflicts) {
            entry.changes.push({
              column: item.column,
              base: jsonCell(item.base),
              old: jsonCell(item.theirs),
              new: jsonCell(item.ours),
            });
          }
          result.notes.push({
            layer,
            fid: change.fid,
            change_id: change.changeId,
            kind: 'both_changed',
            columns: rebased.conflicts.map((c) => table.info.columns[c.column]!.name),
          });
        }
        if (rebased.apply.length === 0) continue;
        prepared(
          db,
          `UPDATE ${t} SET ${rebased.apply.map((a) => `${q(a.name)} = ?`).join(', ')} WHERE ${fidCol} = ?`,
        ).run(...rebased.apply.map((a) => bindable(a.ours as Value)), change.fid);
        written.push({ table, op: 'update', before: theirs, after: rowOf(db, table, change.fid)! });
      }
    };
    db.exec('BEGIN');
    try {
      write();
    } catch (error) {
      if (error instanceof Database.SqliteError && error.code.startsWith('SQLITE_CONSTRAINT')) {
        const notNull = /NOT NULL constraint failed: [^.]+\.(.+)$/.exec(error.message);
        if (notNull) throw new EditRefusal(422, 'NotNull', `A value is required in ${notNull[1]}`);
        throw new EditRefusal(
          422,
          'Constraint',
          `The changes break a rule of the GeoPackage: ${error.message}`,
        );
      }
      throw error;
    } finally {
      // (SQLite may have ended the transaction itself on some errors.)
      if (db.inTransaction) db.exec('ROLLBACK');
    }
  } finally {
    db.close();
    base?.close();
  }

  // The changeset latest → output, from the rows written.
  const writer = new ChangesetWriter();
  const byTable = new Map<string, Written[]>();
  for (const w of written) {
    const list = byTable.get(w.table.gpkg.name) ?? [];
    list.push(w);
    byTable.set(w.table.gpkg.name, list);
  }
  for (const name of [...byTable.keys()].sort()) {
    const list = byTable.get(name)!;
    const table = list[0]!.table;
    const pk = table.info.columns.map((c) => c.pk > 0);
    let started = false;
    for (const w of list) {
      let change: Parameters<ChangesetWriter['change']>[0];
      if (w.op === 'insert') change = { op: 'insert', indirect: false, new: w.after!.map(asValue) };
      else if (w.op === 'delete')
        change = { op: 'delete', indirect: false, old: w.before!.map(asValue) };
      else {
        const old: Value[] = [];
        const next: Value[] = [];
        let changed = false;
        table.info.columns.forEach((c, i) => {
          if (c.pk > 0) {
            old.push(asValue(w.before![i]));
            next.push(undefined);
          } else if (!sameValue(w.before![i], w.after![i])) {
            changed = true;
            old.push(asValue(w.before![i]));
            next.push(asValue(w.after![i]));
          } else {
            old.push(undefined);
            next.push(undefined);
          }
        });
        if (!changed) continue;
        change = { op: 'update', indirect: false, old, new: next };
      }
      if (!started) writer.table(table.info.name, pk);
      started = true;
      writer.change(change);
      result[w.op === 'insert' ? 'inserted' : w.op === 'update' ? 'updated' : 'deleted']++;
    }
  }
  const bytes = writer.result();
  if (bytes.length > 0) {
    writeFileSync(request.diff, bytes);
    // The version's bytes: the changeset applied the stable way, as any rebuild applies it.
    applyChangeset(request.output, bytes, { stable: true });
    result.written = { diffSize: bytes.length };
  }
  return result;
}
