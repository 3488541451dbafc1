/**
 * The v2 push (client-compat §5.2, api-reference §1.9) on the push core, used by the desktop
 * and mobile clients when /config says `v2_push_enabled`:
 *
 * 1. `POST /v2/projects/{id}/versions` with `check_only: true`: every check of a push, no
 *    chunk looked up (the client still lists its own chunk uuids there) → 204.
 * 2. `POST /v2/projects/{id}/chunks`: one raw chunk (≤ 10 MiB) → `{"id", "valid_until"}`.
 *    One chunk may then be listed by several files (the client reuses identical content).
 *    Chunks live in the push staging with rows in v2_chunks (storage/chunk-store.ts), so any
 *    instance can use them; the sweep job removes them a day after they arrived.
 * 3. `POST /v2/projects/{id}/versions` with the server's chunk ids → the version, 201.
 *
 * What is v2's own: the answers. 409 `ProjectVersionExists` for a stale base version, 409
 * `AnotherUploadRunning`, 423 `ProjectLocked`, 422 `UploadError` for invalid changes, 422
 * `DataSyncError` for files whose chunks do not make them (or whose diff does not apply:
 * `sync error: …`).
 */
import { reportUploadFailure } from '../webhooks/upload-failed';
import type { AppContext } from '../../context';
import { listCurrentFiles } from '../../db/queries/files';
import { deleteUpload } from '../../db/queries/uploads';
import type { User } from '../../db/schema';
import { HttpProblem } from '../../errors';
import { isoZ } from '../../lib/time';
import { ChunkStore, CHUNK_TTL_MS } from '../../storage/chunk-store';
import { ChunkTooBigError } from '../../storage/staging';
import { startChangesetWork } from '../changesets';
import { projectV2View, type ProjectV2View } from '../client-projects';
import { assertSignedIn, projectFor } from '../permissions';
import type { CommitFile } from '../versions';
import { assembleChunks, withDiff } from './assemble';
import { commitPush, type PushMeta } from './commit';
import type { PushDialect } from './dialect';
import { lockedProblem, takePushLock } from './lock';
import { stagedFiles, type PushChanges } from './plan';
import { BIG_CHUNK, UPLOAD_ERROR_CODE } from './rules';
import { checkPush } from './start';

export const PROJECT_VERSION_EXISTS = 'ProjectVersionExists';
export const ANOTHER_UPLOAD_RUNNING = 'AnotherUploadRunning';
export const DATA_SYNC_ERROR = 'DataSyncError';
export const ADDED_EXIST = 'Add changes contain files which already exist';
export const NOT_IN_PROJECT = 'Update or remove changes contain files that are not in project';
export const DATA_SYNC_TEXT =
  'There are either corrupted files or it is not possible to create version with provided geopackage data';

export interface PushV2Input {
  version: string;
  changes: PushChanges;
  check_only?: boolean;
}

const coded = (status: number, code: string, text: string, extra: Record<string, unknown> = {}) =>
  new HttpProblem(status, `${text} (${code})`, { extra: { code, ...extra } });

const uploadError = (text: string) => coded(422, UPLOAD_ERROR_CODE, text);

function versionExists(client: number | null, server: number): HttpProblem {
  return coded(409, PROJECT_VERSION_EXISTS, 'Project version mismatch', {
    client_version: client === null ? null : `v${client}`,
    server_version: `v${server}`,
  });
}

/** v2's words for the core's refusals. */
export const v2Dialect: PushDialect = {
  invalid: uploadError,
  version: (client, server) => (client === server ? null : versionExists(client, server)),
  locked: () =>
    coded(
      423,
      'ProjectLocked',
      'The project is currently locked and you cannot make changes to it',
    ),
  busy: () => coded(409, ANOTHER_UPLOAD_RUNNING, 'Another process is running'),
  addedExists: () => uploadError(ADDED_EXIST),
  notInProject: () => uploadError(NOT_IN_PROJECT),
  versionMoved: versionExists,
  commitRefused: (message) => uploadError(`Project version could not be created: ${message}`),
  sharedChunks: true,
};

