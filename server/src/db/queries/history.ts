/** SQL for a project's history: versions (paginated, one), a version's files, a file's history. */
import { and, asc, count, desc, eq, gt, sql } from 'drizzle-orm';
import type { Executor } from '../database';
import { fileHistory, projectVersions, users, type FileChange } from '../schema';
import type { StoredDiff } from './files';
import { MAX_ROW_ID } from '../../schemas/limits';
import type { VersionChangeCounts } from '../../schemas/history';
import type { VersionOrigin } from '../../schemas/restore';

export interface VersionInfoRow {
  id: number;
  name: number;
  createdAt: Date;
  author: string | null;
  userAgent: string | null;
  projectSize: number;
  changes: Partial<VersionChangeCounts> | null;
  origin: VersionOrigin | null;
}

const versionColumns = {
  id: projectVersions.id,
  name: projectVersions.name,
  createdAt: projectVersions.createdAt,
  author: users.username,
  userAgent: projectVersions.userAgent,
  projectSize: projectVersions.projectSize,
  changes: sql<Partial<VersionChangeCounts> | null>`${projectVersions.changes}`,
  origin: sql<VersionOrigin | null>`${projectVersions.origin}`,
};

/** Versions after v0, newest or oldest first, and how many there are. */
export async function listVersionsPage(
  db: Executor,
  projectId: string,
  page: { limit: number; offset: number; descending: boolean },
): Promise<{ rows: VersionInfoRow[]; count: number }> {
  const where = and(eq(projectVersions.projectId, projectId), gt(projectVersions.name, 0));
  const [rows, total] = await Promise.all([
    db
      .select(versionColumns)
      .from(projectVersions)
      .leftJoin(users, eq(users.id, projectVersions.authorId))
      .where(where)
      .orderBy(page.descending ? desc(projectVersions.name) : asc(projectVersions.name))
      .limit(page.limit)
      .offset(page.offset),
    db.select({ n: count() }).from(projectVersions).where(where),
  ]);
  return { rows, count: Number(total[0]?.n ?? 0) };
}

export async function findVersionInfo(
  db: Executor,
  projectId: string,
  name: number,
): Promise<VersionInfoRow | null> {
  // No version number beyond the column's range exists (a larger one is not a 500).
  if (name > MAX_ROW_ID) return null;
  const rows = await db
    .select(versionColumns)
    .from(projectVersions)
    .leftJoin(users, eq(users.id, projectVersions.authorId))
    .where(and(eq(projectVersions.projectId, projectId), eq(projectVersions.name, name)))
    .limit(1);
  return rows[0] ?? null;
}

export interface FileChangeRow {
  path: string;
  versionName: number;
  change: FileChange;
  size: number;
  checksum: string | null;
  mtime: Date | null;
  diff: StoredDiff | null;
}

export const changeColumns = {
  path: fileHistory.path,
  versionName: fileHistory.versionName,
  change: fileHistory.change,
  size: fileHistory.size,
  checksum: fileHistory.checksum,
  mtime: fileHistory.mtime,
  diff: sql<StoredDiff | null>`${fileHistory.diff}`,
};

/**
 * The files a version changed, by path. A removal carries the size, checksum and mtime the
 * file had just before (its previous history row).
 */
export async function listVersionChanges(
  db: Executor,
  projectId: string,
  versionId: number,
): Promise<FileChangeRow[]> {
  const rows = await db
    .select({
      ...changeColumns,
      // (Drizzle leaves columns unqualified in one-table selects: name the outer row.)
      before: sql<{ size: number; checksum: string | null; mtime: string | null } | null>`(
        select json_build_object('size', p.size, 'checksum', p.checksum, 'mtime', p.mtime)
        from ${fileHistory} p
        where p.project_id = file_history.project_id and p.path = file_history.path
          and p.version_name < file_history.version_name
        order by p.version_name desc limit 1)`,
    })
    .from(fileHistory)
    .where(and(eq(fileHistory.projectId, projectId), eq(fileHistory.versionId, versionId)))
    .orderBy(sql`${fileHistory.path} collate "C"`);
  return rows.map(({ before, ...row }) =>
    row.change === 'delete' && before
      ? {
          ...row,
          size: Number(before.size),
          checksum: before.checksum,
          mtime: before.mtime ? new Date(before.mtime) : null,
        }
      : row,
  );
}

/** Every change of one path, oldest first. */
export async function listPathHistory(
  db: Executor,
  projectId: string,
  path: string,
): Promise<FileChangeRow[]> {
  return db
    .select(changeColumns)
    .from(fileHistory)
    .where(and(eq(fileHistory.projectId, projectId), eq(fileHistory.path, path)))
    .orderBy(asc(fileHistory.versionName));
}

/** The change a version made to one path (null when it did not change it). */
export async function findVersionFileChange(
  db: Executor,
  projectId: string,
  versionId: number,
  path: string,
): Promise<FileChangeRow | null> {
  const rows = await db
    .select(changeColumns)
    .from(fileHistory)
    .where(
      and(
        eq(fileHistory.projectId, projectId),
        eq(fileHistory.versionId, versionId),
        eq(fileHistory.path, path),
      ),
    )
    .limit(1);
  return rows[0] ?? null;
}
