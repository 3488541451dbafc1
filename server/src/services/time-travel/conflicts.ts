/**
 * The conflict files of a project (schemas/conflicts.ts): listing them with the file each
 * refers to, reading an edit-conflict file, and resolving one ('Keep this copy' / 'Discard
 * copy') as a new version through the push core.
 */
import path from 'node:path';
import { Readable } from 'node:stream';
import { text } from 'node:stream/consumers';
import type { AppContext } from '../../context';
import { findCurrentFile, listCurrentFiles, type FileRow } from '../../db/queries/files';
import type { User } from '../../db/schema';
import { badRequest, notFound } from '../../errors';
import { sandboxModule } from '../../lib/sandbox';
import { fileFromDiff, openStoredFile } from '../file-store';
import type {
  ConflictFile,
  ConflictList,
  ConflictRows,
  EditConflict,
} from '../../schemas/conflicts';
import type { NewVersion, VersionOrigin } from '../../schemas/restore';
import { fileNotFound } from '../history';
import { projectFor, type ProjectRef } from '../permissions';
import type { PushMeta } from '../push';
import type { CommitFile } from '../versions';
import { compareBlobs, NO_CHANGES, rowsPage } from './compare';
import { originalOfEditConflict, parseConflictName, type ConflictName } from './conflict-names';
import { MAX_EDIT_CONFLICT_BYTES, parseEditConflict, type ConflictField } from './edit-conflict';
import { copyBlob } from '../changesets';
import {
  fileEntry,
  fileUpdate,
  versionFromChanges,
  withScratch,
  type ServerChanges,
} from './file-changes';
import type * as EditConflictModule from './edit-conflict';
import { isVersionedFile } from '../../schemas/protocol';

/** edit-conflict.ts's readings of the original file, run in the sandbox (lib/sandbox). */
const editConflict = sandboxModule<typeof EditConflictModule>(
  new URL('./edit-conflict.ts', import.meta.url),
);
const tablesInSandbox = editConflict.fn('tablesOf');
const theirsInSandbox = editConflict.fn('theirsChangeset');

export const notAConflictFile = (file: string) =>
  `${file} is not a conflicted copy or an edit-conflict file`;
export const notAnEditConflict = (file: string) => `${file} is not an edit-conflict file`;
export const unreadableEditConflict = (file: string) =>
  `${file} cannot be read as an edit-conflict file`;
export const notAGeoPackageCopy = (file: string) =>
  `${file} is not a conflicted copy of a GeoPackage or SQLite file`;
export const originalGone = (file: string) =>
  `The GeoPackage ${file} refers to is not in the project`;

interface Found {
  file: FileRow;
  name: ConflictName;
  original: string | null;
  originalExists: boolean;
}

function describe(file: FileRow, paths: Set<string>): Found | null {
  const name = parseConflictName(file.path);
  if (!name) return null;
  const original = name.original ?? originalOfEditConflict(name, paths);
  return { file, name, original, originalExists: original !== null && paths.has(original) };
}

function view(found: Found): ConflictFile {
  return {
    path: found.file.path,
    kind: found.name.kind,
    original: found.original,
    original_exists: found.originalExists,
    user: found.name.user,
    version: `v${found.name.version}`,
    size: found.file.size,
    checksum: found.file.checksum,
  };
}

/** GET /app/project/conflicts/{namespace}/{name}. */
export async function listConflicts(
  ctx: AppContext,
  caller: User | null,
  ref: ProjectRef,
): Promise<ConflictList> {
  const access = await projectFor(ctx, caller, ref, 'read');
  const files = await listCurrentFiles(ctx.database.db, access.project.id);
  const paths = new Set(files.map((f) => f.path));
  const conflicts: ConflictFile[] = [];
  for (const file of files) {
    const found = describe(file, paths);
    if (found) conflicts.push(view(found));
  }
  return { conflicts };
}

/** The current conflict file `file` of the project, as `describe` finds it. */
async function conflictFile(ctx: AppContext, projectId: string, file: string): Promise<Found> {
  const db = ctx.database.db;
  const row = await findCurrentFile(db, projectId, file);
  if (!row) throw notFound(fileNotFound(file));
  const paths = new Set((await listCurrentFiles(db, projectId)).map((f) => f.path));
  const found = describe(row, paths);
  if (!found) throw badRequest(notAConflictFile(file));
  return found;
}

async function editConflictFields(ctx: AppContext, found: Found): Promise<ConflictField[]> {
  if (found.name.kind !== 'edit_conflict') throw badRequest(notAnEditConflict(found.file.path));
  if (found.file.size > MAX_EDIT_CONFLICT_BYTES) {
    throw badRequest(unreadableEditConflict(found.file.path));
  }
  const fields = parseEditConflict(await text(await openStoredFile(ctx, found.file.blobKey)));
  if (!fields) throw badRequest(unreadableEditConflict(found.file.path));
  return fields;
}

