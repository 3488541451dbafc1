/**
 * GeoPackage diff updates in a push (client-compat §5, §12): a versioned file (.gpkg,
 * .sqlite) in `updated` may carry `diff: {path, checksum, size}`; its chunks then hold the
 * diff (a session-extension changeset), its top-level `checksum` is the file's current
 * (base) checksum and `size` the new full size. Push start checks the entry and its base;
 * finish applies the staged diff to the stored file in the sandbox (geodiff/run.ts) and
 * stores the new version of the file as that diff (services/file-store/).
 */
import type { AppContext } from '../../context';
import { findCurrentFile } from '../../db/queries/files';
import { badRequest, HttpProblem } from '../../errors';
import { ChangesetConflictError } from '../../geodiff/apply';
import { ChangesetFormatError } from '../../geodiff/format';
import { WorkTooHeavyError } from '../../lib/sandbox';
import { fileFromDiff, type DiffMadeFile } from '../file-store';
import type { BlobInfo } from '../../storage/blob-store';
import type { CommitFile } from '../versions';
import { isVersionedFile } from '../../schemas/protocol';

/** The diff of a pushed file, as the client declares it. */
export interface PushDiff {
  path: string;
  size: number;
  /** SHA-1 hex of the diff bytes. */
  checksum: string;
}

export const diffOnlyForUpdates = (file: string) =>
  `File ${file}: a diff can only update a file already in the project`;
export const diffOnlyForVersioned = (file: string) =>
  `File ${file}: diffs are accepted for GeoPackage and SQLite files only`;
export const invalidDiff = (file: string) =>
  `Invalid diff of '${file}': it needs a path, a size and a SHA-1 checksum`;
export const diffWrongBase = (file: string) =>
  `The diff of ${file} is not based on the latest version of the file: pull first`;
/** The reference's finish error for a sync error, with the reason the diff was refused. */
export const diffDoesNotApply = (file: string, reason: string) =>
  `Failed to create new version: ${file} error=sync error: its diff does not apply to the latest version of the file: ${reason}`;

/** Why a diff was not applied when the work passed its budget (lib/sandbox). */
export const DIFF_TOO_COMPLEX = 'the file is too large or too complex to update';

const SHA1 = /^[0-9a-fA-F]{40}$/;

/**
 * The diff of a pushed file entry (null when it has none); throws 400 when it is malformed
 * or not allowed where it is.
 */
export function pushDiffOf(
  file: { path: string; diff?: unknown },
  list: 'added' | 'updated',
): PushDiff | null {
  const diff = file.diff;
  if (diff === undefined || diff === null) return null;
  if (list !== 'updated') throw badRequest(diffOnlyForUpdates(file.path));
  if (!isVersionedFile(file.path)) throw badRequest(diffOnlyForVersioned(file.path));
  const d = diff as Record<string, unknown>;
  if (
    typeof d !== 'object' ||
    typeof d.path !== 'string' ||
    d.path === '' ||
    d.path.length > 1024 ||
    typeof d.checksum !== 'string' ||
    !SHA1.test(d.checksum) ||
    typeof d.size !== 'number' ||
    !Number.isSafeInteger(d.size) ||
    d.size < 0
  ) {
    throw badRequest(invalidDiff(file.path));
  }
  return { path: d.path, size: d.size, checksum: d.checksum.toLowerCase() };
}

/** 400 unless the diff's base (the entry's top-level checksum) is the stored file. */
export function checkDiffBase(file: { path: string; checksum: string }, storedChecksum: string) {
  if (file.checksum.toLowerCase() !== storedChecksum) throw badRequest(diffWrongBase(file.path));
}

/**
 * Applies the diff in blob `diff` to the project's current `file`: the new version of the
 * file, stored as that diff (services/file-store/apply-diff.ts: the finish reads the file
 * once for its SHA-1 and copies nothing). 422 when the diff does not apply (or is not a
 * changeset); nothing is recorded then.
 */
export async function applyPushedDiff(
  ctx: AppContext,
  projectId: string,
  file: { path: string; checksum: string },
  diff: BlobInfo,
): Promise<DiffMadeFile> {
  const current = await findCurrentFile(ctx.database.db, projectId, file.path);
  if (!current) throw badRequest(diffWrongBase(file.path));
  checkDiffBase(file, current.checksum);
  try {
    return await fileFromDiff(
      ctx,
      { key: current.blobKey, size: current.size, checksum: current.checksum },
      diff,
    );
  } catch (error) {
    if (error instanceof ChangesetConflictError || error instanceof ChangesetFormatError) {
      throw new HttpProblem(422, diffDoesNotApply(file.path, error.message));
    }
    if (error instanceof WorkTooHeavyError) {
      throw new HttpProblem(422, diffDoesNotApply(file.path, DIFF_TOO_COMPLEX));
    }
    throw error;
  }
}

function mtimeOf(text: string | null): Date | null {
  if (!text) return null;
  const date = new Date(text);
  return Number.isNaN(date.getTime()) ? null : date;
}

/**
 * A pushed file's entry in the new version (v1 and v2 push): the received bytes, or, for a
 * diff push, the file the diff made (`applied`, stored as its recipe) with the received diff
 * kept beside it.
 */
export function pushedFileEntry(
  file: { path: string; mtime: string | null; diff?: { path: string } | null },
  received: BlobInfo,
  applied?: DiffMadeFile,
): CommitFile {
  if (!applied || !file.diff) {
    return {
      path: file.path,
      size: received.size,
      checksum: received.sha1,
      blobKey: received.key,
      mtime: mtimeOf(file.mtime),
    };
  }
  return {
    path: file.path,
    size: applied.size,
    checksum: applied.sha1,
    blobKey: applied.key,
    mtime: mtimeOf(file.mtime),
    diff: {
      path: file.diff.path,
      size: received.size,
      checksum: received.sha1,
      blobKey: received.key,
    },
    recipe: applied.recipe,
  };
}