/** The failed_files reason of a refused diff: `sync error: …` (api-reference §1.9). */
function syncError(problem: HttpProblem): string {
  const detail = typeof problem.detail === 'string' ? problem.detail : problem.message;
  const at = detail.indexOf('sync error: ');
  return at >= 0 ? detail.slice(at) : `sync error: ${detail}`;
}

/** What a v2 chunk request needs of its project: resolved once per access window (routes). */
export interface ChunkProjectV2 {
  projectId: string;
  lockedUntil: Date | null;
}

/**
 * The project a v2 chunk goes to, for a caller who may upload to it (404/403 otherwise).
 * The chunk route reuses the answer for the caller's next chunks within the access window
 * (routes/push-v2.ts, withCallerWindow), as the v1 chunk route does: a chunk is only
 * staged bytes, and the versions call checks the caller, the access and the lock again.
 */
export async function chunkProjectV2(
  ctx: AppContext,
  caller: User | null,
  projectId: string,
): Promise<ChunkProjectV2> {
  assertSignedIn(caller);
  const access = await projectFor(ctx, caller, { id: projectId }, 'upload');
  return { projectId: access.project.id, lockedUntil: access.project.lockedUntil };
}

/** POST /v2/projects/{id}/chunks: `body` is the raw request stream. */
export async function uploadChunkV2(
  ctx: AppContext,
  target: ChunkProjectV2,
  body: AsyncIterable<Uint8Array | string>,
): Promise<{ id: string; valid_until: string }> {
  const now = ctx.now();
  const locked = lockedProblem(target.lockedUntil, now, v2Dialect);
  if (locked) throw locked;
  try {
    const chunk = await new ChunkStore(ctx).write(target.projectId, body, now);
    return { id: chunk.id, valid_until: isoZ(new Date(now.getTime() + CHUNK_TTL_MS)) };
  } catch (error) {
    if (error instanceof ChunkTooBigError) throw coded(413, 'BigChunkError', BIG_CHUNK);
    throw error;
  }
}

/** POST /v2/projects/{id}/versions. Null for check_only (204). */
export async function pushVersionV2(
  ctx: AppContext,
  caller: User | null,
  projectId: string,
  input: PushV2Input,
  meta: PushMeta,
): Promise<ProjectV2View | null> {
  assertSignedIn(caller);
  const access = await projectFor(ctx, caller, { id: projectId }, 'upload');
  const { project } = access;
  const { plan, clientVersion } = await checkPush(ctx, access, input, v2Dialect);
  if (input.check_only) return null;

  const { upload, lease } = await takePushLock(
    ctx,
    {
      projectId: project.id,
      baseVersion: project.latestVersion,
      userId: caller.id,
      plan,
      status: 'committing',
    },
    v2Dialect,
  );
  const files = stagedFiles(plan);
  try {
    const entries: CommitFile[] = [];
    const failed: Record<string, string> = {};
    for (const file of files) {
      const blob = await assembleChunks(ctx, project.id, file);
      if (!blob) {
        failed[file.path] = 'corrupted';
        continue;
      }
      try {
        entries.push(await withDiff(ctx, project.id, file, blob));
      } catch (error) {
        if (!(error instanceof HttpProblem)) throw error;
        failed[file.path] = syncError(error);
      }
    }
    if (Object.keys(failed).length > 0) {
      throw coded(422, DATA_SYNC_ERROR, DATA_SYNC_TEXT, { failed_files: failed });
    }
    await commitPush(ctx, { upload, plan, files: entries, caller, meta, clientVersion }, v2Dialect);
  } catch (error) {
    const paths = files.map((f) => f.path);
    const failure = { projectId: project.id, userId: caller.id, version: project.latestVersion };
    await reportUploadFailure(ctx, { ...failure, files: paths }, error);
    throw error;
  } finally {
    await lease?.end(false);
    await deleteUpload(ctx.database.db, upload.id);
  }
  await new ChunkStore(ctx).remove(files.flatMap((f) => f.chunks)).catch((error: unknown) => {
    // The version is made; leftovers go with the sweep job.
    ctx.log.warn({ err: error }, 'v2 push: used chunks could not be removed');
  });
  startChangesetWork(ctx);

  const after = await projectFor(ctx, caller, { id: project.id }, 'read');
  return projectV2View(after, await listCurrentFiles(ctx.database.db, project.id));
}
