/**
 * The v2 push (client-compat §5.2, api-reference §1.9), used by the desktop and mobile
 * clients when /config says `v2_push_enabled`:
 *
 * 1. `POST /v2/projects/{id}/versions` with `check_only: true`: every check of a push, no
 *    chunk looked up (the client still lists its own chunk uuids there) → 204.
 * 2. `POST /v2/projects/{id}/chunks`: one raw chunk (≤ 10 MiB) → `{"id", "valid_until"}`.
 *    One chunk may then be listed by several files (the client reuses identical content).
 *    Chunks live in the configured store with rows in v2_chunks (storage/chunk-store.ts), so
 *    any instance can use them; the scheduler's job removes them a day after they arrived.
 * 3. `POST /v2/projects/{id}/versions` with the server's chunk ids → the version, 201.
 *
 * It shares the v1 push's rules (lib/push-rules.ts), lock (the project's upload row) and
 * version commit (commitVersion); the answers are the v2 ones: 409 `ProjectVersionExists`
 * for a stale base version, 409 `AnotherUploadRunning`, 423 `ProjectLocked`, 422 `UploadError`
 * for invalid changes, 422 `DataSyncError` for files whose chunks do not make them.
 * GeoPackage diff updates (`diff` on an updated versioned file) work as in v1
 * (services/push-diffs.ts): checked with the changes, applied when the version is made; a
 * diff that does not apply is a DataSyncError `sync error: …`.
 */
import type { ClientMeta } from '../auth/sessions';
import type { AppContext } from '../context';
import { listCurrentFiles } from '../db/queries/files';
import { workspaceDiskUsage } from '../db/queries/projects';
import { acquireUpload, deleteUpload } from '../db/queries/uploads';
import type { User } from '../db/schema';
import { HttpProblem } from '../errors';
import { isVersionedFile } from '../lib/paths';
import {
  hasTrailingSpaceFolder,
  isBlacklisted,
  isUnsupportedName,
  isUnsupportedType,
  trailingSpace,
  unsupportedName,
  unsupportedType,
} from '../lib/push-rules';
import { isoZ } from '../lib/time';
import type { BlobInfo } from '../storage/blob-store';
import { ChunkStore, CHUNK_TTL_MS, type StoredChunk } from '../storage/chunk-store';
import { uploadStagingFor } from '../storage/open-blob-store';
import { ChunkTooBigError, CHUNK_SIZE } from '../storage/upload-staging';
import { startChangesetWork } from './changesets';
import { projectV2View, type ProjectV2View } from './client-projects';
import { storageLimitHit } from './clone';
import { assertSignedIn, projectFor, type ProjectAccess } from './permissions';
import {
  BIG_CHUNK,
  FILE_NOT_VALID,
  invalidChecksum,
  invalidChunks,
  LOCK_EXPIRATION_MS,
  NO_CHANGES,
  NOT_UNIQUE,
  parsePushVersion,
  type PlanFile,
  type PushFileInput,
  type UploadPlan,
} from './push';
import { applyPushedDiff, checkDiffBase, pushDiffOf, pushedFileEntry } from './push-diffs';
import {
  commitVersion,
  InvalidChangesError,
  VersionMismatchError,
  type CommitFile,
} from './versions';

export const PROJECT_VERSION_EXISTS = 'ProjectVersionExists';
export const ANOTHER_UPLOAD_RUNNING = 'AnotherUploadRunning';
export const DATA_SYNC_ERROR = 'DataSyncError';
export const ADDED_EXIST = 'Add changes contain files which already exist';
export const NOT_IN_PROJECT = 'Update or remove changes contain files that are not in project';
export const DATA_SYNC_TEXT =
  'There are either corrupted files or it is not possible to create version with provided geopackage data';

export interface PushV2Input {
  version: string;
  changes: { added: PushFileInput[]; updated: PushFileInput[]; removed: PushFileInput[] };
  check_only?: boolean;
}

type Meta = ClientMeta & { deviceId: string | null };

const coded = (status: number, code: string, text: string, extra: Record<string, unknown> = {}) =>
  new HttpProblem(status, `${text} (${code})`, { extra: { code, ...extra } });

const uploadError = (text: string) => coded(422, 'UploadError', text);

/** A v1 push-diffs refusal (400 there) answered the v2 way, as UploadError. */
function asUploadError<T>(check: () => T): T {
  try {
    return check();
  } catch (error) {
    if (error instanceof HttpProblem && typeof error.detail === 'string') {
      throw uploadError(error.detail);
    }
    throw error;
  }
}

/** Bytes and SHA-1 the chunks of a file carry: its diff's, for a GeoPackage diff update. */
const sentSize = (file: PlanFile) => file.diff?.size ?? file.size;
const sentChecksum = (file: PlanFile) => file.diff?.checksum ?? file.checksum;

function projectLocked(access: ProjectAccess, now: Date): HttpProblem | null {
  const until = access.project.lockedUntil;
  if (!until || until.getTime() <= now.getTime()) return null;
  return coded(
    423,
    'ProjectLocked',
    'The project is currently locked and you cannot make changes to it',
  );
}

