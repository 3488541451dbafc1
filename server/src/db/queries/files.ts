/** SQL for a project's files: the latest state, the state at a version, one file's history. */
import { and, asc, desc, eq, gte, inArray, lte, sql } from 'drizzle-orm';
import type { Executor } from '../database';
import { fileHistory, projectFiles, projectVersions, type FileChange } from '../schema';
import { MAX_ROW_ID } from '../../schemas/limits';

/** A diff stored with an update_diff change. */
export interface StoredDiff {
  path: string;
  size: number;
  checksum: string;
  blob_key: string;
}

export interface FileRow {
  path: string;
  size: number;
  checksum: string;
  mtime: Date | null;
  blobKey: string;
  /** The change that produced this state of the file. */
  change: FileChange;
  /** Set when that change was a diff update. */
  diff: StoredDiff | null;
  /** Version of that change. */
  versionName: number;
}

/** Sorting paths byte-wise, the same on every database. */
const byPath = sql`${projectFiles.path} collate "C"`;

/** The files of the latest version, by path (one query, however many files). */
/** A current file with the history row that made it. */
const currentFileColumns = {
  path: projectFiles.path,
  size: projectFiles.size,
  checksum: projectFiles.checksum,
  mtime: projectFiles.mtime,
  blobKey: projectFiles.blobKey,
  change: fileHistory.change,
  diff: sql<StoredDiff | null>`${fileHistory.diff}`,
  versionName: fileHistory.versionName,
};

export async function listCurrentFiles(db: Executor, projectId: string): Promise<FileRow[]> {
  return db
    .select(currentFileColumns)
    .from(projectFiles)
    .innerJoin(fileHistory, eq(fileHistory.id, projectFiles.historyId))
    .where(eq(projectFiles.projectId, projectId))
    .orderBy(byPath);
}

/** One file of the latest version. */
export async function findCurrentFile(
  db: Executor,
  projectId: string,
  path: string,
): Promise<FileRow | null> {
  const rows = await db
    .select(currentFileColumns)
    .from(projectFiles)
    .innerJoin(fileHistory, eq(fileHistory.id, projectFiles.historyId))
    .where(and(eq(projectFiles.projectId, projectId), eq(projectFiles.path, path)))
    .limit(1);
  return rows[0] ?? null;
}

interface HistoryFileRow {
  path: string;
  size: number;
  checksum: string | null;
  mtime: Date | null;
  blobKey: string | null;
  change: FileChange;
  diff: StoredDiff | null;
  versionName: number;
}

function present(row: HistoryFileRow): FileRow | null {
  if (row.change === 'delete' || row.blobKey === null || row.checksum === null) return null;
  return { ...row, checksum: row.checksum, blobKey: row.blobKey };
}

const historyColumns = {
  path: fileHistory.path,
  size: fileHistory.size,
  checksum: fileHistory.checksum,
  mtime: fileHistory.mtime,
  blobKey: fileHistory.blobKey,
  change: fileHistory.change,
  diff: sql<StoredDiff | null>`${fileHistory.diff}`.as('diff'),
  versionName: fileHistory.versionName,
};

/**
 * The files as they were at version `version`: for each path its newest change at or
 * before that version, unless that change removed it. By path.
 */
export async function listFilesAtVersion(
  db: Executor,
  projectId: string,
  version: number,
): Promise<FileRow[]> {
  const newest = db
    .selectDistinctOn([fileHistory.path], historyColumns)
    .from(fileHistory)
    .where(and(eq(fileHistory.projectId, projectId), lte(fileHistory.versionName, version)))
    .orderBy(fileHistory.path, desc(fileHistory.versionName))
    .as('newest');
  // DISTINCT ON sorts by the database's collation; answer byte-wise order like the latest.
  const rows = await db
    .select()
    .from(newest)
    .orderBy(sql`${newest.path} collate "C"`);
  return rows.map(present).filter((row): row is FileRow => row !== null);
}

/** The file at `path` as it was at version `version` (null when absent then). */
export async function findFileAtVersion(
  db: Executor,
  projectId: string,
  path: string,
  version: number,
): Promise<FileRow | null> {
  const rows = await db
    .select(historyColumns)
    .from(fileHistory)
    .where(
      and(
        eq(fileHistory.projectId, projectId),
        eq(fileHistory.path, path),
        lte(fileHistory.versionName, version),
      ),
    )
    .orderBy(desc(fileHistory.versionName))
    .limit(1);
  return rows[0] ? present(rows[0]) : null;
}

export interface VersionRow {
  id: number;
  name: number;
  createdAt: Date;
  projectSize: number;
}

export async function findVersion(
  db: Executor,
  projectId: string,
  name: number,
): Promise<VersionRow | null> {
  // No version number beyond the column's range exists (a larger one is not a 500).
  if (name > MAX_ROW_ID) return null;
  const rows = await db
    .select({
      id: projectVersions.id,
      name: projectVersions.name,
      createdAt: projectVersions.createdAt,
      projectSize: projectVersions.projectSize,
    })
    .from(projectVersions)
    .where(and(eq(projectVersions.projectId, projectId), eq(projectVersions.name, name)))
    .limit(1);
  return rows[0] ?? null;
}

export interface HistoryEntryRow {
  path: string;
  versionName: number;
  change: FileChange;
  size: number;
  checksum: string | null;
  diff: StoredDiff | null;
}

/** Every change of the given paths from version `since` on, by path, newest first. */
export async function listHistorySince(
  db: Executor,
  projectId: string,
  paths: string[],
  since: number,
): Promise<HistoryEntryRow[]> {
  if (paths.length === 0) return [];
  const result: HistoryEntryRow[] = [];
  for (let i = 0; i < paths.length; i += 1000) {
    const rows = await db
      .select({
        path: fileHistory.path,
        versionName: fileHistory.versionName,
        change: fileHistory.change,
        size: fileHistory.size,
        checksum: fileHistory.checksum,
        diff: sql<StoredDiff | null>`${fileHistory.diff}`,
      })
      .from(fileHistory)
      .where(
        and(
          eq(fileHistory.projectId, projectId),
          inArray(fileHistory.path, paths.slice(i, i + 1000)),
          gte(fileHistory.versionName, since),
        ),
      )
      .orderBy(asc(fileHistory.path), desc(fileHistory.versionName));
    result.push(...rows);
  }
  return result;
}
