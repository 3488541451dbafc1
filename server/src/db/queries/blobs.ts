/** SQL for blob garbage collection and for purging projects scheduled for deletion. */
import { and, inArray, isNotNull, lt, sql } from 'drizzle-orm';
import type { Executor } from '../database';
import { blobs, fileHistory, mergedDiffs, projectFiles, projects } from '../schema';

/** Projects scheduled for deletion before `before`, oldest first. */
export async function listProjectsRemovedBefore(
  db: Executor,
  before: Date,
  limit: number,
): Promise<string[]> {
  const rows = await db
    .select({ id: projects.id })
    .from(projects)
    .where(and(isNotNull(projects.removedAt), lt(projects.removedAt, before)))
    .orderBy(projects.removedAt, projects.id)
    .limit(limit);
  return rows.map((row) => row.id);
}

/** Every blob key the projects' files, history, diffs and merged diffs reference. */
export async function blobKeysOfProjects(db: Executor, projectIds: string[]): Promise<string[]> {
  if (projectIds.length === 0) return [];
  const keys = new Set<string>();
  const history = await db
    .selectDistinct({ key: fileHistory.blobKey })
    .from(fileHistory)
    .where(and(inArray(fileHistory.projectId, projectIds), isNotNull(fileHistory.blobKey)));
  const diffs = await db
    .selectDistinct({ key: sql<string | null>`${fileHistory.diff} ->> 'blob_key'` })
    .from(fileHistory)
    .where(and(inArray(fileHistory.projectId, projectIds), isNotNull(fileHistory.diff)));
  const current = await db
    .selectDistinct({ key: projectFiles.blobKey })
    .from(projectFiles)
    .where(inArray(projectFiles.projectId, projectIds));
  const merged = await db
    .selectDistinct({ key: mergedDiffs.blobKey })
    .from(mergedDiffs)
    .where(inArray(mergedDiffs.projectId, projectIds));
  for (const row of [...history, ...diffs, ...current, ...merged]) if (row.key) keys.add(row.key);
  return [...keys];
}

/** Deletes the projects (members, versions, files, uploads and requests go with them). */
export async function deleteProjects(db: Executor, projectIds: string[]): Promise<void> {
  if (projectIds.length === 0) return;
  await db.delete(projects).where(inArray(projects.id, projectIds));
}

/**
 * Deletes the blob rows among `keys` that nothing references any more (no file, history row,
 * diff, merged diff, nor another blob's recipe or page patch); then, in turn, the recipes'
 * bases, diffs and patches that only they referenced. Returns every key deleted.
 */
export async function deleteUnreferencedBlobs(db: Executor, keys: string[]): Promise<string[]> {
  const deleted: string[] = [];
  let candidates = [...new Set(keys)];
  while (candidates.length > 0) {
    const next = new Set<string>();
    for (let i = 0; i < candidates.length; i += 1000) {
      const batch = candidates.slice(i, i + 1000);
      const rows = await db
        .delete(blobs)
        .where(
          and(
            inArray(blobs.key, batch),
            sql`not exists (select 1 from ${fileHistory} where ${fileHistory.blobKey} = ${blobs.key})`,
            sql`not exists (select 1 from ${projectFiles} where ${projectFiles.blobKey} = ${blobs.key})`,
            sql`not exists (select 1 from ${fileHistory} where ${fileHistory.diff} is not null and ${fileHistory.diff} ->> 'blob_key' = ${blobs.key})`,
            sql`not exists (select 1 from ${mergedDiffs} where ${mergedDiffs.blobKey} = ${blobs.key})`,
            sql`not exists (select 1 from ${blobs} r where r.base_key = ${blobs.key} or r.diff_key = ${blobs.key} or r.patch_key = ${blobs.key})`,
          ),
        )
        .returning({
          key: blobs.key,
          baseKey: blobs.baseKey,
          diffKey: blobs.diffKey,
          patchKey: blobs.patchKey,
        });
      for (const row of rows) {
        deleted.push(row.key);
        if (row.baseKey) next.add(row.baseKey);
        if (row.diffKey) next.add(row.diffKey);
        if (row.patchKey) next.add(row.patchKey);
      }
    }
    candidates = [...next];
  }
  return deleted;
}

/** Which of `keys` have a blob row. */
export async function existingBlobKeys(db: Executor, keys: string[]): Promise<Set<string>> {
  const found = new Set<string>();
  for (let i = 0; i < keys.length; i += 1000) {
    const rows = await db
      .select({ key: blobs.key })
      .from(blobs)
      .where(inArray(blobs.key, keys.slice(i, i + 1000)));
    for (const row of rows) found.add(row.key);
  }
  return found;
}
