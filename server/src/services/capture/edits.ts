/**
 * POST /v2/projects/{id}/edits (schemas/edits.ts): an edit batch as one new version.
 *
 * 1. Upload rights (as pushes), the base version, the photos' chunks assembled into blobs
 *    (push/assemble.ts, the v2 chunks) once.
 * 2. Against the latest version: the QGIS project's read-only layers and hard not-null
 *    fields (edit-rules.ts, from the project file alone), then per GeoPackage the batch's
 *    part, in one sandbox call (apply-edits.ts), on a work file of the latest version
 *    (services/file-store `takeWorkFile`: the cached file the version before left, moved,
 *    not copied): its changeset and conflicts worked out, and the changeset applied to it
 *    the stable way, so the work file becomes the new version's bytes. The changeset is
 *    stored as the update's diff, and the version stored as that diff (a recipe: the
 *    latest's blob and the diff, services/file-store), while the new file is hashed once
 *    for its SHA-1 and kept in the cache for the next batch and the readers. The conflicts
 *    are written as the plugin's edit-conflict file.
 * 3. The version through the push core (push/server-push.ts `lockServerPush`:
 *    administrator's lock, push lock, one commit with the storage allowance). The push lock
 *    is taken once the sandbox works on the batch, so its statements run meanwhile, and
 *    the batch is committed as soon as the new file is hashed (a batch refused gives it
 *    back). When another push made a version meanwhile (ServerPushMoved), step 2 runs
 *    again on the new latest, a few times.
 */
import { randomUUID } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import type { AppContext } from '../../context';
import { listCurrentFiles, listFilesAtVersion } from '../../db/queries/files';
import type { User } from '../../db/schema';
import { badRequest, HttpProblem, notFound } from '../../errors';
import { isQgisProjectFile, projectPathError } from '../../lib/paths';
import {
  isUnsupportedName,
  isUnsupportedType,
  unsupportedName,
  unsupportedType,
} from '../../lib/push-rules';
import type { EditBatch, EditChange, EditConflictNote, EditResult } from '../../schemas/edits';
import { MAX_EDIT_CHANGES } from '../../schemas/edits';
import type { BlobInfo } from '../../storage/blob-store';
import { ChunkStore } from '../../storage/chunk-store';
import { CHUNK_SIZE } from '../../storage/staging';
import { giveBackWorkFile, keepWorkFile, recipeKey, takeWorkFile } from '../file-store';
import { localCopy } from '../map/store';
import { projectFor, type ProjectAccess } from '../permissions';
import { VERSION_NOT_FOUND } from '../project-detail';
import {
  lockServerPush,
  retryWhileProjectMoves,
  type PushMeta,
  type ServerPushLock,
} from '../push';
import { assembleChunks } from '../push/assemble';
import { deleteBlobsWithoutRows } from '../purge';
import type { CommitFile } from '../versions';
import { EditRefusal, type ConflictEntry } from './apply-edits';
import { editRulesOf } from './project-forms';
import { runCaptureWork } from './run';
import { scratchDir } from './scratch';
import {
  isGeoPackage,
  isVersionedFile,
  PHOTO_CHUNKS_CODE,
  versionNumber,
} from '../../schemas/protocol';

export const NO_EDITS = 'The batch has no changes and no photos';
export const fileGone = (file: string) =>
  `${file} is no longer in the project: the change cannot be applied`;
export const notAGeoPackage = (file: string) => `${file} is not a GeoPackage`;
export const photoChunks = (photo: string) =>
  `The chunks of ${photo} are missing or do not make the photo: upload them again`;
export const photoTaken = (photo: string) =>
  `${photo} already holds another file: choose another name`;

const refused = (status: number, code: string, message: string) =>
  new HttpProblem(status, message, { extra: { code } });

/** A file name less every suffix (as the clients name edit-conflict files). */
function stemOf(name: string): string {
  const lead = name.startsWith('.') ? 1 : 0;
  const dot = name.indexOf('.', lead);
  return dot < 0 ? name : name.slice(0, dot);
}

/** The plugin's edit-conflict file of `file` for `user` rebased onto `version`. */
export function editConflictPath(file: string, user: string, version: number): string {
  const at = file.lastIndexOf('/');
  const dir = file.slice(0, at + 1);
  return `${dir}${stemOf(file.slice(at + 1))} (edit conflict, ${user} v${version}).json`;
}

