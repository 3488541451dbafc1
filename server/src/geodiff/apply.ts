/**
 * Applying a changeset (format.ts) to a SQLite / GeoPackage file, as geodiff's
 * apply_changeset does with every conflict fatal: in one transaction, each change must find
 * exactly what it expects (an INSERT's key must be free; a DELETE's row must hold every old
 * value; an UPDATE's row must hold the old values of the changed columns), otherwise nothing
 * is written and ChangesetConflictError names the first change that does not fit. Tables
 * must exist with the changeset's column count and primary key. The GeoPackage triggers run
 * (R-tree indexes, feature counts), with the spatial functions of st-functions.ts.
 *
 * The file is changed in place: callers work on a copy.
 */
import Database from 'better-sqlite3';
import {
  readChangeset,
  type Change,
  type Changeset,
  type ChangesetTable,
  type Value,
} from './format';
import { quote as q, type TableInfo } from './schema';
import { registerSpatialFunctions } from './st-functions';

export class ChangesetConflictError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ChangesetConflictError';
  }
}

export interface ApplySummary {
  /** Changes applied per table. */
  tables: { table: string; insert: number; update: number; delete: number }[];
}

function describeKey(table: ChangesetTable, info: TableInfo, record: Value[]): string {
  const parts = table.pk.flatMap((isPk, i) =>
    isPk ? [`${info.columns[i]!.name}=${String(record[i])}`] : [],
  );
  return `table ${table.name}, row ${parts.join(', ')}`;
}

function bindable(v: Value): unknown {
  return v instanceof Uint8Array && !Buffer.isBuffer(v)
    ? Buffer.from(v.buffer, v.byteOffset, v.byteLength)
    : v;
}

function tableInfo(db: Database.Database, name: string): TableInfo | null {
  const row = db
    .prepare(`SELECT name FROM sqlite_master WHERE type = 'table' AND name = ? COLLATE NOCASE`)
    .get(name) as { name: string } | undefined;
  if (!row) return null;
  const columns = db
    .prepare('SELECT cid, name, type AS declared, pk FROM pragma_table_info(?) ORDER BY cid')
    .all(row.name) as TableInfo['columns'];
  return { name: row.name, columns };
}

/** Applies `changeset` (bytes or parsed) to the SQLite file at `file`. */
export function applyChangeset(file: string, changeset: Uint8Array | Changeset): ApplySummary {
  const parsed = changeset instanceof Uint8Array ? readChangeset(changeset) : changeset;
  let db: Database.Database;
  try {
    db = new Database(file, { fileMustExist: true });
  } catch (error) {
    if (error instanceof Database.SqliteError) {
      throw new ChangesetConflictError('The stored file is not a readable SQLite database');
    }
    throw error;
  }
  const summary: ApplySummary = { tables: [] };
  try {
    registerSpatialFunctions(db);
    const statements = new Map<string, Database.Statement>();
    const prepared = (sql: string) => {
      let stmt = statements.get(sql);
      if (!stmt) {
        stmt = db.prepare(sql);
        statements.set(sql, stmt);
      }
      return stmt;
    };
    const run = db.transaction(() => {
      for (const table of parsed) {
        const info = tableInfo(db, table.name);
        if (!info) throw new ChangesetConflictError(`Table ${table.name} does not exist`);
        const pkMatches =
          info.columns.length === table.pk.length &&
          info.columns.every((c, i) => c.pk > 0 === table.pk[i]);
        if (!pkMatches) {
          throw new ChangesetConflictError(
            `Table ${table.name} has other columns than the changeset`,
          );
        }
        const t = q(info.name);
        const col = (i: number) => q(info.columns[i]!.name);
        const counts = { table: info.name, insert: 0, update: 0, delete: 0 };
        for (const change of table.changes) {
          applyOne(change);
          counts[change.op]++;
        }
        summary.tables.push(counts);

        function applyOne(change: Change): void {
          if (change.op === 'insert') {
            const values = change.new!;
            const keyCols = table.pk.flatMap((isPk, i) => (isPk ? [i] : []));
            const exists = prepared(
              `SELECT 1 FROM ${t} WHERE ${keyCols.map((i) => `${col(i)} IS ?`).join(' AND ')}`,
            ).get(...keyCols.map((i) => bindable(values[i])));
            if (exists || keyCols.some((i) => values[i] === undefined)) {
              throw new ChangesetConflictError(
                `The changeset does not apply: ${describeKey(table, info!, values)} already exists`,
              );
            }
            const defined = values.flatMap((v, i) => (v === undefined ? [] : [i]));
            prepared(
              `INSERT INTO ${t} (${defined.map(col).join(', ')}) VALUES (${defined.map(() => '?').join(', ')})`,
            ).run(...defined.map((i) => bindable(values[i])));
            return;
          }
          const old = change.old!;
          const matched = old.flatMap((v, i) => (v === undefined ? [] : [i]));
          if (table.pk.some((isPk, i) => isPk && old[i] === undefined)) {
            throw new ChangesetConflictError(
              `The changeset is invalid: a ${change.op} in table ${table.name} lacks its primary key`,
            );
          }
          const where = matched.map((i) => `${col(i)} IS ?`).join(' AND ');
          let changes: number;
          if (change.op === 'delete') {
            changes = prepared(`DELETE FROM ${t} WHERE ${where}`).run(
              ...matched.map((i) => bindable(old[i])),
            ).changes;
          } else {
            const values = change.new!;
            const set = values.flatMap((v, i) => (v === undefined ? [] : [i]));
            if (set.length === 0) return;
            changes = prepared(
              `UPDATE ${t} SET ${set.map((i) => `${col(i)} = ?`).join(', ')} WHERE ${where}`,
            ).run(
              ...set.map((i) => bindable(values[i])),
              ...matched.map((i) => bindable(old[i])),
            ).changes;
          }
          if (changes !== 1) {
            throw new ChangesetConflictError(
              `The changeset does not apply: ${describeKey(table, info!, old)} is missing or holds other values`,
            );
          }
        }
      }
    });
    try {
      run();
    } catch (error) {
      if (error instanceof Database.SqliteError) {
        throw new ChangesetConflictError(`The changeset does not apply: ${error.message}`);
      }
      throw error;
    }
    return summary;
  } finally {
    db.close();
  }
}
