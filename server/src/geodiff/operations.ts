/**
 * The file-level geodiff operations the server runs (in the sandbox, see run.ts): applying
 * a diff file to a copy of a stored file, applying a chain of diffs in place (a version
 * stored as its diff, services/file-store/), creating the diff between two files, reading a
 * diff file as row-level history entries, comparing two files' rows (compare.ts), the
 * row-level changes of a whole-file update (lib/sqlite-diff.ts), and merging consecutive
 * diff files into one (concat.ts).
 */
import { createHash } from 'node:crypto';
import { copyFile, open, readFile, stat, writeFile } from 'node:fs/promises';
import Database from 'better-sqlite3';
import { ChangesetConflictError, applyChangeset, applyChangesets } from './apply';
import { compareFiles, type FileComparison } from './compare';
import { concatChangesets } from './concat';
import { CannotDiffError, createChangeset } from './create';
import { changesetEntries } from './entries';
import { ChangesetFormatError, readChangeset, writeChangeset } from './format';
import { diffSqliteFiles } from '../lib/sqlite-diff';
import type { TableChangeCounts } from '../schemas/changesets';

export type GeodiffRequest =
  | { kind: 'apply'; base: string; diff: string; output: string }
  /**
   * The diffs applied in order to `file` in place, each as its own transaction, the stable
   * way (apply.ts ApplyOptions: the same bytes at push time and in any later rebuild), on
   * one connection; answers the result's size and SHA-1 (`hash: false`: its size alone, for
   * a caller that hashes the file itself).
   */
  | { kind: 'apply-chain'; file: string; diffs: string[]; hash?: boolean }
  | { kind: 'create'; oldFile: string; newFile: string; output: string }
  | { kind: 'entries'; file: string; diff: string; maxEntries: number }
  | { kind: 'concat'; diffs: string[]; output: string }
  | { kind: 'changes'; oldFile: string; newFile: string; maxEntries: number }
  | {
      kind: 'compare';
      oldFile: string | null;
      newFile: string | null;
      scratch: string;
      maxEntries: number;
    };

export type GeodiffResult =
  | { kind: 'apply' }
  | { kind: 'apply-chain'; size: number; sha1: string | null }
  | { kind: 'create'; size: number }
  | { kind: 'entries'; summary: unknown; changesJson: string; truncated: boolean }
  | { kind: 'concat'; size: number; unsupported: number }
  | ({ kind: 'changes' } & RowChanges)
  | ({ kind: 'compare' } & FileComparison);

/** The row-level changes of a file between two versions. */
export interface RowChanges {
  summary: TableChangeCounts[];
  /** The change list as JSON text. */
  changesJson: string;
  truncated: boolean;
}

/** Errors that mean "refused", rebuilt by name when they cross from the sandbox (run.ts). */
export const REFUSALS = {
  ChangesetConflictError,
  ChangesetFormatError,
  CannotDiffError,
} as const;

/** Size and SHA-1 of a file, read once in 1 MiB pieces. */
async function sizeAndSha1(file: string): Promise<{ size: number; sha1: string }> {
  const handle = await open(file, 'r');
  try {
    const hash = createHash('sha1');
    const buffer = Buffer.allocUnsafe(1024 * 1024);
    let size = 0;
    for (;;) {
      const { bytesRead } = await handle.read(buffer, 0, buffer.length, size);
      if (bytesRead === 0) break;
      hash.update(buffer.subarray(0, bytesRead));
      size += bytesRead;
    }
    return { size, sha1: hash.digest('hex') };
  } finally {
    await handle.close();
  }
}

export async function runGeodiff(request: GeodiffRequest): Promise<GeodiffResult> {
  switch (request.kind) {
    case 'apply': {
      const changeset = readChangeset(await readFile(request.diff));
      await copyFile(request.base, request.output);
      applyChangeset(request.output, changeset);
      return { kind: 'apply' };
    }
    case 'apply-chain': {
      const changesets = await Promise.all(request.diffs.map((diff) => readFile(diff)));
      applyChangesets(request.file, changesets, { stable: true });
      if (request.hash === false) {
        return { kind: 'apply-chain', size: (await stat(request.file)).size, sha1: null };
      }
      return { kind: 'apply-chain', ...(await sizeAndSha1(request.file)) };
    }
    case 'create': {
      const bytes = createChangeset(request.oldFile, request.newFile);
      await writeFile(request.output, bytes);
      return { kind: 'create', size: bytes.length };
    }
    case 'concat': {
      const changesets = [];
      for (const diff of request.diffs) changesets.push(readChangeset(await readFile(diff)));
      const { changeset, unsupported } = concatChangesets(changesets);
      const bytes = writeChangeset(changeset);
      await writeFile(request.output, bytes);
      return { kind: 'concat', size: bytes.length, unsupported };
    }
    case 'changes': {
      const diff = await diffSqliteFiles(request.oldFile, request.newFile, {
        maxEntries: request.maxEntries,
      });
      return {
        kind: 'changes',
        summary: diff.summary,
        changesJson: JSON.stringify(diff.entries),
        truncated: diff.truncated,
      };
    }
    case 'compare': {
      const { oldFile, newFile, scratch, maxEntries } = request;
      return { kind: 'compare', ...compareFiles(oldFile, newFile, scratch, maxEntries) };
    }
    case 'entries': {
      const changeset = readChangeset(await readFile(request.diff));
      let db: Database.Database;
      try {
        db = new Database(request.file, { readonly: true, fileMustExist: true });
      } catch (error) {
        if (error instanceof Database.SqliteError) {
          throw new CannotDiffError('The file is not a readable SQLite database');
        }
        throw error;
      }
      try {
        const diff = changesetEntries(db, changeset, request.maxEntries);
        return {
          kind: 'entries',
          summary: diff.summary,
          changesJson: JSON.stringify(diff.entries),
          truncated: diff.truncated,
        };
      } finally {
        db.close();
      }
    }
  }
}
