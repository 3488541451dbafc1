/**
 * The v1 push protocol (api-reference A.8, §1): push start, chunks, status, finish, cancel,
 * and the cleanup of abandoned uploads.
 *
 * - Push start runs the reference's checks in its order (§1.2) and takes the project's push
 *   lock (one upload row per project; a row without requests for LOCK_EXPIRATION_MS may be
 *   taken over). A push with removals only makes the version at once.
 * - Chunks are written straight to their offset in a per-file staging file (storage/
 *   upload-staging.ts), fsynced, then recorded; a repeated chunk rewrites the same bytes.
 * - Finish checks that every chunk arrived and that every file has its declared size and
 *   SHA-1 (streaming), then puts the files into the blob store and makes the version and
 *   drops the upload in one database transaction. A failed check keeps the upload, so the
 *   client can send the affected chunks again.
 */
import type { ClientMeta } from '../auth/sessions';
import type { AppContext } from '../context';
import { findVersion, listCurrentFiles } from '../db/queries/files';
import { workspaceDiskUsage } from '../db/queries/projects';
import {
  acquireUpload,
  claimUploadForFinish,
  deleteChunk,
  deleteUpload,
  deleteUploadsIdleSince,
  existingUploadIds,
  findUpload,
  listChunks,
  recordChunk,
  reopenUpload,
  touchUpload,
  type UploadRow,
} from '../db/queries/uploads';
import { forgetChunks, listFileChunks, resetDigestFrom } from '../db/queries/upload-digests';
import type { User } from '../db/schema';
import { badRequest, forbidden, HttpProblem, notFound } from '../errors';
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
import { blobKeyFromLeaves } from '../storage/blob-key';
import type { BlobInfo } from '../storage/blob-store';
import { uploadStagingFor } from '../storage/open-blob-store';
import { ChunkTooBigError, CHUNK_SIZE, type UploadStaging } from '../storage/upload-staging';
import { startChangesetWork } from './changesets';
import { storageLimitHit } from './clone';
import {
  assertSignedIn,
  canUseUpload,
  projectFor,
  reloadProjectAccess,
  isUuid,
  type ProjectRef,
} from './permissions';
import { projectDetail, type ProjectDetail } from './project-detail';
import {
  applyPushedDiff,
  checkDiffBase,
  pushDiffOf,
  type PushDiff,
  pushedFileEntry,
} from './push-diffs';
import { advanceDigest, followDigest, type StagedFileRef } from './push-digest';
import {
  commitVersion,
  InvalidChangesError,
  VersionMismatchError,
  type CommitFile,
} from './versions';

/** A push lock without requests for this long may be taken over (LOCKFILE_EXPIRATION). */
export const LOCK_EXPIRATION_MS = 5 * 60 * 1000;
/** Uploads without requests for this long are removed by the cleanup job. */
export const UPLOAD_EXPIRATION_MS = 24 * 3600 * 1000;
/**
 * How many chunks a file's running SHA-1 may fall behind the chunk being acknowledged (the
 * client's requests in flight, api-reference: 4) before chunk answers wait for it.
 */
const DIGEST_MAX_LAG = 4;
/** How often a running finish refreshes the upload's last_ping_at. */
const FINISH_PING_MS = 5000;

export const VERSION_MISMATCH = 'Version mismatch';
export const FIRST_PUSH_V0 = 'First push should be with v0';
export const NO_CHANGES = 'No changes';
export const NOT_UNIQUE = 'Not unique changes';
export const FILE_NOT_VALID = 'File is not valid';
export const ANOTHER_PROCESS = 'Another process is running. Please try later.';
export const NO_UPLOAD_PERMISSIONS = 'You do not have permissions for ongoing upload';
export const BIG_CHUNK = `Chunk size exceeds maximum allowed size ${(CHUNK_SIZE / 1024 / 1024).toFixed(1)} MB`;
export const UPLOAD_CANCELED = 'Upload was probably canceled';
export const UPLOAD_FINISHING = 'The upload is being finished';
export const PROJECT_LOCKED_CODE = 'ProjectLocked';
export const UPLOAD_ERROR_CODE = 'UploadError';
export const alreadyUploaded = (path: string) => `File ${path} has been already uploaded`;
export const notInProject = (path: string) => `File ${path} is not in the project`;
export const invalidChunks = (path: string, count: number) =>
  `File '${path}' must be sent in ${count} chunk(s) of at most 10 MB`;
