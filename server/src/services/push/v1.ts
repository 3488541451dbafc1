/**
 * The v1 push protocol (api-reference A.8, §1) on the push core: start, chunks, status,
 * finish, cancel. What is v1's own: the transaction (chunks staged per file, resumable, the
 * status call), and how refusals are answered (400 with the reference's texts, 422
 * ProjectLocked / UploadError).
 *
 * - Chunks are written straight to their offset in the transaction's staged file
 *   (storage/staging.ts), durable before they are acknowledged; a repeated chunk rewrites
 *   the same bytes. The running SHA-1 follows them (digest.ts).
 * - Finish checks that every chunk arrived and that every file has its declared size and
 *   SHA-1, places the files into the blob store and makes the version (commit.ts). Files
 *   that do not match are named in a 422 UploadError and their chunks forgotten: the
 *   transaction stays open, so the client may send them again or cancel
 *   (docs/decisions/0087-failed-finish.md).
 */
import { reportUploadFailure } from '../webhooks/upload-failed';
import type { AppContext } from '../../context';
import { listChunks, deleteChunk, deleteUpload, recordChunk } from '../../db/queries/uploads';
import { forgetChunks } from '../../db/queries/upload-chunks';
import { findPushCommit } from '../../db/queries/push-records';
import type { User } from '../../db/schema';
import { badRequest, HttpProblem, notFound } from '../../errors';
import { isoZ } from '../../lib/time';
import type { BlobInfo } from '../../storage/blob-store';
import {
  ChunkInterrupted,
  ChunkTooBigError,
  CHUNK_SIZE,
  stagingOf,
  type ChunkWritten,
} from '../../storage/staging';
import { CHUNK_PREFIX_GONE } from '../../schemas/protocol';
import {
  beginChunkWrite,
  endChunkWrite,
  forgetPrefixes,
  isLatestWrite,
  prefixesOf,
} from './chunk-prefixes';
import { startChangesetWork } from '../changesets';
import {
  assertSignedIn,
  isUuid,
  projectFor,
  reloadProjectAccess,
  uploadFor,
  type ProjectRef,
} from '../permissions';
import { projectDetail, type ProjectDetail } from '../project-detail';
import { placeStaged, stagedRef, verifyStaged, withDiff } from './assemble';
import { PUSH_REFUSALS } from '../../schemas/protocol';
import { commitPush, type PushMeta } from './commit';
import type { PushDialect } from './dialect';
import {
  chunkChanged,
  digestNextChunk,
  followDigest,
  forgetHeld,
  holdChunk,
  type ReceivedFrom,
} from './digest';
import { claimFinish, finishRunning, lockedProblem, takePushLock } from './lock';
import { stagedSize, type PlanFile, type PushChanges } from './plan';
import { forgetPlan, uploadPlan } from './plan-cache';
import { BIG_CHUNK, FIRST_PUSH_V0, UPLOAD_ERROR_CODE, VERSION_MISMATCH } from './rules';
import { checkPush } from './start';
import type { CommitFile } from '../versions';

/** Uploads without requests for this long are removed by the sweep job. */
export const UPLOAD_EXPIRATION_MS = 24 * 3600 * 1000;
/**
 * How many chunks a file's running SHA-1 may fall behind the chunk being acknowledged (the
 * client's requests in flight, api-reference: 4) before chunk answers wait for it.
 */
const DIGEST_MAX_LAG = 4;

export const PROJECT_LOCKED_CODE = 'ProjectLocked';
export const alreadyUploaded = (path: string) => `File ${path} has been already uploaded`;
export const notInProject = (path: string) => `File ${path} is not in the project`;
export const wrongChunkSize = (index: number, path: string, expected: number, actual: number) =>
  `Chunk ${index + 1} of '${path}' must be ${expected} bytes, received ${actual}`;
export const unknownChunk = (chunk: string) => `Chunk ${chunk} is not part of this upload`;
export const prefixGone = (offset: number) =>
  `The server does not hold the first ${offset} bytes of this chunk: send it whole`;
const LOST = 'The staged bytes are lost, send these files again';