function versionExists(client: number | null, server: number): HttpProblem {
  return coded(409, PROJECT_VERSION_EXISTS, 'Project version mismatch', {
    client_version: client === null ? null : `v${client}`,
    server_version: `v${server}`,
  });
}

/** The v1 push's structural rules (api-reference §1.2 step 5), answered as UploadError. */
function validateChanges(changes: PushV2Input['changes']): void {
  const { added, updated, removed } = changes;
  if (added.length + updated.length + removed.length === 0) throw uploadError(NO_CHANGES);
  const paths = new Set<string>();
  for (const file of [...added, ...updated, ...removed]) {
    if (paths.has(file.path)) throw uploadError(NOT_UNIQUE);
    paths.add(file.path);
  }
  for (const file of [...added, ...updated]) {
    if (isVersionedFile(file.path) && file.size === 0) throw uploadError(FILE_NOT_VALID);
    if (isUnsupportedName(file.path)) throw uploadError(unsupportedName(file.path));
    if (isUnsupportedType(file.path)) throw uploadError(unsupportedType(file.path));
    if (added.includes(file) && hasTrailingSpaceFolder(file.path)) {
      throw uploadError(trailingSpace(file.path));
    }
    // A GeoPackage diff update (push-diffs.ts): the chunks carry the diff.
    const diff = asUploadError(() => pushDiffOf(file, added.includes(file) ? 'added' : 'updated'));
    if (!/^[0-9a-fA-F]{40}$/.test(file.checksum)) throw uploadError(invalidChecksum(file.path));
    const expected = Math.ceil((diff?.size ?? file.size) / CHUNK_SIZE);
    if ((file.chunks ?? []).length !== expected) {
      throw uploadError(invalidChunks(file.path, expected));
    }
  }
  for (const file of removed) {
    if (isUnsupportedName(file.path)) throw uploadError(unsupportedName(file.path));
  }
}

function planOf(changes: PushV2Input['changes']): UploadPlan {
  const plan = (f: PushFileInput, list: 'added' | 'updated'): PlanFile => ({
    path: f.path,
    size: f.size,
    checksum: f.checksum.toLowerCase(),
    mtime: f.mtime ?? null,
    chunks: f.chunks ?? [],
    diff: pushDiffOf(f, list),
  });
  return {
    added: changes.added.filter((f) => !isBlacklisted(f.path)).map((f) => plan(f, 'added')),
    updated: changes.updated.filter((f) => !isBlacklisted(f.path)).map((f) => plan(f, 'updated')),
    removed: changes.removed
      .filter((f) => !isBlacklisted(f.path))
      .map((f) => ({ path: f.path, size: f.size, checksum: f.checksum })),
  };
}

/** The failed_files reason of a refused diff: `sync error: …` (api-reference §1.9). */
function syncError(problem: HttpProblem): string {
  const detail = typeof problem.detail === 'string' ? problem.detail : problem.message;
  const at = detail.indexOf('sync error: ');
  return at >= 0 ? detail.slice(at) : `sync error: ${detail}`;
}

function chunkStore(ctx: AppContext): ChunkStore {
  return new ChunkStore(ctx);
}

/** POST /v2/projects/{id}/chunks: `body` is the raw request stream. */
export async function uploadChunkV2(
  ctx: AppContext,
  caller: User | null,
  projectId: string,
  body: AsyncIterable<Uint8Array | string>,
): Promise<{ id: string; valid_until: string }> {
  assertSignedIn(caller);
  const access = await projectFor(ctx, caller, { id: projectId }, 'upload');
  const now = ctx.now();
  const locked = projectLocked(access, now);
  if (locked) throw locked;
  // Expired chunks are removed by the scheduler's job (jobs/scheduler.ts).
  const store = chunkStore(ctx);
  try {
    const chunk = await store.write(access.project.id, body, now);
    return { id: chunk.id, valid_until: isoZ(new Date(now.getTime() + CHUNK_TTL_MS)) };
  } catch (error) {
    if (error instanceof ChunkTooBigError) throw coded(413, 'BigChunkError', BIG_CHUNK);
    throw error;
  }
}

/**
 * Concatenates a file's chunks (its diff's, for a diff update) into the blob store; null when
 * they do not make what the entry declares.
 */
async function assemble(
  ctx: AppContext,
  projectId: string,
  file: PlanFile,
): Promise<BlobInfo | null> {
  const store = chunkStore(ctx);
  const found = await store.find(projectId, file.chunks, ctx.now());
  const chunks: StoredChunk[] = [];
  for (const [index, id] of file.chunks.entries()) {
    const chunk = found.get(id);
    const expected = Math.min(CHUNK_SIZE, sentSize(file) - index * CHUNK_SIZE);
    if (!chunk || chunk.size !== expected) return null;
    chunks.push(chunk);
  }
  async function* bytes(): AsyncGenerator<Uint8Array> {
    for (const chunk of chunks) yield* store.read(chunk);
  }
  let blob: BlobInfo;
  try {
    blob = await ctx.blobStore.put(bytes(), { expectedSize: sentSize(file) });
  } catch (error) {
    ctx.log.warn({ err: error, path: file.path }, 'v2 push: a file could not be assembled');
    return null;
  }
  return blob.size === sentSize(file) && blob.sha1 === sentChecksum(file) ? blob : null;
}