export const invalidChecksum = (path: string) => `Invalid checksum of '${path}'`;
export const wrongChunkSize = (index: number, path: string, expected: number, actual: number) =>
  `Chunk ${index + 1} of '${path}' must be ${expected} bytes, received ${actual}`;
const MISMATCH = 'Files do not match their declared size or checksum';
const LOST = 'The staged bytes are lost, send these files again';
export const unknownChunk = (chunk: string) => `Chunk ${chunk} is not part of this upload`;

export interface PushFileInput {
  path: string;
  size: number;
  checksum: string;
  mtime?: string | null;
  chunks?: string[];
  diff?: unknown;
}

export interface PushInput {
  version?: string;
  changes: { added: PushFileInput[]; updated: PushFileInput[]; removed: PushFileInput[] };
}

/** An added or updated file of the stored plan. */
export interface PlanFile {
  path: string;
  size: number;
  checksum: string;
  mtime: string | null;
  chunks: string[];
  /** A GeoPackage diff update: the chunks hold this diff (services/push-diffs.ts). */
  diff?: PushDiff | null;
}

/** Bytes and SHA-1 of what the chunks of a plan file carry (the diff, for diff updates). */
const stagedSize = (file: PlanFile) => file.diff?.size ?? file.size;
const stagedChecksum = (file: PlanFile) => file.diff?.checksum ?? file.checksum;

export interface UploadPlan {
  added: PlanFile[];
  updated: PlanFile[];
  removed: { path: string; size: number; checksum: string }[];
}

export type PushResult = { transaction: string } | ProjectDetail;

export interface ChunkResult {
  checksum: string;
  size: number;
}

export interface UploadStatus {
  transaction: string;
  project: string;
  version: string;
  chunks_received: string[];
  /** Every received chunk id → how many times the server wrote it (1 unless sent again). */
  chunk_writes: Record<string, number>;
  files: { path: string; size: number; chunks: string[]; received: number }[];
  expires: string;
}

type Meta = ClientMeta & { deviceId: string | null };

/** A chunk of another length than its place in the file needs. */
class ChunkSizeError extends Error {
  constructor(
    readonly expected: number,
    readonly actual: number,
  ) {
    super(`Expected ${expected} bytes, received ${actual}`);
    this.name = 'ChunkSizeError';
  }
}

function staging(ctx: AppContext): UploadStaging {
  return uploadStagingFor(ctx.blobStore, ctx.config.dataDir);
}

function projectLocked(lockedUntil: Date | null, now: Date): HttpProblem | null {
  if (!lockedUntil || lockedUntil.getTime() <= now.getTime()) return null;
  return new HttpProblem(
    422,
    `The project is currently locked and you cannot make changes to it (${PROJECT_LOCKED_CODE})`,
    { extra: { code: PROJECT_LOCKED_CODE } },
  );
}

function uploadError(
  message: string,
  files: string[],
  extra: Record<string, unknown> = {},
): HttpProblem {
  return new HttpProblem(422, `${message} (${UPLOAD_ERROR_CODE})`, {
    extra: { code: UPLOAD_ERROR_CODE, files, ...extra },
  });
}

/** `v12` → 12 (every `v` and whitespace stripped, like the reference); null when invalid. */
export function parsePushVersion(text: string | undefined): number | null {
  const digits = (text ?? 'v0').replace(/[v\s]/g, '');
  if (!/^\d+$/.test(digits)) return null;
  const n = Number(digits);
  return Number.isSafeInteger(n) ? n : null;
}

/** The structural checks of §1.2 step 5, plus the chunk plan this server needs. */
function validateChanges(changes: PushInput['changes']): void {
  const { added, updated, removed } = changes;
  if (added.length + updated.length + removed.length === 0) throw badRequest(NO_CHANGES);
  const paths = new Set<string>();
  for (const file of [...added, ...updated, ...removed]) {
    if (paths.has(file.path)) throw badRequest(NOT_UNIQUE);
    paths.add(file.path);
  }
  const chunkIds = new Set<string>();
  for (const file of [...added, ...updated]) {
    if (isVersionedFile(file.path) && file.size === 0) throw badRequest(FILE_NOT_VALID);
    if (isUnsupportedName(file.path)) throw badRequest(unsupportedName(file.path));
    if (isUnsupportedType(file.path)) throw badRequest(unsupportedType(file.path));
    if (added.includes(file) && hasTrailingSpaceFolder(file.path)) {
      throw badRequest(trailingSpace(file.path));
    }
    const diff = pushDiffOf(file, added.includes(file) ? 'added' : 'updated');
    if (!/^[0-9a-fA-F]{40}$/.test(file.checksum)) throw badRequest(invalidChecksum(file.path));
    const chunks = file.chunks ?? [];
    const expected = Math.ceil((diff?.size ?? file.size) / CHUNK_SIZE);
    if (chunks.length !== expected) throw badRequest(invalidChunks(file.path, expected));
    for (const chunk of chunks) {
      if (chunkIds.has(chunk)) throw badRequest(NOT_UNIQUE);
      chunkIds.add(chunk);
    }
  }
  for (const file of removed) {
    if (isUnsupportedName(file.path)) throw badRequest(unsupportedName(file.path));
  }
}

