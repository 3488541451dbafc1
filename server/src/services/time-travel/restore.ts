/**
 * Restoring a version or one file (schemas/restore.ts): a new version, made through the push
 * core, whose files (or file) equal those of an earlier version, byte for byte. No version
 * is removed; GeoPackage updates carry the server's diff (file-changes.ts).
 */
import type { AppContext } from '../../context';
import {
  findCurrentFile,
  findFileAtVersion,
  findVersion,
  listCurrentFiles,
  listFilesAtVersion,
} from '../../db/queries/files';
import type { User } from '../../db/schema';
import { badRequest, notFound } from '../../errors';
import type { NewVersion, VersionOrigin } from '../../schemas/restore';
import { fileNotFound, versionNotFound, versionNumber } from '../history';
import { projectFor, type ProjectAccess, type ProjectRef } from '../permissions';
import type { PushMeta } from '../push';
import type { CommitFile } from '../versions';
import { fileEntry, fileUpdate, versionFromChanges, type ServerChanges } from './file-changes';

export const alreadyEqual = (version: number) =>
  `The project's files already equal those of v${version}`;
export const fileAlreadyEqual = (path: string, version: number) =>
  `${path} already equals its content in v${version}`;

/** The project (writers and above) and the version `text` names, which must exist. */
export async function restorableVersion(
  ctx: AppContext,
  caller: User,
  ref: ProjectRef,
  text: string,
): Promise<{ access: ProjectAccess; version: number }> {
  const version = versionNumber(text);
  const access = await projectFor(ctx, caller, ref, 'upload');
  if (!(await findVersion(ctx.database.db, access.project.id, version))) {
    throw notFound(versionNotFound(version, access));
  }
  return { access, version };
}

/** POST /app/project/restore/{namespace}/{name}. */
export async function restoreVersion(
  ctx: AppContext,
  caller: User,
  ref: ProjectRef,
  body: { version: string },
  meta: PushMeta,
): Promise<NewVersion> {
  const { access, version } = await restorableVersion(ctx, caller, ref, body.version);
  const origin: VersionOrigin = {
    action: 'restore_version',
    version: `v${version}`,
    path: null,
    original: null,
  };
  return versionFromChanges(ctx, access, caller, meta, origin, async (latest) => {
    const db = ctx.database.db;
    const [target, current] = await Promise.all([
      listFilesAtVersion(db, latest.project.id, version),
      listCurrentFiles(db, latest.project.id),
    ]);
    const byPath = new Map(current.map((f) => [f.path, f]));
    const wanted = new Set(target.map((f) => f.path));
    const changes: ServerChanges = { added: [], updated: [], removed: [] };
    for (const file of target) {
      const held = byPath.get(file.path);
      if (!held) changes.added.push(fileEntry(file));
      else if (held.checksum !== file.checksum)
        changes.updated.push(await fileUpdate(ctx, held, file));
    }
    changes.removed = current.filter((f) => !wanted.has(f.path)).map((f) => f.path);
    if (changes.added.length + changes.updated.length + changes.removed.length === 0) {
      throw badRequest(alreadyEqual(version));
    }
    return changes;
  });
}

/** POST /app/project/restore-file/{namespace}/{name}. */
export async function restoreFile(
  ctx: AppContext,
  caller: User,
  ref: ProjectRef,
  body: { version: string; path: string },
  meta: PushMeta,
): Promise<NewVersion> {
  const { access, version } = await restorableVersion(ctx, caller, ref, body.version);
  const origin: VersionOrigin = {
    action: 'restore_file',
    version: `v${version}`,
    path: body.path,
    original: null,
  };
  return versionFromChanges(ctx, access, caller, meta, origin, async (latest) => {
    const db = ctx.database.db;
    const [target, current] = await Promise.all([
      findFileAtVersion(db, latest.project.id, body.path, version),
      findCurrentFile(db, latest.project.id, body.path),
    ]);
    if (!target && !current) throw notFound(fileNotFound(body.path));
    if (target && current && target.checksum === current.checksum) {
      throw badRequest(fileAlreadyEqual(body.path, version));
    }
    const one = (file: CommitFile) => [file];
    if (!current) return { added: one(fileEntry(target!)), updated: [], removed: [] };
    if (!target) return { added: [], updated: [], removed: [body.path] };
    return { added: [], updated: one(await fileUpdate(ctx, current, target)), removed: [] };
  });
}
