/**
 * Comparing two versions (schemas/compare.ts): the files that differ, and the net row-level
 * changes of one GeoPackage / SQLite file between them.
 *
 * The rows are compared from the two versions' files themselves (geodiff/compare.ts, in the
 * sandbox, geodiff/run.ts), not by merging the stored per-version diffs: the files are always there,
 * while the chain of diffs is not (whole-file updates whose diff could not be made, a table
 * whose columns changed, a file removed and added again), and the direct comparison is by
 * construction the net change in either direction (docs/decisions/0091-time-travel-server.md).
 * Results are kept for a few pairs of files, so paging through one does not compare again.
 */
import path from 'node:path';
import type { AppContext } from '../../context';
import {
  findFileAtVersion,
  findVersion,
  listFilesAtVersion,
  type FileRow,
} from '../../db/queries/files';
import type { User } from '../../db/schema';
import { badRequest, notFound } from '../../errors';
import { CannotDiffError } from '../../geodiff/create';
import { ChangesetFormatError } from '../../geodiff/format';
import { runGeodiffWork } from '../../geodiff/run';
import { WorkTooHeavyError } from '../../lib/sandbox';
import type { ChangesetEntry } from '../../schemas/changesets';
import type { CompareFile, CompareFileSide, CompareRows, Comparison } from '../../schemas/compare';
import { fileNotFound, versionNotFound, versionNumber } from '../history';
import { projectFor, type ProjectAccess, type ProjectRef } from '../permissions';
import { copyBlob } from '../changesets';
import { withScratch } from './file-changes';
import { isVersionedFile } from '../../schemas/protocol';

/** Changed rows kept per comparison (the summary counts them all). */
export const COMPARE_MAX_ENTRIES = 50_000;
/** Why rows cannot be compared when the work passed its budget (lib/sandbox). */
export const COMPARE_TOO_COMPLEX = 'The files are too large or too complex to compare';
/** Comparisons kept in memory (per server). */
const CACHE_SIZE = 4;

/** The rows of equal files. */
export const NO_CHANGES: RowsResult = { error: null, summary: [], entries: [] };

export const notVersioned = (file: string) =>
  `${file} is not a GeoPackage or SQLite file: its rows cannot be compared`;

async function versionsOf(
  ctx: AppContext,
  access: ProjectAccess,
  texts: string[],
): Promise<number[]> {
  const numbers = texts.map(versionNumber);
  for (const n of numbers) {
    if (!(await findVersion(ctx.database.db, access.project.id, n))) {
      throw notFound(versionNotFound(n, access));
    }
  }
  return numbers;
}

function side(file: FileRow | undefined | null): CompareFileSide | null {
  if (!file) return null;
  return { version: `v${file.versionName}`, size: file.size, checksum: file.checksum };
}

const byteOrder = (a: string, b: string) => Buffer.compare(Buffer.from(a), Buffer.from(b));

/** GET /app/project/compare/{namespace}/{name}?from=&to=. */
export async function compareVersions(
  ctx: AppContext,
  caller: User | null,
  ref: ProjectRef,
  query: { from: string; to: string },
): Promise<Comparison> {
  const access = await projectFor(ctx, caller, ref, 'read');
  const [from, to] = await versionsOf(ctx, access, [query.from, query.to]);
  const db = ctx.database.db;
  const [before, after] = await Promise.all([
    listFilesAtVersion(db, access.project.id, from!),
    listFilesAtVersion(db, access.project.id, to!),
  ]);
  const old = new Map(before.map((f) => [f.path, f]));
  const now = new Map(after.map((f) => [f.path, f]));
  const files: CompareFile[] = [];
  for (const p of [...new Set([...old.keys(), ...now.keys()])].sort(byteOrder)) {
    const a = old.get(p);
    const b = now.get(p);
    if (a && b && a.checksum === b.checksum) continue;
    files.push({
      path: p,
      change: !a ? 'added' : !b ? 'removed' : 'updated',
      versioned: isVersionedFile(p),
      from: side(a),
      to: side(b),
    });
  }
  return { from: `v${from}`, to: `v${to}`, files };
}