function planFile(file: PushFileInput): PlanFile {
  return {
    path: file.path,
    size: file.size,
    checksum: file.checksum.toLowerCase(),
    mtime: file.mtime ?? null,
    chunks: file.chunks ?? [],
    diff: pushDiffOf(file, 'updated'),
  };
}

/** Added and updated files in plan order (the staging file index is the position here). */
function stagedFiles(plan: UploadPlan): PlanFile[] {
  return [...plan.added, ...plan.updated];
}

/** POST /v1/project/push/{namespace}/{name}. */
export async function startPush(
  ctx: AppContext,
  caller: User | null,
  ref: ProjectRef,
  input: PushInput,
  meta: Meta,
): Promise<PushResult> {
  assertSignedIn(caller);
  const access = await projectFor(ctx, caller, ref, 'upload');
  const db = ctx.database.db;
  const { project } = access;
  const now = ctx.now();

  const locked = projectLocked(project.lockedUntil, now);
  if (locked) throw locked;

  const version = parsePushVersion(input.version);
  const hasV0 = project.latestVersion > 0 || (await findVersion(db, project.id, 0)) !== null;
  if (!hasV0) {
    if (version !== 0) throw badRequest(FIRST_PUSH_V0);
  } else if (version !== project.latestVersion) {
    throw badRequest(VERSION_MISMATCH);
  }

  validateChanges(input.changes);
  const raw = input.changes;
  const plan: UploadPlan = {
    added: raw.added.filter((f) => !isBlacklisted(f.path)).map(planFile),
    updated: raw.updated.filter((f) => !isBlacklisted(f.path)).map(planFile),
    removed: raw.removed
      .filter((f) => !isBlacklisted(f.path))
      .map((f) => ({ path: f.path, size: f.size, checksum: f.checksum })),
  };

  const current = new Map((await listCurrentFiles(db, project.id)).map((f) => [f.path, f]));
  for (const file of plan.added) {
    if (current.has(file.path)) throw badRequest(alreadyUploaded(file.path));
  }
  // Stricter than the reference (commitVersion's rule): updated and removed paths must exist.
  for (const file of [...plan.updated, ...plan.removed]) {
    if (!current.has(file.path)) throw badRequest(notInProject(file.path));
  }
  for (const file of plan.updated) {
    if (file.diff) checkDiffBase(file, current.get(file.path)!.checksum);
  }

  const extra =
    [...plan.added, ...plan.updated].reduce((sum, f) => sum + f.size, 0) -
    plan.updated.reduce((sum, f) => sum + (current.get(f.path)?.size ?? 0), 0) -
    plan.removed.reduce((sum, f) => sum + (current.get(f.path)?.size ?? 0), 0);
  const usage = await workspaceDiskUsage(db, access.workspace.id);
  if (usage + extra > access.workspace.storage) {
    throw storageLimitHit(usage, access.workspace.storage);
  }

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
  for (const id of replaced) await staging(ctx).remove(id);
  if (!upload) throw badRequest(ANOTHER_PROCESS);
  if (replaced.length > 0) {
    ctx.log.info({ project: project.id, replaced }, 'Push artefact removed by subsequent push');
  }

  if (raw.added.length > 0 || raw.updated.length > 0) return { transaction: upload.id };

  // Removals only: the version is made at once.
  try {
    await db.transaction(async (tx) => {
      await commitVersion(tx, {
        project,
        author: caller,
        userAgent: meta.userAgent,
        ip: meta.ip,
        deviceId: meta.deviceId,
        removed: plan.removed.map((f) => ({ path: f.path })),
        at: now,
        baseVersion: upload.baseVersion,
        blobStore: ctx.blobStore,
      });
      await deleteUpload(tx, upload.id);
    });
  } catch (error) {
    await deleteUpload(db, upload.id);
    if (error instanceof VersionMismatchError) throw badRequest(VERSION_MISMATCH);
    if (error instanceof InvalidChangesError) {
      throw new HttpProblem(422, 'Failed to upload a new project version. Please try later.');
    }
    throw error;
  }
  return projectDetail(ctx, await reloadProjectAccess(ctx, access));
}

