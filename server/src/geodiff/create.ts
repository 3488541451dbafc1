/**
 * Creating a changeset between two SQLite / GeoPackage files, in the session-extension
 * format (format.ts), as geodiff's create_changeset does: per covered table (schema.ts), by
 * primary key; rows only in the new file are INSERTs, rows only in the old one DELETEs, rows
 * whose other columns differ UPDATEs (old record: primary key and the previous values of
 * the changed columns; new record: the changed columns' new values; the rest undefined).
 * Both files are attached read-only to one in-memory connection and SQLite does the
 * comparison, so only changed rows reach JavaScript.
 *
 * CannotDiffError when a table was added or removed, its columns or primary key changed, a
 * table without primary key changed, or a file is not a readable SQLite database: the whole
 * file must then be sent (geodiff refuses these too).
 */
import Database from 'better-sqlite3';
import { ChangesetWriter, type Value } from './format';
import { coveredTables, quote as q, sameColumns, type TableInfo } from './schema';

export class CannotDiffError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CannotDiffError';
  }
}

function sameValue(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (a === null || b === null) return false;
  if (a instanceof Uint8Array && b instanceof Uint8Array) return Buffer.from(a).equals(b);
  if (typeof a === 'bigint' && typeof b === 'number') return Number(a) === b;
  if (typeof a === 'number' && typeof b === 'bigint') return a === Number(b);
  return false;
}

function asValue(v: unknown): Value {
  if (v instanceof Uint8Array) return new Uint8Array(v.buffer, v.byteOffset, v.byteLength);
  return v as Value;
}

/** The changeset turning `oldFile` into `newFile` (empty bytes when nothing changed). */
export function createChangeset(oldFile: string, newFile: string): Uint8Array {
  const db = new Database(':memory:');
  try {
    let tables: { old: Map<string, TableInfo>; new: Map<string, TableInfo> };
    try {
      db.pragma('trusted_schema = OFF');
      db.prepare('ATTACH DATABASE ? AS o').run(oldFile);
      db.prepare('ATTACH DATABASE ? AS n').run(newFile);
      db.pragma('query_only = ON');
      tables = { old: coveredTables(db, 'o'), new: coveredTables(db, 'n') };
    } catch (error) {
      if (error instanceof Database.SqliteError) {
        throw new CannotDiffError('The file is not a readable SQLite database');
      }
      throw error;
    }
    const names = [...new Set([...tables.old.keys(), ...tables.new.keys()])].sort();
    for (const key of names) {
      const before = tables.old.get(key);
      const after = tables.new.get(key);
      if (!before || !after || !sameColumns(before, after)) {
        throw new CannotDiffError(`The schema of table ${(after ?? before)!.name} changed`);
      }
    }

    const writer = new ChangesetWriter();
    for (const key of names) {
      const table = tables.new.get(key)!;
      const t = q(table.name);
      const pkCols = table.columns.filter((c) => c.pk > 0).sort((a, b) => a.pk - b.pk);
      if (pkCols.length === 0) {
        const same = db
          .prepare(
            `SELECT (SELECT count(*) FROM o.${t}) = (SELECT count(*) FROM n.${t})
               AND NOT EXISTS (SELECT * FROM o.${t} EXCEPT SELECT * FROM n.${t}) AS same`,
          )
          .get() as { same: number };
        if (same.same) continue;
        throw new CannotDiffError(`Table ${table.name} has no primary key`);
      }
      const pk = table.columns.map((c) => c.pk > 0);
      let started = false;
      const start = () => {
        if (!started) writer.table(table.name, pk);
        started = true;
      };
      const join = pkCols.map((c) => `a.${q(c.name)} = b.${q(c.name)}`).join(' AND ');
      const whole = (side: 'n' | 'o') => {
        const [other, alias, otherAlias] = side === 'n' ? ['o', 'b', 'a'] : ['n', 'a', 'b'];
        return db
          .prepare(
            `SELECT ${alias}.* FROM ${side}.${t} AS ${alias} WHERE NOT EXISTS
               (SELECT 1 FROM ${other}.${t} AS ${otherAlias} WHERE ${join})`,
          )
          .raw(true)
          .safeIntegers(true);
      };
      for (const row of whole('n').iterate() as Iterable<unknown[]>) {
        start();
        writer.change({ op: 'insert', indirect: false, new: row.map(asValue) });
      }
      const others = table.columns.filter((c) => c.pk === 0);
      if (others.length > 0) {
        const select = table.columns.map((c) => `a.${q(c.name)}, b.${q(c.name)}`).join(', ');
        const differs = others.map((c) => `a.${q(c.name)} IS NOT b.${q(c.name)}`).join(' OR ');
        const updates = db
          .prepare(`SELECT ${select} FROM n.${t} AS b JOIN o.${t} AS a ON ${join} WHERE ${differs}`)
          .raw(true)
          .safeIntegers(true);
        for (const row of updates.iterate() as Iterable<unknown[]>) {
          const oldRecord: Value[] = [];
          const newRecord: Value[] = [];
          let changed = false;
          table.columns.forEach((c, i) => {
            const before = row[2 * i];
            const after = row[2 * i + 1];
            if (c.pk > 0) {
              oldRecord.push(asValue(before));
              newRecord.push(undefined);
            } else if (!sameValue(before, after)) {
              changed = true;
              oldRecord.push(asValue(before));
              newRecord.push(asValue(after));
            } else {
              oldRecord.push(undefined);
              newRecord.push(undefined);
            }
          });
          if (!changed) continue;
          start();
          writer.change({ op: 'update', indirect: false, old: oldRecord, new: newRecord });
        }
      }
      for (const row of whole('o').iterate() as Iterable<unknown[]>) {
        start();
        writer.change({ op: 'delete', indirect: false, old: row.map(asValue) });
      }
    }
    return writer.result();
  } finally {
    db.close();
  }
}
