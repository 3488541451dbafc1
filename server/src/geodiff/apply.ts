/**
 * Applying a changeset (format.ts) to a SQLite / GeoPackage file, with the rules of geodiff's
 * apply_changeset and every conflict fatal:
 *
 * - Changes to GeoPackage metadata tables (gpkg_*) are skipped; other tables must exist with
 *   the changeset's column count and primary key.
 * - An INSERT's key must be free; a DELETE's row must hold every old value; an UPDATE's row
 *   must hold the old values of the changed columns (DATETIME columns compared through
 *   strftime, so fractional seconds written differently still match). A change that finds
 *   no such row is a conflict: ChangesetConflictError names it and nothing is written.
 * - A change refused by a constraint (UNIQUE, NOT NULL, CHECK) is tried again after the
 *   others, since changesets carry no order; foreign keys are checked at commit.
 * - GeoPackage triggers run (R-tree indexes, feature counts, with the spatial functions of
 *   st-functions.ts); the file's own other triggers are set aside while applying (the diff
 *   already holds what they did) and put back.
 *
 * Everything runs in one transaction on the file, which is changed in place: callers work
 * on a copy.
 */
import fs from 'node:fs';
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
  /** Changes applied per table (tables skipped are not listed). */
  tables: { table: string; insert: number; update: number; delete: number }[];
}

/** Triggers that belong to the GeoPackage itself and stay active while applying. */
function isGeoPackageTrigger(name: string): boolean {
  return /^(gpkg_|rtree_|trigger_insert_feature_count_|trigger_delete_feature_count_)/i.test(name);
}

/**
 * Inside a transaction: drops the file's own triggers (not the GeoPackage's) and returns
 * what puts them back; rows written meanwhile carry what those triggers would have done.
 */