/** GET /app/project/conflicts/{namespace}/{name}/edit?path=. */
export async function readEditConflict(
  ctx: AppContext,
  caller: User | null,
  ref: ProjectRef,
  file: string,
): Promise<EditConflict> {
  const access = await projectFor(ctx, caller, ref, 'read');
  const found = await conflictFile(ctx, access.project.id, file);
  const fields = await editConflictFields(ctx, found);
  const original = found.originalExists
    ? await findCurrentFile(ctx.database.db, access.project.id, found.original!)
    : null;
  const tables = original
    ? await withScratch(async (dir) => {
        const copy = path.join(dir, 'original.gpkg');
        await copyBlob(ctx, original.blobKey, copy);
        return tablesInSandbox(ctx, { lane: 'interactive' }, copy);
      })
    : new Map();
  return {
    path: found.file.path,
    original: found.original,
    original_exists: found.originalExists,
    user: found.name.user,
    version: `v${found.name.version}`,
    fields: fields.map((f) => ({
      table: f.table,
      fid: f.fid,
      column: f.column,
      name: tables.get(f.table.toLowerCase())?.columns[f.column]?.name ?? null,
      base: f.base,
      ours: f.ours,
      theirs: f.theirs,
    })),
  };
}

/** GET /app/project/conflicts/{namespace}/{name}/rows?path=. */
export async function conflictRows(
  ctx: AppContext,
  caller: User | null,
  ref: ProjectRef,
  query: { path: string; page?: number; per_page?: number },
): Promise<ConflictRows> {
  const access = await projectFor(ctx, caller, ref, 'read');
  const found = await conflictFile(ctx, access.project.id, query.path);
  if (found.name.kind !== 'conflicted_copy' || !isVersionedFile(found.original!)) {
    throw badRequest(notAGeoPackageCopy(query.path));
  }
  const original = found.originalExists
    ? await findCurrentFile(ctx.database.db, access.project.id, found.original!)
    : null;
  const result =
    original?.checksum === found.file.checksum
      ? NO_CHANGES
      : await compareBlobs(ctx, original?.blobKey ?? null, found.file.blobKey);
  return {
    path: query.path,
    original: found.original!,
    original_exists: found.originalExists,
    ...rowsPage(result, query.page, query.per_page),
  };
}

/**
 * The original with theirs written back (a diff update, stored as its diff like a pushed
 * one: services/file-store/), or null when no field still holds ours.
 */
async function withTheirs(
  ctx: AppContext,
  original: FileRow,
  fields: ConflictField[],
): Promise<CommitFile | null> {
  return withScratch(async (dir) => {
    const base = path.join(dir, 'original.gpkg');
    await copyBlob(ctx, original.blobKey, base, 'background');
    const changeset = await theirsInSandbox(ctx, { lane: 'background' }, base, fields);
    if (!changeset) return null;
    const stored = await ctx.blobStore.put(Readable.from([Buffer.from(changeset)]), {
      expectedSize: changeset.length,
    });
    const made = await fileFromDiff(
      ctx,
      { key: original.blobKey, size: original.size, checksum: original.checksum },
      stored,
    );
    return {
      path: original.path,
      size: made.size,
      checksum: made.sha1,
      blobKey: made.key,
      diff: {
        path: `${original.path}-diff-${made.sha1.slice(0, 12)}`,
        size: stored.size,
        checksum: stored.sha1,
        blobKey: stored.key,
      },
      recipe: made.recipe,
    };
  });
}

/** POST /app/project/conflicts/{namespace}/{name}/resolve. */
export async function resolveConflict(
  ctx: AppContext,
  caller: User,
  ref: ProjectRef,
  body: { path: string; action: 'keep' | 'discard' },
  meta: PushMeta,
): Promise<NewVersion> {
  const access = await projectFor(ctx, caller, ref, 'upload');
  const first = await conflictFile(ctx, access.project.id, body.path);
  const origin: VersionOrigin = {
    action: body.action === 'keep' ? 'keep_copy' : 'discard_copy',
    version: null,
    path: body.path,
    original: body.action === 'keep' ? first.original : null,
  };
  if (body.action === 'keep' && first.name.kind === 'edit_conflict') {
    if (!first.originalExists) throw badRequest(originalGone(body.path));
    await editConflictFields(ctx, first);
  }
  return versionFromChanges(ctx, access, caller, meta, origin, async (latest) => {
    const found = await conflictFile(ctx, latest.project.id, body.path);
    const changes: ServerChanges = { added: [], updated: [], removed: [body.path] };
    if (body.action === 'discard') return changes;
    const db = ctx.database.db;
    const original = found.originalExists
      ? await findCurrentFile(db, latest.project.id, found.original!)
      : null;
    if (found.name.kind === 'edit_conflict') {
      if (!original) throw badRequest(originalGone(body.path));
      const updated = await withTheirs(ctx, original, await editConflictFields(ctx, found));
      if (updated) changes.updated.push(updated);
    } else if (!original) {
      changes.added.push(fileEntry(found.file, found.original!));
    } else if (original.checksum !== found.file.checksum) {
      changes.updated.push(await fileUpdate(ctx, original, found.file));
    }
    return changes;
  });
}