export type PushInput = { version?: string; changes: PushChanges };
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
  /** Partly received chunks the client may continue (chunk-prefixes.ts): id → bytes held. */
  chunk_prefixes: Record<string, number>;
  files: { path: string; size: number; chunks: string[]; received: number }[];
  expires: string;
}

/** v1's words for the core's refusals. */
export const v1Dialect: PushDialect = {
  invalid: (text) => badRequest(text),
  version(client, server, hasV0) {
    if (!hasV0) return client === 0 ? null : badRequest(FIRST_PUSH_V0);
    return client === server ? null : badRequest(VERSION_MISMATCH);
  },
  locked: () =>
    new HttpProblem(
      422,
      `The project is currently locked and you cannot make changes to it (${PROJECT_LOCKED_CODE})`,
      { extra: { code: PROJECT_LOCKED_CODE } },
    ),
  busy: () => badRequest(PUSH_REFUSALS.anotherProcess),
  addedExists: (path) => badRequest(alreadyUploaded(path)),
  notInProject: (path) => badRequest(notInProject(path)),
  versionMoved: () => badRequest(VERSION_MISMATCH),
  commitRefused: (message) => new HttpProblem(422, `Failed to create new version: ${message}`),
  sharedChunks: false,
};

/** A removal-only push makes its version in the start call, with the reference's text. */
const removalDialect: PushDialect = {
  ...v1Dialect,
  commitRefused: () =>
    new HttpProblem(422, 'Failed to upload a new project version. Please try later.'),
};

function uploadError(
  message: string,
  files: string[],
  extra: Record<string, unknown> = {},
): HttpProblem {
  return new HttpProblem(422, `${message} (${UPLOAD_ERROR_CODE})`, {
    extra: { code: UPLOAD_ERROR_CODE, files, ...extra },
  });
}

/** A refusal that ends the transaction (like the reference); anything else keeps it. */
const isRefusal = (error: unknown) => error instanceof HttpProblem && error.status < 500;

/** POST /v1/project/push/{namespace}/{name}. */
export async function startPush(
  ctx: AppContext,
  caller: User | null,
  ref: ProjectRef,
  input: PushInput,
  meta: PushMeta,
): Promise<PushResult> {
  assertSignedIn(caller);
  const access = await projectFor(ctx, caller, ref, 'upload');
  const { plan, clientVersion } = await checkPush(ctx, access, input, v1Dialect);
  const { upload } = await takePushLock(
    ctx,
    {
      projectId: access.project.id,
      baseVersion: access.project.latestVersion,
      userId: caller.id,
      plan,
      status: 'open',
    },
    v1Dialect,
  );
  if (input.changes.added.length > 0 || input.changes.updated.length > 0) {
    return { transaction: upload.id };
  }
  // Removals only: the version is made at once.
  try {
    await commitPush(ctx, { upload, plan, files: [], caller, meta, clientVersion }, removalDialect);
  } catch (error) {
    await deleteUpload(ctx.database.db, upload.id);
    throw error;
  }
  return projectDetail(ctx, await reloadProjectAccess(ctx, access));
}

/** The caller's upload `transaction` (permissions' uploadFor) with its plan; 404 without one. */
async function transactionOf(ctx: AppContext, caller: User | null, transaction: string) {
  const found = await uploadFor(ctx, caller, transaction);
  const cached = await uploadPlan(ctx.database.db, found.upload.id);
  if (!cached) throw notFound();
  return { upload: found.upload, ...cached, lockedUntil: found.projectLockedUntil };
}

/** transactionOf, for a caller who must still be allowed to push to its project. */
async function transactionToPush(ctx: AppContext, caller: User | null, transaction: string) {
  const own = await transactionOf(ctx, caller, transaction);
  const access = await projectFor(ctx, caller, { id: own.upload.projectId }, 'upload');
  return { ...own, access };
}

/**
 * What a chunk request needs resolved before its body: the caller's own upload
 * `transaction`, its plan, and the caller still allowed to push to its project. The chunks
 * of one upload may reuse it for a few seconds (routes/push.ts): the upload's state that
 * matters is read again where it is used (the chunk's record; a finish running here).
 */
