/**
 * SQL for the GeoPackage diffs stored with file versions (file_history.diff): reading the
 * diff of a version's file, and recording a diff the server computed for a file uploaded
 * whole (services/version-diffs.ts).
 */
import { and, eq, isNull, sql } from 'drizzle-orm';
import type { Executor } from '../database';
import { fileHistory, projectVersions } from '../schema';
import type { StoredDiff } from './files';

/** The diff stored with `path` in version row `versionId`, if any. */
export async function findVersionFileDiff(
  db: Executor,
  versionId: number,
  path: string,
): Promise<{ change: string; diff: StoredDiff | null } | null> {
  const rows = await db
    .select({ change: fileHistory.change, diff: fileHistory.diff })
    .from(fileHistory)
    .where(and(eq(fileHistory.versionId, versionId), eq(fileHistory.path, path)))
    .limit(1);
  const row = rows[0];
  return row ? { change: row.change, diff: (row.diff as StoredDiff | null) ?? null } : null;
}

/**
 * Records a diff the server computed for a whole-file update that has none: the change
 * becomes `update_diff` (as the reference does) and the version's change counts move one
 * from `updated` to `updated_diff`. False when the entry was not such an update.
 */
export async function setComputedDiff(
  db: Executor,
  versionId: number,
  path: string,
  diff: StoredDiff,
): Promise<boolean> {
  const rows = await db
    .update(fileHistory)
    .set({ diff, change: 'update_diff' })
    .where(
      and(
        eq(fileHistory.versionId, versionId),
        eq(fileHistory.path, path),
        eq(fileHistory.change, 'update'),
        isNull(fileHistory.diff),
      ),
    )
    .returning({ id: fileHistory.id });
  if (rows.length === 0) return false;
  await db
    .update(projectVersions)
    .set({
      changes: sql`jsonb_set(jsonb_set(coalesce(${projectVersions.changes}, '{}'::jsonb),
        '{updated}', to_jsonb(greatest(coalesce((${projectVersions.changes} ->> 'updated')::int, 1) - 1, 0))),
        '{updated_diff}', to_jsonb(coalesce((${projectVersions.changes} ->> 'updated_diff')::int, 0) + 1))`,
    })
    .where(eq(projectVersions.id, versionId));
  return true;
}
