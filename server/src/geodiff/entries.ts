/**
 * A binary changeset (format.ts) as the row-level history JSON of lib/sqlite-diff.ts (the
 * change list GET /v1/resource/changesets serves): for versions pushed as a diff the
 * history comes from the diff itself. Column names and types are read from the file the
 * changeset produced; tables outside the covered set (schema.ts) are left out, as the
 * comparison leaves them out.
 */
import type Database from 'better-sqlite3';
import { cell, columnType, type SqliteDiff } from '../lib/sqlite-diff';
import type {
  ChangesetColumnType,
  ChangesetEntry,
  ColumnChange,
  TableChangeCounts,
} from '../schemas/changesets';
import type { Changeset } from './format';
import { coveredTables } from './schema';

function geometryColumns(db: Database.Database): Map<string, string> {
  const found = new Map<string, string>();
  const exists = db
    .prepare(`SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'gpkg_geometry_columns'`)
    .get();
  if (!exists) return found;
  const rows = db.prepare('SELECT table_name, column_name FROM gpkg_geometry_columns').all() as {
    table_name: unknown;
    column_name: unknown;
  }[];
  for (const row of rows) {
    found.set(String(row.table_name).toLowerCase(), String(row.column_name).toLowerCase());
  }
  return found;
}

/** The history entries of `changeset`, with the columns of the SQLite file `db`. */
export function changesetEntries(
  db: Database.Database,
  changeset: Changeset,
  maxEntries = 100_000,
): SqliteDiff {
  const tables = coveredTables(db);
  const geometry = geometryColumns(db);
  const summary = new Map<string, TableChangeCounts>();
  const entries: ChangesetEntry[] = [];
  let truncated = false;
  for (const group of changeset) {
    const key = group.name.toLowerCase();
    const table = tables.get(key);
    if (!table || table.columns.length !== group.pk.length) continue;
    const types: ChangesetColumnType[] = table.columns.map((c) =>
      columnType(c.declared, c.name.toLowerCase() === geometry.get(key)),
    );
    const counts = summary.get(key) ?? { table: table.name, insert: 0, update: 0, delete: 0 };
    summary.set(key, counts);
    for (const change of group.changes) {
      counts[change.op]++;
      if (entries.length >= maxEntries) {
        truncated = true;
        continue;
      }
      const changes: ColumnChange[] = [];
      table.columns.forEach((c, i) => {
        const base = { column: c.cid, name: c.name, type: types[i]! };
        const before = change.old?.[i];
        const after = change.new?.[i];
        if (change.op === 'insert') changes.push({ ...base, new: cell(after, types[i]!) });
        else if (change.op === 'delete') changes.push({ ...base, old: cell(before, types[i]!) });
        else if (group.pk[i]) changes.push({ ...base, old: cell(before, types[i]!) });
        else if (after !== undefined) {
          changes.push({ ...base, old: cell(before, types[i]!), new: cell(after, types[i]!) });
        }
      });
      entries.push({ table: table.name, type: change.op, changes });
    }
  }
  const list = [...summary.values()].filter((s) => s.insert + s.update + s.delete > 0);
  return { summary: list, entries, truncated };
}