export type ChunkTarget = Awaited<ReturnType<typeof transactionToPush>>;

export function chunkTarget(
  ctx: AppContext,
  caller: User | null,
  transaction: string,
): Promise<ChunkTarget> {
  return transactionToPush(ctx, caller, transaction);
}

/** POST /v1/project/push/chunk/{transaction}/{chunk}: `body` is the raw request stream. */
export async function uploadChunk(
  ctx: AppContext,
  target: ChunkTarget,
  chunkId: string,
  body: AsyncIterable<Uint8Array | string>,
  offset = 0,
): Promise<ChunkResult> {
  const { upload, files, chunks } = target;
  const place = chunks.get(chunkId);
  if (!place) throw notFound(unknownChunk(chunkId));
  if (finishRunning(ctx, upload)) throw badRequest(PUSH_REFUSALS.finishing);
  const { fileIndex, chunkIndex } = place;
  const file = files[fileIndex]!;
  const db = ctx.database.db;
  const staging = stagingOf(ctx.blobStore);
  const expectedSize = Math.min(CHUNK_SIZE, stagedSize(file) - chunkIndex * CHUNK_SIZE);

  // A body from `offset` on continues the prefix kept when an earlier request broke off.
  const write = beginChunkWrite(upload.id, chunkId, offset, ctx.now().getTime());
  if (offset > 0 && !write.from) {
    endChunkWrite(upload.id, chunkId, write.token, null, ctx.now().getTime());
    throw new HttpProblem(409, `${prefixGone(offset)} (${CHUNK_PREFIX_GONE})`, {
      extra: { code: CHUNK_PREFIX_GONE },
    });
  }
  let written: ChunkWritten;
  try {
    // Its SHA-1 and SHA-256 leaf come from the one pass that stores it, and its bytes are
    // kept for the file's running SHA-1 (digest.ts): nothing is read back for hashing.
    written = await staging.writeChunk(upload.id, fileIndex, chunkIndex * CHUNK_SIZE, body, {
      limit: CHUNK_SIZE,
      truncate: chunkIndex === file.chunks.length - 1,
      keep: expectedSize,
      ...(write.from ? { from: write.from } : {}),
    });
  } catch (error) {
    const interrupted = error instanceof ChunkInterrupted ? error.intake : null;
    // Only a prefix shorter than the chunk can be continued.
    const kept = interrupted && interrupted.size < expectedSize ? interrupted : null;
    // Its record goes before its prefix is told: a client continuing from the prefix must
    // not have its chunk's record removed by this request's late cleanup. A newer request
    // for the chunk owns the record from the moment it started.
    if (isLatestWrite(upload.id, chunkId, write.token)) {
      await forgetChunk(ctx, upload.id, chunkId, fileIndex, chunkIndex);
    }
    endChunkWrite(upload.id, chunkId, write.token, kept, ctx.now().getTime());
    if (error instanceof ChunkInterrupted) throw error.cause;
    if (error instanceof ChunkTooBigError) {
      throw new HttpProblem(400, `${BIG_CHUNK} (BigChunkError)`, {
        extra: { code: 'BigChunkError' },
      });
    }
    throw error;
  }
  endChunkWrite(upload.id, chunkId, write.token, null, ctx.now().getTime());
  if (written.size !== expectedSize) {
    await forgetChunk(ctx, upload.id, chunkId, fileIndex, chunkIndex);
    throw badRequest(wrongChunkSize(chunkIndex, file.path, expectedSize, written.size));
  }
  const from = digestNextChunk(upload.id, fileIndex);
  const { recorded, previous, received } = await recordChunk(
    db,
    {
      uploadId: upload.id,
      chunkId,
      filePath: file.path,
      fileIndex,
      chunkIndex,
      size: written.size,
      sha1: written.sha1,
      sha256: written.sha256 ?? '',
      at: ctx.now(),
    },
    from,
  );
  if (!recorded) {
    // The upload vanished meanwhile (cancel, takeover).
    forgetMemory(upload.id);
    await staging.remove(upload.id);
    throw badRequest(PUSH_REFUSALS.canceled);
  }
  let preload: ReceivedFrom | null = { from, received };
  if (previous && previous.sha1 !== written.sha1) {
    // Other bytes than before: the file's running SHA-1 must be computed again.
    chunkChanged(upload.id, fileIndex, chunkIndex);
    preload = null;
  }
  if (written.bytes) holdChunk(upload.id, fileIndex, chunkIndex, written.sha1, written.bytes);
  await followDigest(
    db,
    staging,
    stagedRef(upload.id, fileIndex, file),
    chunkIndex,
    DIGEST_MAX_LAG,
    (error) => {
      // Only a head start: finish hashes whatever is left.
      ctx.log.warn({ err: error, upload: upload.id }, 'Could not advance the file digest');
    },
    preload,
  );
  return { checksum: written.sha1, size: written.size };
}