/** The photos as blobs (assembled from their chunks once), checked like pushed files. */
async function photoBlobs(
  ctx: AppContext,
  access: ProjectAccess,
  batch: EditBatch,
): Promise<{ path: string; blob: BlobInfo; chunks: string[] }[]> {
  const photos = batch.photos ?? [];
  const seen = new Set<string>();
  const out: { path: string; blob: BlobInfo; chunks: string[] }[] = [];
  for (const photo of photos) {
    const problem = projectPathError(photo.path);
    if (problem) throw badRequest(`${photo.path}: ${problem}`);
    if (seen.has(photo.path)) throw badRequest(`${photo.path} is listed twice`);
    seen.add(photo.path);
    if (isUnsupportedName(photo.path)) throw badRequest(unsupportedName(photo.path));
    if (isUnsupportedType(photo.path)) throw badRequest(unsupportedType(photo.path));
    if (isVersionedFile(photo.path) || isQgisProjectFile(photo.path)) {
      throw badRequest(`${photo.path}: a photo cannot be a GeoPackage or a QGIS project`);
    }
    if (photo.chunks.length !== Math.ceil(photo.size / CHUNK_SIZE)) {
      throw badRequest(
        `${photo.path} must be sent in ${Math.ceil(photo.size / CHUNK_SIZE)} chunk(s)`,
      );
    }
    const blob = await assembleChunks(ctx, access.project.id, {
      path: photo.path,
      size: photo.size,
      checksum: photo.checksum.toLowerCase(),
      mtime: null,
      chunks: photo.chunks,
      diff: null,
    });
    if (!blob) throw refused(422, PHOTO_CHUNKS_CODE, photoChunks(photo.path));
    out.push({ path: photo.path, blob, chunks: photo.chunks });
  }
  return out;
}

interface Planned {
  added: CommitFile[];
  updated: CommitFile[];
  /** Blobs made for this attempt (deleted again when it fails). */
  made: string[];
  result: Omit<EditResult, 'version'>;
}

/** Works the batch out against the latest version (step 2 of the module comment). */
async function plan(
  ctx: AppContext,
  access: ProjectAccess,
  caller: User,
  batch: EditBatch,
  baseVersion: number,
  photos: { path: string; blob: BlobInfo }[],
  /** Called once the sandbox works on a file (the caller's statements run meanwhile). */
  applying: () => void,
): Promise<Planned> {
  const db = ctx.database.db;
  const latestVersion = access.project.latestVersion;
  const latestFiles = await listCurrentFiles(db, access.project.id);
  const baseFiles =
    baseVersion === latestVersion
      ? latestFiles
      : await listFilesAtVersion(db, access.project.id, baseVersion);
  const latestByPath = new Map(latestFiles.map((f) => [f.path, f]));
  const baseByPath = new Map(baseFiles.map((f) => [f.path, f]));

  const byFile = new Map<string, EditChange[]>();
  for (const change of batch.changes) {
    const list = byFile.get(change.file) ?? [];
    list.push(change);
    byFile.set(change.file, list);
  }
  for (const file of byFile.keys()) {
    if (!isGeoPackage(file)) throw badRequest(notAGeoPackage(file));
    if (!latestByPath.has(file)) {
      if (baseByPath.has(file)) throw refused(422, 'UnknownLayer', fileGone(file));
      throw notFound(`File ${file} not found`);
    }
  }

  for (const photo of photos) {
    const held = latestByPath.get(photo.path);
    if (held && held.checksum !== photo.blob.sha1) {
      throw refused(422, 'PhotoExists', photoTaken(photo.path));
    }
  }

  const rules = byFile.size > 0 ? await editRulesOf(ctx, latestFiles) : {};
  const planned: Planned = {
    added: [],
    updated: [],
    made: [],
    result: {
      rebased_onto: `v${latestVersion}`,
      inserted: 0,
      updated: 0,
      deleted: 0,
      fids: [],
      conflicts: [],
      conflict_files: [],
      photos: [],
    },
  };
  const dir = await scratchDir(ctx);
  // This batch's changesets in the process's folder, removed after it.
  const diffs: string[] = [];
  try {
    for (const [file, changes] of byFile) {
      const latest = latestByPath.get(file)!;
      const latestBlob = { key: latest.blobKey, size: latest.size, checksum: latest.checksum };
      const base = baseByPath.get(file) ?? latest;
      const diff = path.join(dir, `${randomUUID()}.diff`);
      diffs.push(diff);
      // The base, when it differs, from the map's copies.
      const baseCopy =
        base.checksum === latest.checksum
          ? null
          : await localCopy(ctx, { key: base.blobKey, checksum: base.checksum, size: base.size });
      const work = await takeWorkFile(ctx, latestBlob, 'background');
      let applied;
      try {
        const running = runCaptureWork(
          ctx,
          {
            kind: 'edits',
            file,
            base: baseCopy,
            output: work,
            diff,
            changes,
            readOnly: rules[file]?.readOnly ?? [],
            required: rules[file]?.required ?? {},
          },
          'background',
        );
        applying();
        applied = await running;
      } catch (error) {
        if (error instanceof EditRefusal) {
          // Refused before anything stayed written: the latest version's file again.
          giveBackWorkFile(ctx, work, latestBlob);
          throw refused(error.status, error.code, error.message);
        }
        await rm(work, { force: true });
        throw error;
      }
      if (!applied.written) giveBackWorkFile(ctx, work, latestBlob);
      const r = planned.result;
      r.inserted += applied.inserted;
      r.updated += applied.updated;
      r.deleted += applied.deleted;
      r.fids.push(...applied.fids.map((f) => ({ file, ...f })));
      r.conflicts.push(...applied.notes.map((n): EditConflictNote => ({ file, ...n })));
      if (applied.written) {
        // Stored as its diff (services/file-store/): the work file is the diff applied to
        // the latest file the stable way, as any later rebuild applies it; hashed while the
        // diff is stored.
        const [stored, kept] = await Promise.allSettled([
          ctx.blobStore.put(createReadStream(diff), { expectedSize: applied.written.diffSize }),
          keepWorkFile(ctx, work),
        ]);
        if (stored.status === 'fulfilled') planned.made.push(stored.value.key);
        if (stored.status === 'rejected') throw stored.reason;
        if (kept.status === 'rejected') throw kept.reason;
        const diffBlob = stored.value;
        const made = kept.value;
        const recipe = { baseKey: latest.blobKey, diffKey: diffBlob.key };
        planned.updated.push({
          path: file,
          size: made.size,
          checksum: made.sha1,
          blobKey: recipeKey(recipe),
          mtime: null,
          diff: {
            path: `${file}-diff-${randomUUID()}`,
            size: diffBlob.size,
            checksum: diffBlob.sha1,
            blobKey: diffBlob.key,
          },
          recipe,
        });
      }
      if (applied.conflicts.length > 0) {
        const conflictPath = editConflictPath(file, caller.username, latestVersion);
        const text = Buffer.from(
          JSON.stringify({ geodiff: applied.conflicts satisfies ConflictEntry[] }, null, 4),
        );
        const blob = await ctx.blobStore.put(Readable.from([text]), { expectedSize: text.length });
        planned.made.push(blob.key);
        const entry: CommitFile = {
          path: conflictPath,
          size: blob.size,
          checksum: blob.sha1,
          blobKey: blob.key,
          mtime: null,
        };
        (latestByPath.has(conflictPath) ? planned.updated : planned.added).push(entry);
        r.conflict_files.push(conflictPath);
      }
    }
  } catch (error) {
    await deleteBlobsWithoutRows(ctx, planned.made);
    throw error;
  } finally {
    await Promise.all(diffs.map((file) => rm(file, { force: true })));
  }
  for (const photo of photos) {
    const held = latestByPath.get(photo.path);
    if (held?.checksum === photo.blob.sha1) continue;
    planned.added.push({
      path: photo.path,
      size: photo.blob.size,
      checksum: photo.blob.sha1,
      blobKey: photo.blob.key,
      mtime: null,
    });
    planned.result.photos.push(photo.path);
  }
  return planned;
}