/** The caller's upload `transaction` (404 unknown, 403 another user's). */
async function ownUpload(
  ctx: AppContext,
  caller: User | null,
  transaction: string,
): Promise<{ upload: UploadRow; plan: UploadPlan; lockedUntil: Date | null }> {
  assertSignedIn(caller);
  if (!isUuid(transaction)) throw notFound();
  const found = await findUpload(ctx.database.db, transaction.toLowerCase());
  if (!found || found.projectRemovedAt) throw notFound();
  if (!canUseUpload(caller, found.upload.userId)) throw forbidden(NO_UPLOAD_PERMISSIONS);
  return {
    upload: found.upload,
    plan: found.upload.changes as UploadPlan,
    lockedUntil: found.projectLockedUntil,
  };
}

/** POST /v1/project/push/chunk/{transaction}/{chunk}: `body` is the raw request stream. */
export async function uploadChunk(
  ctx: AppContext,
  caller: User | null,
  transaction: string,
  chunkId: string,
  body: AsyncIterable<Uint8Array | string>,
): Promise<ChunkResult> {
  const { upload, plan } = await ownUpload(ctx, caller, transaction);
  const files = stagedFiles(plan);
  const fileIndex = files.findIndex((f) => f.chunks.includes(chunkId));
  if (fileIndex < 0) throw notFound(unknownChunk(chunkId));
  const stale = upload.lastPingAt.getTime() < ctx.now().getTime() - LOCK_EXPIRATION_MS;
  if (upload.status !== 'open' && !stale) throw badRequest(UPLOAD_FINISHING);
  const file = files[fileIndex]!;
  const chunkIndex = file.chunks.indexOf(chunkId);
  const db = ctx.database.db;
  const store = staging(ctx);

  const expectedSize = Math.min(CHUNK_SIZE, stagedSize(file) - chunkIndex * CHUNK_SIZE);

  let written: { size: number; sha1: string; sha256: string };
  try {
    written = await store.writeChunk(upload.id, fileIndex, chunkIndex * CHUNK_SIZE, body, {
      limit: CHUNK_SIZE,
      truncate: chunkIndex === file.chunks.length - 1,
    });
    if (written.size !== expectedSize) throw new ChunkSizeError(expectedSize, written.size);
  } catch (error) {
    // The chunk's place may hold a part of the failed bytes: it is no longer received.
    if (await deleteChunk(db, upload.id, chunkId)) {
      await resetDigestFrom(db, upload.id, fileIndex, chunkIndex);
    }
    if (error instanceof ChunkTooBigError) {
      throw new HttpProblem(400, `${BIG_CHUNK} (BigChunkError)`, {
        extra: { code: 'BigChunkError' },
      });
    }
    if (error instanceof ChunkSizeError) {
      throw badRequest(wrongChunkSize(chunkIndex, file.path, error.expected, error.actual));
    }
    throw error;
  }
  const { recorded, previous } = await recordChunk(db, {
    uploadId: upload.id,
    chunkId,
    filePath: file.path,
    chunkIndex,
    size: written.size,
    sha1: written.sha1,
    sha256: written.sha256,
    at: ctx.now(),
  });
  if (!recorded) {
    // The upload vanished meanwhile (cancel, takeover).
    await store.remove(upload.id);
    throw badRequest(UPLOAD_CANCELED);
  }
  if (previous && previous.sha1 !== written.sha1) {
    // Other bytes than before: the file's running SHA-1 must be computed again.
    await resetDigestFrom(db, upload.id, fileIndex, chunkIndex);
  }
  await followDigest(
    db,
    store,
    stagedRef(upload.id, fileIndex, file),
    chunkIndex,
    DIGEST_MAX_LAG,
    (error) => {
      // Only a head start: finish hashes whatever is left.
      ctx.log.warn({ err: error, upload: upload.id }, 'Could not advance the file digest');
    },
  );
  return { checksum: written.sha1, size: written.size };
}