/** Drops what this process holds of an upload beside its staging (held bytes, prefixes). */
function forgetMemory(uploadId: string): void {
  forgetHeld(uploadId);
  forgetPrefixes(uploadId);
}

/** A chunk whose place may hold a part of failed bytes is no longer received. */
async function forgetChunk(
  ctx: AppContext,
  uploadId: string,
  chunkId: string,
  fileIndex: number,
  chunkIndex: number,
): Promise<void> {
  if (await deleteChunk(ctx.database.db, uploadId, chunkId)) {
    chunkChanged(uploadId, fileIndex, chunkIndex);
  }
}

/** GET /v1/project/push/{transaction}: what the server holds, so a client can resume. */
export async function uploadStatus(
  ctx: AppContext,
  caller: User | null,
  transaction: string,
): Promise<UploadStatus> {
  const { upload, files } = await transactionOf(ctx, caller, transaction);
  const chunks = await listChunks(ctx.database.db, upload.id);
  const sizes = new Map(chunks.map((c) => [c.chunkId, c.size]));
  return {
    transaction: upload.id,
    project: upload.projectId,
    version: `v${upload.baseVersion}`,
    chunks_received: chunks.map((c) => c.chunkId),
    chunk_writes: Object.fromEntries(chunks.map((c) => [c.chunkId, c.writes])),
    chunk_prefixes: prefixesOf(upload.id, ctx.now().getTime()),
    files: files.map((f) => ({
      path: f.path,
      size: stagedSize(f),
      chunks: f.chunks,
      received: f.chunks.reduce((sum, id) => sum + (sizes.get(id) ?? 0), 0),
    })),
    expires: isoZ(new Date(upload.lastPingAt.getTime() + UPLOAD_EXPIRATION_MS)),
  };
}

/** 422 naming the files at `bad`; their chunks are forgotten, so a resuming client sends them again. */
async function rejectFiles(
  ctx: AppContext,
  uploadId: string,
  files: PlanFile[],
  bad: number[],
  message: string,
): Promise<never> {
  for (const index of bad) {
    await forgetChunks(ctx.database.db, uploadId, files[index]!.chunks);
    chunkChanged(uploadId, index, 0);
  }
  // Their chunks go again whole.
  forgetPrefixes(uploadId);
  const paths = bad.map((index) => files[index]!.path);
  throw uploadError(`${message}: ${paths.join(', ')}`, paths);
}

/**
 * A finish for a transaction that is gone: when it made a version for this caller (the
 * answer was lost, or the server stopped right after the commit), that version's project.
 */
async function finishedEarlier(
  ctx: AppContext,
  caller: User,
  transaction: string,
): Promise<ProjectDetail | null> {
  if (!isUuid(transaction)) return null;
  const commit = await findPushCommit(ctx.database.db, transaction.toLowerCase());
  if (!commit || commit.userId !== caller.id) return null;
  const access = await projectFor(ctx, caller, { id: commit.projectId }, 'read');
  return projectDetail(ctx, access);
}

