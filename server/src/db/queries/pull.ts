/**
 * SQL for the v2 pull (services/pull/): a project's file changes in a version range, one
 * file's chain of changes, a stored diff by its name, and the cache of merged diffs.
 */
import { and, asc, desc, eq, gt, inArray, lte, sql } from 'drizzle-orm';
import type { Executor } from '../database';
import { blobs, fileHistory, mergedDiffs } from '../schema';
import type { StoredDiff } from './files';
import { changeColumns, type FileChangeRow } from './history';

export type ChangeRow = FileChangeRow;

/**
 * The file changes of versions after+1 … upTo (of `path` only, when given), by path
 * (byte-wise), then version.
 */
export async function listChanges(
  db: Executor,
  projectId: string,
  range: { after: number; upTo: number },
  path?: string,
): Promise<ChangeRow[]> {
  return db
    .select(changeColumns)
    .from(fileHistory)
    .where(
      and(
        eq(fileHistory.projectId, projectId),
        path === undefined ? undefined : eq(fileHistory.path, path),
        gt(fileHistory.versionName, range.after),
        lte(fileHistory.versionName, range.upTo),
      ),
    )
    .orderBy(sql`${fileHistory.path} collate "C"`, asc(fileHistory.versionName));
}

/** For each of `paths`, its newest change at or before `version` (absent when none). */
export async function lastChangesAt(
  db: Executor,
  projectId: string,
  paths: string[],
  version: number,
): Promise<Map<string, ChangeRow>> {
  const found = new Map<string, ChangeRow>();
  for (let i = 0; i < paths.length; i += 1000) {
    const rows = await db
      .selectDistinctOn([fileHistory.path], changeColumns)
      .from(fileHistory)
      .where(
        and(
          eq(fileHistory.projectId, projectId),
          inArray(fileHistory.path, paths.slice(i, i + 1000)),
          lte(fileHistory.versionName, version),
        ),
      )
      .orderBy(fileHistory.path, desc(fileHistory.versionName));
    for (const row of rows) found.set(row.path, row);
  }
  return found;
}

/** A diff stored with one of the project's versions, by its name (`path` of the diff). */
export async function findStoredDiff(
  db: Executor,
  projectId: string,
  name: string,
): Promise<StoredDiff | null> {
  const rows = await db
    .select({ diff: sql<StoredDiff | null>`${fileHistory.diff}` })
    .from(fileHistory)
    .where(
      and(
        eq(fileHistory.projectId, projectId),
        eq(fileHistory.change, 'update_diff'),
        sql`${fileHistory.diff} ->> 'path' = ${name}`,
      ),
    )
    .limit(1);
  return rows[0]?.diff ?? null;
}

export interface CachedDiff {
  blobKey: string;
  size: number;
  sha1: string;
}

/** The merged diff cached under `cacheKey` for the project. */
export async function findMergedDiff(
  db: Executor,
  projectId: string,
  cacheKey: string,
): Promise<CachedDiff | null> {
  const rows = await db
    .select({ blobKey: blobs.key, size: blobs.size, sha1: blobs.sha1 })
    .from(mergedDiffs)
    .innerJoin(blobs, eq(blobs.key, mergedDiffs.blobKey))
    .where(and(eq(mergedDiffs.projectId, projectId), eq(mergedDiffs.cacheKey, cacheKey)))
    .limit(1);
  return rows[0] ?? null;
}

/** Records a merged diff (its blob row must exist); a concurrent equal record wins. */
export async function insertMergedDiff(
  db: Executor,
  row: { projectId: string; cacheKey: string; blobKey: string; createdAt: Date },
): Promise<void> {
  await db.insert(mergedDiffs).values(row).onConflictDoNothing();
}
