/**
 * Converting data stored before versions were kept as diffs (admin command `storage
 * convert`): every version pushed as a diff was stored whole. Each GeoPackage / SQLite file
 * with such versions is queued (file_store_tasks with `convert`); the background work
 * (tasks.ts) then, file by file:
 *
 * - gives each such version its recipe (the version before + its diff) once applying the
 *   diff to the version before makes exactly its bytes (same SHA-1; the first diff version
 *   after a whole upload usually differs only in the header's writer version and stays
 *   whole), and its page patch (page-patch.ts: the version before was copied aside before the
 *   apply);
 * - places the whole copies by the checkpoint rule, dropping the others.
 *
 * Each recipe and each dropped copy is its own small transaction, so the conversion can be
 * stopped (or killed) anywhere and run again: what is done stays done, every version stays
 * readable throughout, and the server serves meanwhile. Progress: file_store_conversion.
 */
import { copyFile, rm } from 'node:fs/promises';
import {
  countFileTasks,
  fileHistoryDiffs,
  findConversion,
  listConvertibleFiles,
  listUnstoredBlobs,
  queueFileTask,
  recipeChain,
  setRecipe,
  startConversion,
  storeFigures,
  type ConversionRow,
  type StoreFigures,
  type HistoryStepRow,
} from '../../db/queries/file-store';
import { ChangesetConflictError } from '../../geodiff/apply';
import { ChangesetFormatError } from '../../geodiff/format';
import { applyInPlace } from './apply-in-place';
import { storePagePatch } from './page-patch-store';
import { fileCacheOf, type FileStoreContext } from './context';
import { cachedFile, copyStoredFile } from './reader';
import { downloadBlob, FileRebuildError, MAX_CHAIN } from './rebuild';
import type { Database } from '../../db/database';

/**
 * Gives the versions of one file pushed as diffs their recipes where the diff remakes their
 * bytes exactly; returns how many got one.
 */
export async function giveRecipes(
  ctx: FileStoreContext,
  projectId: string,
  path: string,
  rows: HistoryStepRow[],
): Promise<number> {
  const db = ctx.database.db;
  const diffs = await fileHistoryDiffs(db, projectId, path);
  const cache = fileCacheOf(ctx);
  await cache.open();
  const work = cache.workPath();
  const diffFile = `${work}.diff`;
  const baseFile = `${work}.base`;
  /** The key of the blob whose bytes `work` holds now (null: nothing usable). */
  let holding: string | null = null;
  let given = 0;
  let previous: string | null = null;
  try {
    for (const row of rows) {
      const blob = row.blob;
      if (row.change === 'delete' || !blob) {
        previous = null;
        continue;
      }
      const diff = diffs.get(row.versionName);
      const candidate =
        row.change === 'update_diff' &&
        previous !== null &&
        diff !== undefined &&
        blob.stored &&
        blob.baseKey === null &&
        blob.key !== previous;
      if (candidate) {
        if (holding !== previous) {
          await rm(work, { force: true });
          await copyStoredFile(ctx, previous!, work, 'background');
          holding = previous;
        }
        await Promise.all([copyFile(work, baseFile), downloadBlob(ctx, diff.blobKey, diffFile)]);
        let made: { size: number; sha1: string } | null = null;
        try {
          made = await applyInPlace(ctx, work, [diffFile], 'background');
        } catch (error) {
          if (!(error instanceof ChangesetConflictError || error instanceof ChangesetFormatError)) {
            throw error;
          }
        }
        holding = null;
        if (made && made.sha1 === blob.sha1 && made.size === blob.size) {
          holding = blob.key;
          // No cycle: the base's chain must not lead back to this blob.
          const chain = await recipeChain(db, previous!, MAX_CHAIN);
          if (!chain.some((link) => link.key === blob.key)) {
            // Its page patch, for rebuilds that write pages instead of applying the diff.
            const patch = await storePagePatch(ctx, baseFile, work);
            const recipe = { baseKey: previous!, diffKey: diff.blobKey };
            const set = await db.transaction((tx) =>
              setRecipe(tx, blob.key, recipe, patch, ctx.now()),
            );
            if (set) given++;
          }
        }
      }
      previous = blob.key;
    }
  } finally {
    await rm(work, { force: true });
    await rm(diffFile, { force: true });
    await rm(baseFile, { force: true });
  }
  return given;
}

export interface ConversionStatus {
  conversion: ConversionRow | null;
  /** Files waiting to be converted. */
  waiting: number;
  /** What the blob store holds now. */
  figures: StoreFigures;
}

/**
 * Queues every file with versions pushed as diffs for conversion (due at once) and resets the
 * progress; while one runs, answers its progress instead (started: false).
 */
export async function queueConversion(
  database: Database,
  at: Date,
): Promise<{ started: boolean; status: ConversionStatus }> {
  const db = database.db;
  const running = await conversionStatus(database);
  if (running.conversion && !running.conversion.finishedAt && running.waiting > 0) {
    return { started: false, status: running };
  }
  const files = await listConvertibleFiles(db);
  await db.transaction(async (tx) => {
    for (const file of files) {
      await queueFileTask(tx, { ...file, dueAt: at, at, convert: true });
    }
    await startConversion(tx, at, files.length);
  });
  return { started: true, status: await conversionStatus(database) };
}

export async function conversionStatus(database: Database): Promise<ConversionStatus> {
  const db = database.db;
  const [conversion, tasks, figures] = await Promise.all([
    findConversion(db),
    countFileTasks(db),
    storeFigures(db),
  ]);
  return { conversion, waiting: tasks.convert, figures };
}

/**
 * Rebuilds the newest `limit` versions stored as their diffs and checks their bytes (admin
 * `storage verify`, e.g. after upgrading the SQLite library): the keys that failed.
 */
export async function verifyRebuilds(
  ctx: FileStoreContext,
  limit: number,
): Promise<{ checked: number; failed: string[] }> {
  const keys = await listUnstoredBlobs(ctx.database.db, limit);
  const failed: string[] = [];
  for (const key of keys) {
    try {
      (await cachedFile(ctx, key, 'background')).release();
    } catch (error) {
      if (!(error instanceof FileRebuildError)) throw error;
      failed.push(key);
    }
  }
  return { checked: keys.length, failed };
}