/** POST /v1/project/push/finish/{transaction}. */
export async function finishPush(
  ctx: AppContext,
  caller: User | null,
  transaction: string,
  meta: PushMeta,
): Promise<ProjectDetail> {
  assertSignedIn(caller);
  let own;
  try {
    own = await transactionToPush(ctx, caller, transaction);
  } catch (error) {
    const earlier =
      error instanceof HttpProblem && error.status === 404
        ? await finishedEarlier(ctx, caller, transaction)
        : null;
    if (earlier) return earlier;
    throw error;
  }
  const { upload, plan, files, lockedUntil, access } = own;
  const locked = lockedProblem(lockedUntil, ctx.now(), v1Dialect);
  if (locked) throw locked;
  const lease = await claimFinish(ctx, upload.id);
  if (!lease) throw badRequest(PUSH_REFUSALS.anotherProcess);

  const db = ctx.database.db;
  const staging = stagingOf(ctx.blobStore);
  let ended = false;
  try {
    const chunks = new Set((await listChunks(db, upload.id)).map((c) => c.chunkId));
    const missing = files.flatMap((f) => f.chunks.filter((id) => !chunks.has(id)));
    if (missing.length > 0) {
      const paths = files.filter((f) => f.chunks.some((id) => !chunks.has(id))).map((f) => f.path);
      throw uploadError(`Missing chunks of ${paths.join(', ')}`, paths, {
        missing_chunks: missing,
      });
    }

    const infos: (BlobInfo | null)[] = [];
    for (const [index, file] of files.entries()) {
      infos.push(await verifyStaged(ctx, upload.id, index, file));
    }
    const mismatched = files.flatMap((_, index) => (infos[index] ? [] : [index]));
    if (mismatched.length > 0)
      await rejectFiles(ctx, upload.id, files, mismatched, PUSH_REFUSALS.filesMismatch);

    // Into the blob store without reading it again; a file placed by an earlier finish that
    // failed afterwards is found there; null when its bytes are gone.
    const placed: (BlobInfo | null)[] = [];
    for (const [index] of files.entries()) {
      placed.push(await placeStaged(ctx, upload.id, index, infos[index]!));
    }
    const lost = files.flatMap((_, index) => (placed[index] ? [] : [index]));
    if (lost.length > 0) await rejectFiles(ctx, upload.id, files, lost, LOST);

    try {
      const entries: CommitFile[] = [];
      for (const [index, file] of files.entries()) {
        entries.push(await withDiff(ctx, upload.projectId, file, placed[index]!));
      }
      await commitPush(
        ctx,
        { upload, plan, files: entries, caller, meta, clientVersion: upload.baseVersion },
        v1Dialect,
      );
    } catch (error) {
      // Like the reference: a refused version (or a diff that does not apply) clears the
      // upload. Any other failure (the database or blob store failing midway) rolled back
      // and keeps it for a retry.
      if (!isRefusal(error)) throw error;
      ended = true;
      await deleteUpload(db, upload.id);
      forgetPlan(upload.id);
      forgetMemory(upload.id);
      await staging.remove(upload.id);
      throw error;
    }
    ended = true;
    forgetPlan(upload.id);
    forgetMemory(upload.id);
    // The answer and the staged bytes' removal together; then the row-level changesets of
    // updated GeoPackages (background work that reads the new files) once the answer is ready.
    const [detail] = await Promise.all([
      reloadProjectAccess(ctx, access).then((reloaded) => projectDetail(ctx, reloaded)),
      staging.remove(upload.id),
    ]);
    startChangesetWork(ctx);
    return detail;
  } catch (error) {
    await reportUploadFailure(
      ctx,
      {
        projectId: upload.projectId,
        userId: caller.id,
        version: upload.baseVersion,
        files: files.map((f) => f.path),
      },
      error,
    );
    throw error;
  } finally {
    await lease.end(!ended);
  }
}

/** POST /v1/project/push/cancel/{transaction}. */
export async function cancelPush(
  ctx: AppContext,
  caller: User | null,
  transaction: string,
): Promise<void> {
  const { upload } = await transactionOf(ctx, caller, transaction);
  await deleteUpload(ctx.database.db, upload.id);
  forgetPlan(upload.id);
  forgetMemory(upload.id);
  await stagingOf(ctx.blobStore).remove(upload.id);
}