export function setAsideOwnTriggers(db: Database.Database): () => void {
  const ownTriggers = (
    db.prepare(`SELECT name, sql FROM sqlite_master WHERE type = 'trigger'`).all() as {
      name: string;
      sql: string | null;
    }[]
  ).filter((trigger) => trigger.sql && !isGeoPackageTrigger(trigger.name));
  for (const trigger of ownTriggers) db.exec(`DROP TRIGGER ${q(trigger.name)}`);
  return () => {
    for (const trigger of ownTriggers) db.exec(trigger.sql!);
  };
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

interface Pending {
  group: ChangesetTable;
  info: TableInfo;
  change: Change;
  /** Indexes of the primary key's columns. */
  keyCols: number[];
}

const isConstraint = (error: unknown) =>
  error instanceof Database.SqliteError && error.code.startsWith('SQLITE_CONSTRAINT');

export interface ApplyOptions {
  /**
   * For versions stored as their diffs (services/file-store/): no fsync and the rollback
   * journal in memory (the file is a private working copy; the bytes written are the same),
   * and the header's "SQLite version that last wrote the file" (bytes 96-99) kept as it was,
   * so the bytes a diff makes do not depend on the SQLite library's version: a rebuild after
   * an upgrade gives the same bytes as the apply at push time.
   */
  stable?: boolean;
}

/** Header offset of the SQLite version number that last wrote the file. */
const WRITER_VERSION_OFFSET = 96;

function readWriterVersion(file: string): Buffer | null {
  const fd = fs.openSync(file, 'r');
  try {
    const bytes = Buffer.alloc(4);
    return fs.readSync(fd, bytes, 0, 4, WRITER_VERSION_OFFSET) === 4 ? bytes : null;
  } finally {
    fs.closeSync(fd);
  }
}

function writeWriterVersion(file: string, bytes: Buffer): void {
  const fd = fs.openSync(file, 'r+');
  try {
    const now = Buffer.alloc(4);
    fs.readSync(fd, now, 0, 4, WRITER_VERSION_OFFSET);
    if (!now.equals(bytes)) fs.writeSync(fd, bytes, 0, 4, WRITER_VERSION_OFFSET);
  } finally {
    fs.closeSync(fd);
  }
}

/** Applies `changeset` (bytes or parsed) to the SQLite file at `file`. */
export function applyChangeset(
  file: string,
  changeset: Uint8Array | Changeset,
  options: ApplyOptions = {},
): ApplySummary {
  return applyChangesets(file, [changeset], options)[0]!;
}

/**
 * Applies `changesets` in order to the SQLite file at `file`, each as its own transaction
 * (the same bytes as applying them one by one with `applyChangeset`), on one connection: the
 * file is opened once, its pages stay in SQLite's cache from one changeset to the next, and
 * the statements are prepared once. A changeset that does not apply throws after the ones
 * before it were committed (callers work on a copy and drop it).
 */
export function applyChangesets(
  file: string,
  changesets: readonly (Uint8Array | Changeset)[],
  options: ApplyOptions = {},
): ApplySummary[] {
  const writerVersion = options.stable ? readWriterVersion(file) : null;
  try {
    return applyToFile(file, changesets, options);
  } finally {
    if (writerVersion) writeWriterVersion(file, writerVersion);
  }
}

/** SQLite's page cache while applying the stable way (pages kept from one diff to the next). */
const STABLE_CACHE_KIB = 32 * 1024;

function applyToFile(
  file: string,
  changesets: readonly (Uint8Array | Changeset)[],
  options: ApplyOptions,
): ApplySummary[] {
  let db: Database.Database;
  try {
    db = new Database(file, { fileMustExist: true });
    if (options.stable) {
      db.pragma('journal_mode = MEMORY');
      db.pragma('synchronous = OFF');
      if (changesets.length > 1) db.pragma(`cache_size = -${STABLE_CACHE_KIB}`);
    }
    db.pragma('foreign_keys = ON');
  } catch (error) {
    if (error instanceof Database.SqliteError) {
      throw new ChangesetConflictError('The stored file is not a readable SQLite database');
    }
    throw error;
  }
  let counts = new Map<string, ApplySummary['tables'][number]>();
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

    const describe = ({ group, info }: Pending, record: Value[]) => {
      const key = group.pk.flatMap((isPk, i) =>
        isPk ? [`${info.columns[i]!.name}=${String(record[i])}`] : [],
      );
      return `table ${group.name}, row ${key.join(', ')}`;
    };

    /**
     * The statements of one table of one changeset, by operation and the columns the change
     * holds (a change's SQL is built once per shape, not per change).
     */
    const shapes = new WeakMap<TableInfo, Map<string, Database.Statement>>();
    const statementFor = (
      info: TableInfo,
      shape: string,
      sql: () => string,
    ): Database.Statement => {
      let byShape = shapes.get(info);
      if (!byShape) {
        byShape = new Map();
        shapes.set(info, byShape);
      }
      let stmt = byShape.get(shape);
      if (!stmt) {
        stmt = prepared(sql());
        byShape.set(shape, stmt);
      }
      return stmt;
    };
    const definedOf = (values: Value[]): number[] => {
      const defined: number[] = [];
      for (let i = 0; i < values.length; i++) if (values[i] !== undefined) defined.push(i);
      return defined;
    };
    const col = (info: TableInfo, i: number) => q(info.columns[i]!.name);
    const matches = (info: TableInfo, i: number) =>
      /DATETIME/i.test(info.columns[i]!.declared)
        ? `strftime('%Y-%m-%d %H:%M:%f', ${col(info, i)}) IS strftime('%Y-%m-%d %H:%M:%f', ?)`
        : `${col(info, i)} IS ?`;

    /** Runs one change; a constraint error is thrown as is (the caller retries it). */
    const applyOne = (p: Pending): void => {
      const { group, info, change } = p;
      const keyCols = p.keyCols;
      if (change.op === 'insert') {
        const values = change.new!;
        if (keyCols.some((i) => values[i] === undefined)) {
          throw new ChangesetConflictError(
            `The changeset is invalid: an insert into table ${group.name} lacks its primary key`,
          );
        }
        const exists = statementFor(
          info,
          'exists',
          () =>
            `SELECT 1 FROM ${q(info.name)} WHERE ${keyCols.map((i) => `${col(info, i)} IS ?`).join(' AND ')}`,
        ).get(...keyCols.map((i) => bindable(values[i])));
        if (exists) {
          throw new ChangesetConflictError(
            `The changeset does not apply: ${describe(p, values)} already exists`,
          );
        }
        const defined = definedOf(values);
        statementFor(
          info,
          `insert ${defined.join(',')}`,
          () =>
            `INSERT INTO ${q(info.name)} (${defined.map((i) => col(info, i)).join(', ')}) VALUES (${defined.map(() => '?').join(', ')})`,
        ).run(...defined.map((i) => bindable(values[i])));
        return;
      }
      const old = change.old!;
      if (keyCols.some((i) => old[i] === undefined)) {
        throw new ChangesetConflictError(
          `The changeset is invalid: a ${change.op} in table ${group.name} lacks its primary key`,
        );
      }
      const matched = definedOf(old);
      const where = () => matched.map((i) => matches(info, i)).join(' AND ');
      let changed: number;
      if (change.op === 'delete') {
        changed = statementFor(
          info,
          `delete ${matched.join(',')}`,
          () => `DELETE FROM ${q(info.name)} WHERE ${where()}`,
        ).run(...matched.map((i) => bindable(old[i]))).changes;
      } else {
        const values = change.new!;
        const set = definedOf(values);
        if (set.length === 0) return;
        changed = statementFor(
          info,
          `update ${set.join(',')} ${matched.join(',')}`,
          () =>
            `UPDATE ${q(info.name)} SET ${set.map((i) => `${col(info, i)} = ?`).join(', ')} WHERE ${where()}`,
        ).run(
          ...set.map((i) => bindable(values[i])),
          ...matched.map((i) => bindable(old[i])),
        ).changes;
      }
      if (changed !== 1) {
        throw new ChangesetConflictError(
          `The changeset does not apply: ${describe(p, old)} is missing or holds other values`,
        );
      }
    };

    const done = (p: Pending) => {
      const key = p.info.name.toLowerCase();
      const entry = counts.get(key) ?? { table: p.info.name, insert: 0, update: 0, delete: 0 };
      entry[p.change.op]++;
      counts.set(key, entry);
    };

    const run = db.transaction((parsed: Changeset) => {
      db.pragma('defer_foreign_keys = ON');
      const restoreTriggers = setAsideOwnTriggers(db);

      let retry: Pending[] = [];
      let lastConstraint: unknown = null;
      /** Applies the changes in order; answers those a constraint refused (to try again). */
      const applyAll = (pending: Pending[]): Pending[] => {
        const refused: Pending[] = [];
        for (const p of pending) {
          try {
            applyOne(p);
            done(p);
          } catch (error) {
            if (!isConstraint(error)) throw error;
            lastConstraint = error;
            refused.push(p);
          }
        }
        return refused;
      };
      for (const group of parsed) {
        if (/^gpkg_/i.test(group.name)) continue;
        const info = tableInfo(db, group.name);
        if (!info) {
          throw new ChangesetConflictError(
            `The changeset does not apply: table ${group.name} does not exist`,
          );
        }
        const sameShape =
          info.columns.length === group.pk.length &&
          info.columns.every((c, i) => c.pk > 0 === group.pk[i]);
        if (!sameShape) {
          throw new ChangesetConflictError(
            `The changeset does not apply: table ${group.name} has other columns`,
          );
        }
        const keyCols = group.pk.flatMap((isPk, i) => (isPk ? [i] : []));
        retry.push(...applyAll(group.changes.map((change) => ({ group, info, change, keyCols }))));
      }
      // Changes refused by a constraint may need others first: again until none progresses.
      while (retry.length > 0) {
        const still = applyAll(retry);
        if (still.length === retry.length) {
          const first = still[0]!;
          const reason = lastConstraint instanceof Error ? lastConstraint.message : '';
          throw new ChangesetConflictError(
            `The changeset does not apply: ${describe(first, first.change.old ?? first.change.new!)}: ${reason}`,
          );
        }
        retry = still;
      }

      restoreTriggers();
    });
    const summaries: ApplySummary[] = [];
    for (const changeset of changesets) {
      const parsed = changeset instanceof Uint8Array ? readChangeset(changeset) : changeset;
      counts = new Map();
      try {
        run(parsed);
      } catch (error) {
        if (error instanceof Database.SqliteError) {
          throw new ChangesetConflictError(`The changeset does not apply: ${error.message}`);
        }
        throw error;
      }
      summaries.push({ tables: [...counts.values()] });
    }
    return summaries;
  } finally {
    db.close();
  }
}