/** GET /v1/project/push/{transaction}: what the server holds, so a client can resume. */
export async function uploadStatus(
  ctx: AppContext,
  caller: User | null,
  transaction: string,
): Promise<UploadStatus> {
  const { upload, plan } = await ownUpload(ctx, caller, transaction);
  const chunks = await listChunks(ctx.database.db, upload.id);
  const sizes = new Map(chunks.map((c) => [c.chunkId, c.size]));
  return {
    transaction: upload.id,
    project: upload.projectId,
    version: `v${upload.baseVersion}`,
    chunks_received: chunks.map((c) => c.chunkId),
    chunk_writes: Object.fromEntries(chunks.map((c) => [c.chunkId, c.writes])),
    files: stagedFiles(plan).map((f) => ({
      path: f.path,
      size: stagedSize(f),
      chunks: f.chunks,
      received: f.chunks.reduce((sum, id) => sum + (sizes.get(id) ?? 0), 0),
    })),
    expires: isoZ(new Date(upload.lastPingAt.getTime() + UPLOAD_EXPIRATION_MS)),
  };
}

/** A staged file of the plan, for push-digest.ts. */
function stagedRef(uploadId: string, fileIndex: number, file: PlanFile): StagedFileRef {
  return {
    uploadId,
    fileIndex,
    path: file.path,
    size: stagedSize(file),
    chunkCount: file.chunks.length,
  };
}

/**
 * A staged file's size and SHA-1 (from the running digest, so only chunks not hashed yet
 * are read) and its blob key (made from its chunks' SHA-256 leaves); null when they do not
 * match the plan.
 */
async function verifyStagedFile(
  ctx: AppContext,
  store: UploadStaging,
  uploadId: string,
  fileIndex: number,
  file: PlanFile,
): Promise<BlobInfo | null> {
  const db = ctx.database.db;
  const digest = await advanceDigest(db, store, stagedRef(uploadId, fileIndex, file));
  const chunks = await listFileChunks(db, uploadId, file.path);
  const leaves = chunks.map((c) => c.sha256);
  if (chunks.length !== file.chunks.length || leaves.some((leaf) => !leaf)) return null;
  const info: BlobInfo = {
    key: blobKeyFromLeaves(leaves.map((leaf) => Buffer.from(leaf ?? '', 'hex'))),
    size: chunks.reduce((sum, c) => sum + c.size, 0),
    sha1: digest.sha1 ?? '',
  };
  return info.size === stagedSize(file) && info.sha1 === stagedChecksum(file) ? info : null;
}

/** 422 naming `paths`; their chunks are forgotten, so a resuming client sends them again. */
async function rejectStagedFiles(
  ctx: AppContext,
  uploadId: string,
  files: PlanFile[],
  bad: number[],
  message: string,
): Promise<never> {
  for (const index of bad) {
    await forgetChunks(ctx.database.db, uploadId, index, files[index]!.chunks);
  }
  const paths = bad.map((index) => files[index]!.path);
  throw uploadError(`${message}: ${paths.join(', ')}`, paths);
}