/** POST /v2/projects/{id}/versions. Null for check_only (204). */
export async function pushVersionV2(
  ctx: AppContext,
  caller: User | null,
  projectId: string,
  input: PushV2Input,
  meta: Meta,
): Promise<ProjectV2View | null> {
  assertSignedIn(caller);
  let access = await projectFor(ctx, caller, { id: projectId }, 'upload');
  const { project } = access;
  const db = ctx.database.db;
  const now = ctx.now();
  const locked = projectLocked(access, now);
  if (locked) throw locked;

  const version = parsePushVersion(input.version);
  if (version !== project.latestVersion) throw versionExists(version, project.latestVersion);

  validateChanges(input.changes);
  const plan = planOf(input.changes);
  const current = new Map((await listCurrentFiles(db, project.id)).map((f) => [f.path, f]));
  if (plan.added.some((f) => current.has(f.path))) throw uploadError(ADDED_EXIST);
  if ([...plan.updated, ...plan.removed].some((f) => !current.has(f.path))) {
    throw uploadError(NOT_IN_PROJECT);
  }
  for (const file of plan.updated) {
    if (file.diff) asUploadError(() => checkDiffBase(file, current.get(file.path)!.checksum));
  }
  const extra =
    [...plan.added, ...plan.updated].reduce((sum, f) => sum + f.size, 0) -
    plan.updated.reduce((sum, f) => sum + (current.get(f.path)?.size ?? 0), 0) -
    plan.removed.reduce((sum, f) => sum + (current.get(f.path)?.size ?? 0), 0);
  const usage = await workspaceDiskUsage(db, access.workspace.id);
  if (extra > 0 && usage + extra > access.workspace.storage) {
    throw storageLimitHit(usage, access.workspace.storage);
  }
  if (input.check_only) return null;

  // The project's push lock, shared with the v1 push.
  const { upload, replaced } = await acquireUpload(
    db,
    {
      projectId: project.id,
      baseVersion: project.latestVersion,
      userId: caller.id,
      changes: plan,
      at: now,
    },
    new Date(now.getTime() - LOCK_EXPIRATION_MS),
  );
  const staging = uploadStagingFor(ctx.blobStore, ctx.config.dataDir);
  for (const id of replaced) await staging.remove(id);
  if (!upload) throw coded(409, ANOTHER_UPLOAD_RUNNING, 'Another process is running');

  try {
    const files = [...plan.added, ...plan.updated];
    const blobs: CommitFile[] = [];
    const failed: Record<string, string> = {};
    for (const file of files) {
      const blob = await assemble(ctx, project.id, file);
      if (!blob) failed[file.path] = 'corrupted';
      else if (file.diff) {
        // A diff update: the new file is the stored one with the diff applied.
        const result = await applyPushedDiff(ctx, project.id, file, blob.key).catch(
          (error: unknown) => {
            if (!(error instanceof HttpProblem)) throw error;
            failed[file.path] = syncError(error);
            return null;
          },
        );
        if (result) blobs.push(pushedFileEntry(file, blob, result));
      } else {
        blobs.push(pushedFileEntry(file, blob));
      }
    }
    if (Object.keys(failed).length > 0) {
      throw coded(422, DATA_SYNC_ERROR, DATA_SYNC_TEXT, { failed_files: failed });
    }
    try {
      await db.transaction(async (tx) => {
        await commitVersion(tx, {
          project: { id: project.id },
          author: caller,
          userAgent: meta.userAgent,
          ip: meta.ip,
          deviceId: meta.deviceId,
          added: blobs.slice(0, plan.added.length),
          updated: blobs.slice(plan.added.length),
          removed: plan.removed.map((f) => ({ path: f.path })),
          at: ctx.now(),
          baseVersion: upload.baseVersion,
          blobStore: ctx.blobStore,
        });
        await deleteUpload(tx, upload.id);
      });
    } catch (error) {
      if (error instanceof VersionMismatchError) {
        throw versionExists(version, error.latestVersion);
      }
      if (error instanceof InvalidChangesError) {
        throw coded(422, 'UploadError', `Project version could not be created: ${error.message}`);
      }
      throw error;
    }
    await chunkStore(ctx)
      .remove(files.flatMap((f) => f.chunks))
      .catch((error: unknown) => {
        // The version is made; leftovers go with the sweep job.
        ctx.log.warn({ err: error }, 'v2 push: used chunks could not be removed');
      });
  } finally {
    await deleteUpload(db, upload.id);
  }
  startChangesetWork(ctx);

  access = await projectFor(ctx, caller, { id: project.id }, 'read');
  return projectV2View(access, await listCurrentFiles(db, project.id));
}