/** POST /v2/projects/{id}/edits: 201 with the new version, or 200 when nothing changed. */
export async function submitEdits(
  ctx: AppContext,
  caller: User,
  projectId: string,
  batch: EditBatch,
  meta: PushMeta,
): Promise<{ status: 200 | 201; result: EditResult }> {
  const access = await projectFor(ctx, caller, { id: projectId }, 'upload');
  const baseVersion = versionNumber(batch.base_version);
  if (!Number.isSafeInteger(baseVersion) || baseVersion > access.project.latestVersion) {
    throw notFound(VERSION_NOT_FOUND);
  }
  if (batch.changes.length === 0 && (batch.photos ?? []).length === 0) throw badRequest(NO_EDITS);
  if (batch.changes.length > MAX_EDIT_CHANGES)
    throw badRequest(`At most ${MAX_EDIT_CHANGES} changes`);
  const photos = await photoBlobs(ctx, access, batch);
  return retryWhileProjectMoves(ctx, access, caller, async (current) => {
    // The project's push lock is taken while the sandbox applies the batch (its statements
    // run meanwhile), so the version is committed as soon as the new file is hashed.
    let locking: Promise<ServerPushLock> | null = null;
    const takeLock = () => {
      if (!locking) {
        locking = lockServerPush(ctx, {
          access: current,
          caller,
          meta,
          baseVersion: current.project.latestVersion,
          origin: null,
        });
        // Awaited below; a refusal seen before that is not unhandled.
        locking.catch(() => {});
      }
      return locking;
    };
    const giveBackLock = async () => {
      const lock = locking ? await locking.catch(() => null) : null;
      await lock?.release();
    };
    let planned: Planned;
    try {
      planned = await plan(ctx, current, caller, batch, baseVersion, photos, takeLock);
    } catch (error) {
      // The batch's own refusal comes first; a lock taken meanwhile is given back.
      await giveBackLock();
      throw error;
    }
    if (planned.added.length + planned.updated.length === 0) {
      await giveBackLock();
      return {
        status: 200,
        result: { version: `v${current.project.latestVersion}`, ...planned.result },
      };
    }
    try {
      const lock = await takeLock();
      const version = await lock.commit({
        added: planned.added,
        updated: planned.updated,
        removed: [],
      });
      await new ChunkStore(ctx)
        .remove(photos.flatMap((p) => p.chunks))
        .catch((error: unknown) =>
          ctx.log.warn({ err: error }, 'edits: used chunks could not be removed'),
        );
      return { status: 201, result: { version: `v${version}`, ...planned.result } };
    } catch (error) {
      await deleteBlobsWithoutRows(ctx, planned.made);
      throw error;
    }
  });
}