/** POST /v1/project/push/finish/{transaction}. */
export async function finishPush(
  ctx: AppContext,
  caller: User | null,
  transaction: string,
  meta: Meta,
): Promise<ProjectDetail> {
  const { upload, plan, lockedUntil } = await ownUpload(ctx, caller, transaction);
  const locked = projectLocked(lockedUntil, ctx.now());
  if (locked) throw locked;
  const access = await projectFor(ctx, caller, { id: upload.projectId }, 'upload');
  const db = ctx.database.db;
  const now = ctx.now();
  const claimed = await claimUploadForFinish(
    db,
    upload.id,
    now,
    new Date(now.getTime() - LOCK_EXPIRATION_MS),
  );
  if (!claimed) throw badRequest(ANOTHER_PROCESS);

  const ping = setInterval(() => {
    touchUpload(db, upload.id, ctx.now()).catch(() => {});
  }, FINISH_PING_MS);
  ping.unref();
  let done = false;
  try {
    const files = stagedFiles(plan);
    const chunks = new Map((await listChunks(db, upload.id)).map((c) => [c.chunkId, c]));
    const missing = files.flatMap((f) => f.chunks.filter((id) => !chunks.has(id)));
    if (missing.length > 0) {
      const paths = files.filter((f) => f.chunks.some((id) => !chunks.has(id))).map((f) => f.path);
      throw uploadError(`Missing chunks of ${paths.join(', ')}`, paths, {
        missing_chunks: missing,
      });
    }

    const store = staging(ctx);
    const infos: (BlobInfo | null)[] = [];
    for (const [index, file] of files.entries()) {
      infos.push(await verifyStagedFile(ctx, store, upload.id, index, file));
    }
    const mismatched = files.flatMap((_, index) => (infos[index] ? [] : [index]));
    if (mismatched.length > 0) {
      await rejectStagedFiles(ctx, upload.id, files, mismatched, MISMATCH);
    }
    const blobs: CommitFile[] = [];
    const lost: number[] = [];
    for (const [index, file] of files.entries()) {
      // Into the blob store without reading it again; a file placed by an earlier finish
      // that failed afterwards is found there; null when its bytes are gone.
      const blob = await store.place(upload.id, index, infos[index]!);
      if (!blob) lost.push(index);
      else if (file.diff) {
        // A diff update: the new file is the stored one with the diff applied.
        const result = await applyPushedDiff(ctx, upload.projectId, file, blob.key).catch(
          async (error: unknown) => {
            // Refused (the diff does not apply): like a failed version, the upload goes.
            if (error instanceof HttpProblem) {
              done = true;
              await deleteUpload(db, upload.id);
              await store.remove(upload.id);
            }
            throw error;
          },
        );
        blobs.push(pushedFileEntry(file, blob, result));
      } else {
        blobs.push(pushedFileEntry(file, blob));
      }
    }
    if (lost.length > 0) await rejectStagedFiles(ctx, upload.id, files, lost, LOST);
    const added = blobs.slice(0, plan.added.length);
    const updated = blobs.slice(plan.added.length);

    try {
      await db.transaction(async (tx) => {
        if (!(await deleteUpload(tx, upload.id))) throw badRequest(UPLOAD_CANCELED);
        await commitVersion(tx, {
          project: { id: upload.projectId },
          author: caller,
          userAgent: meta.userAgent,
          ip: meta.ip,
          deviceId: meta.deviceId,
          added,
          updated,
          removed: plan.removed.map((f) => ({ path: f.path })),
          at: ctx.now(),
          baseVersion: upload.baseVersion,
          blobStore: ctx.blobStore,
        });
      });
    } catch (error) {
      // Like the reference: a refused version clears the upload. Any other failure (the
      // database or blob store failing midway) rolled back and keeps it for a retry.
      const refused =
        error instanceof VersionMismatchError ||
        error instanceof InvalidChangesError ||
        (error instanceof HttpProblem && error.status < 500);
      if (!refused) throw error;
      done = true;
      await deleteUpload(db, upload.id);
      await store.remove(upload.id);
      if (error instanceof VersionMismatchError) throw badRequest(VERSION_MISMATCH);
      if (error instanceof InvalidChangesError) {
        throw new HttpProblem(422, `Failed to create new version: ${error.message}`);
      }
      throw error;
    }
    done = true;
    // Row-level changesets of updated GeoPackages: computed in the background.
    startChangesetWork(ctx);
    await store.remove(upload.id);
    return projectDetail(ctx, await reloadProjectAccess(ctx, access));
  } finally {
    clearInterval(ping);
    if (!done) await reopenUpload(db, upload.id, ctx.now());
  }
}

/** POST /v1/project/push/cancel/{transaction}. */
export async function cancelPush(
  ctx: AppContext,
  caller: User | null,
  transaction: string,
): Promise<void> {
  const { upload } = await ownUpload(ctx, caller, transaction);
  await deleteUpload(ctx.database.db, upload.id);
  await staging(ctx).remove(upload.id);
}

export interface UploadCleanupResult {
  uploads: number;
  folders: number;
}

/**
 * The scheduled job UPLOAD_CLEANUP_JOB: removes uploads without requests for
 * UPLOAD_EXPIRATION_MS and their staging folders, and staging folders without an upload.
 */
export async function cleanupUploads(ctx: AppContext): Promise<UploadCleanupResult> {
  const db = ctx.database.db;
  const store = staging(ctx);
  const expired = await deleteUploadsIdleSince(
    db,
    new Date(ctx.now().getTime() - UPLOAD_EXPIRATION_MS),
  );
  for (const id of expired) await store.remove(id);
  const folders = await store.list();
  const live = await existingUploadIds(db, folders);
  const orphans = folders.filter((id) => !live.has(id));
  for (const id of orphans) await store.remove(id);
  const result = { uploads: expired.length, folders: orphans.length };
  if (result.uploads + result.folders > 0) {
    ctx.log.info(result, `Removed ${result.uploads} abandoned upload(s)`);
  }
  return result;
}
