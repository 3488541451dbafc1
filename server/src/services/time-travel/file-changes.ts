/**
 * The pieces every time-travel version is made of: files the server already holds, put into
 * a new version through the push core (services/push/server-push.ts).
 *
 * - fileUpdate: a file's new content as an update entry; a GeoPackage / SQLite update gets
 *   the diff from the current file to the new content (geodiff create, in the worker
 *   thread) stored beside it, so clients that pull get a diff and the version's changeset is
 *   read from it. Where no diff can be made (a table's columns changed, nothing changed in
 *   the rows) the file is a whole-file update.
 * - versionFromChanges: makes the version, working the changes out again when another push
 *   made a version meanwhile (ServerPushMoved), a few times (push/server-push.ts
 *   `retryWhileProjectMoves`, also used by field edits). The diffs made for an attempt
 *   that failed are deleted again unless a row references their bytes.
 */
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { AppContext } from '../../context';
import type { FileRow } from '../../db/queries/files';
import type { User } from '../../db/schema';
import type { NewVersion, VersionOrigin } from '../../schemas/restore';
import type { ProjectAccess } from '../permissions';
import type { PushMeta } from '../push';
import { pushServerVersion, retryWhileProjectMoves } from '../push';
import { copyBlob } from '../changesets';
import { deleteBlobsWithoutRows } from '../purge';
import { storeComputedDiff } from '../version-diffs';
import type { CommitFile } from '../versions';
import { isVersionedFile } from '../../schemas/protocol';

/** Runs `work` with a temporary folder, removed afterwards. */
export async function withScratch<T>(work: (dir: string) => Promise<T>): Promise<T> {
  const dir = await mkdtemp(path.join(tmpdir(), 'waymark-timetravel-'));
  try {
    return await work(dir);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** A stored file's content (as the history holds it). */
export type StoredContent = Pick<FileRow, 'path' | 'size' | 'checksum' | 'blobKey' | 'mtime'>;

/** A file added with stored content. */
export function fileEntry(content: StoredContent, at: string = content.path): CommitFile {
  return {
    path: at,
    size: content.size,
    checksum: content.checksum,
    blobKey: content.blobKey,
    mtime: content.mtime,
  };
}

/**
 * The update of the current file `current` to `content` (stored at `current.path`), with
 * the server's diff for GeoPackage / SQLite files where one can be made.
 */
export async function fileUpdate(
  ctx: AppContext,
  current: Pick<FileRow, 'path' | 'blobKey'>,
  content: StoredContent,
): Promise<CommitFile> {
  const entry = fileEntry(content, current.path);
  if (!isVersionedFile(current.path)) return entry;
  return withScratch(async (dir) => {
    const before = path.join(dir, 'current.gpkg');
    const after = path.join(dir, 'new.gpkg');
    await copyBlob(ctx, current.blobKey, before);
    await copyBlob(ctx, content.blobKey, after);
    const diff = await storeComputedDiff(ctx, before, after, path.join(dir, 'restore.diff'));
    if (!diff) return entry;
    return {
      ...entry,
      diff: {
        path: `${current.path}-diff-${randomUUID()}`,
        size: diff.size,
        checksum: diff.sha1,
        blobKey: diff.key,
      },
    };
  });
}

/** The changes of a version the server makes (paths removed by name). */
export interface ServerChanges {
  added: CommitFile[];
  updated: CommitFile[];
  removed: string[];
}

/** The blob keys of the diffs the server made for `changes` (stored ahead of the commit). */
function madeDiffs(changes: ServerChanges): string[] {
  return changes.updated.flatMap((file) => (file.diff ? [file.diff.blobKey] : []));
}

/**
 * Makes a version from the changes `plan` works out against the project as `access` holds
 * it; when the project moved on before the commit, reloads it and plans again.
 */
export async function versionFromChanges(
  ctx: AppContext,
  first: ProjectAccess,
  caller: User,
  meta: PushMeta,
  origin: VersionOrigin,
  plan: (access: ProjectAccess) => Promise<ServerChanges>,
): Promise<NewVersion> {
  return retryWhileProjectMoves(ctx, first, caller, async (access) => {
    const changes = await plan(access);
    try {
      const version = await pushServerVersion(ctx, {
        access,
        caller,
        meta,
        baseVersion: access.project.latestVersion,
        ...changes,
        origin,
      });
      return {
        version: `v${version}`,
        origin,
        changes: {
          added: changes.added.length,
          updated: changes.updated.length,
          removed: changes.removed.length,
        },
      };
    } catch (error) {
      await deleteBlobsWithoutRows(ctx, madeDiffs(changes));
      throw error;
    }
  });
}
