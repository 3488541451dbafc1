/**
 * SQL for the GeoPackage diffs stored with file versions (file_history.diff): reading the
 * diff of a version's file, and recording a diff the server computed for a file uploaded
 * whole (services/version-diffs.ts).
 */
import { and, eq, isNull } from 'drizzle-orm';
import type { Executor } from '../database';
import { fileHistory } from '../schema';
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

/** Records a computed diff on a whole-file update that has none; false when none was set. */
export async function setComputedDiff(
  db: Executor,
  versionId: number,
  path: string,
  diff: StoredDiff,
): Promise<boolean> {
  const rows = await db
    .update(fileHistory)
    .set({ diff })
    .where(
      and(
        eq(fileHistory.versionId, versionId),
        eq(fileHistory.path, path),
        eq(fileHistory.change, 'update'),
        isNull(fileHistory.diff),
      ),
    )
    .returning({ id: fileHistory.id });
  return rows.length > 0;
}
