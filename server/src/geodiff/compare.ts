/**
 * The net row-level changes between two states of a SQLite / GeoPackage file (time travel's
 * compare): the changeset turning `oldFile` into `newFile` (create.ts), read as history
 * entries (entries.ts) with the columns of the newer side. A side that does not exist (the
 * file was added or removed between the two versions) is the other side with its covered
 * tables emptied, so every row is an insert, or a delete.
 *
 * Comparing the two files directly gives the net change whatever happened in between (a row
 * edited in several versions shows once, a row inserted and deleted in between not at all),
 * and swapping the sides gives the reverse.
 */
import { copyFileSync } from 'node:fs';
import Database from 'better-sqlite3';
import { CannotDiffError, createChangeset } from './create';
import { changesetEntries } from './entries';
import { readChangeset } from './format';
import { coveredTables, quote } from './schema';
import { registerSpatialFunctions } from './st-functions';

export interface FileComparison {
  summary: { table: string; insert: number; update: number; delete: number }[];
  changesJson: string;
  truncated: boolean;
}

/** Copies `file` to `output` and deletes every row of its covered tables. */
export function emptiedCopy(file: string, output: string): void {
  copyFileSync(file, output);
  let db: Database.Database;
  try {
    db = new Database(output, { fileMustExist: true });
  } catch (error) {
    if (error instanceof Database.SqliteError) {
      throw new CannotDiffError('The file is not a readable SQLite database');
    }
    throw error;
  }
  try {
    registerSpatialFunctions(db);
    db.transaction(() => {
      for (const table of coveredTables(db).values()) db.exec(`DELETE FROM ${quote(table.name)}`);
    })();
  } catch (error) {
    if (error instanceof Database.SqliteError) {
      throw new CannotDiffError('The file is not a readable SQLite database');
    }
    throw error;
  } finally {
    db.close();
  }
}

/**
 * Compares the files (null: absent; `scratch` is a path for the emptied stand-in). Throws
 * CannotDiffError when the rows cannot be compared.
 */
export function compareFiles(
  oldFile: string | null,
  newFile: string | null,
  scratch: string,
  maxEntries: number,
): FileComparison {
  if (!oldFile && !newFile) throw new CannotDiffError('Neither file exists');
  if (!oldFile) emptiedCopy(newFile!, scratch);
  if (!newFile) emptiedCopy(oldFile!, scratch);
  const before = oldFile ?? scratch;
  const after = newFile ?? scratch;
  const changeset = readChangeset(createChangeset(before, after));
  const db = new Database(after, { readonly: true, fileMustExist: true });
  try {
    const diff = changesetEntries(db, changeset, maxEntries);
    return {
      summary: diff.summary,
      changesJson: JSON.stringify(diff.entries),
      truncated: diff.truncated,
    };
  } finally {
    db.close();
  }
}