export interface RowsResult {
  error: string | null;
  summary: CompareRows['summary'];
  entries: ChangesetEntry[];
}

const caches = new WeakMap<AppContext, Map<string, RowsResult>>();

function cacheOf(ctx: AppContext): Map<string, RowsResult> {
  let cache = caches.get(ctx);
  if (!cache) caches.set(ctx, (cache = new Map()));
  return cache;
}

/**
 * The net rows from the blob `oldKey` to `newKey` (null: absent), kept for a few pairs;
 * compared in the sandbox for `owner` (lib/sandbox).
 */
export async function compareBlobs(
  ctx: AppContext,
  oldKey: string | null,
  newKey: string | null,
  owner?: string,
): Promise<RowsResult> {
  const key = `${oldKey ?? '-'}:${newKey ?? '-'}`;
  const cache = cacheOf(ctx);
  const kept = cache.get(key);
  if (kept) {
    cache.delete(key);
    cache.set(key, kept);
    return kept;
  }
  const result = await withScratch(async (dir): Promise<RowsResult> => {
    const oldFile = oldKey ? path.join(dir, 'from.gpkg') : null;
    const newFile = newKey ? path.join(dir, 'to.gpkg') : null;
    if (oldFile) await copyBlob(ctx, oldKey!, oldFile);
    if (newFile) await copyBlob(ctx, newKey!, newFile);
    try {
      const compared = await runGeodiffWork(
        ctx,
        {
          kind: 'compare',
          oldFile,
          newFile,
          scratch: path.join(dir, 'empty.gpkg'),
          maxEntries: COMPARE_MAX_ENTRIES,
        },
        { lane: 'interactive', verdictKey: `${oldKey}/${newKey}/compare`, owner },
      );
      return {
        error: null,
        summary: compared.summary,
        entries: JSON.parse(compared.changesJson) as ChangesetEntry[],
      };
    } catch (error) {
      if (error instanceof CannotDiffError || error instanceof ChangesetFormatError) {
        return { error: error.message, summary: [], entries: [] };
      }
      if (error instanceof WorkTooHeavyError) {
        return { error: COMPARE_TOO_COMPLEX, summary: [], entries: [] };
      }
      throw error;
    }
  });
  cache.set(key, result);
  while (cache.size > CACHE_SIZE) cache.delete(cache.keys().next().value!);
  return result;
}

/** GET /app/project/compare/{namespace}/{name}/rows?from=&to=&path=&page=&per_page=. */
export async function compareRows(
  ctx: AppContext,
  caller: User | null,
  ref: ProjectRef,
  query: { from: string; to: string; path: string; page?: number; per_page?: number },
  owner?: string,
): Promise<CompareRows> {
  const access = await projectFor(ctx, caller, ref, 'read');
  const [from, to] = await versionsOf(ctx, access, [query.from, query.to]);
  if (!isVersionedFile(query.path)) throw badRequest(notVersioned(query.path));
  const db = ctx.database.db;
  const [a, b] = await Promise.all([
    findFileAtVersion(db, access.project.id, query.path, from!),
    findFileAtVersion(db, access.project.id, query.path, to!),
  ]);
  if (!a && !b) throw notFound(fileNotFound(query.path));
  const result =
    a && b && a.checksum === b.checksum
      ? NO_CHANGES
      : await compareBlobs(ctx, a?.blobKey ?? null, b?.blobKey ?? null, owner);
  return {
    path: query.path,
    from: `v${from}`,
    to: `v${to}`,
    ...rowsPage(result, query.page, query.per_page),
  };
}

/** One page of a comparison's rows, with its status and summary. */
export function rowsPage(result: RowsResult, page = 1, perPage = 100) {
  const start = (page - 1) * perPage;
  return {
    status: result.error ? ('error' as const) : ('done' as const),
    error: result.error,
    summary: result.summary,
    count: result.entries.length,
    page,
    per_page: perPage,
    entries: result.entries.slice(start, start + perPage),
  };
}
