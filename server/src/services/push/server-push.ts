/**
 * A version the server makes itself from bytes it already holds (time travel: restoring a
 * version or a file, resolving a conflict file; services/time-travel/; field edit batches,
 * services/capture/), on the push core: the administrator's lock, the allowance at start
 * and at commit, the project's push lock (the upload row, held `committing` with the lease
 * for the call's length) and commitPush, with v2's words for refusals (409
 * AnotherUploadRunning, 423 ProjectLocked, 422 …).
 *
 * There is nothing to receive: the caller gives the version's files as blobs it holds (a
 * GeoPackage update may carry the diff the server made for it; one made by applying a
 * changeset is stored as that diff: file-store/apply-diff.ts `fileFromDiff` gives its entry). `baseVersion` is the
 * version the changes were worked out against; when the project moved on meanwhile the
 * commit is refused with ServerPushMoved, and the caller works the changes out again.
 */
import type { AppContext } from '../../context';
import { listCurrentFiles } from '../../db/queries/files';
import { deleteUpload } from '../../db/queries/uploads';
import type { User } from '../../db/schema';
import { HttpProblem } from '../../errors';
import type { VersionOrigin } from '../../schemas/restore';
import { startChangesetWork } from '../changesets';
import { projectFor, type ProjectAccess } from '../permissions';
import type { CommitFile } from '../versions';
import { commitPush, type PushMeta } from './commit';
import type { PushDialect } from './dialect';
import { lockedProblem, takePushLock } from './lock';
import type { CurrentFiles, PlanFile, UploadPlan } from './plan';
import { checkAllowance, planGrowth } from './quota';
import { v2Dialect } from './v2';

/** The project moved on past `baseVersion` before the version was made. */
export class ServerPushMoved extends HttpProblem {
  constructor(readonly latestVersion: number) {
    super(409, `The project changed meanwhile (now v${latestVersion}): try again`);
  }
}

const serverDialect: PushDialect = {
  ...v2Dialect,
  version: () => null,
  versionMoved: (_client, latest) => new ServerPushMoved(latest),
};

export interface ServerPushInput {
  /** The project, already checked for `upload` by the caller. */
  access: ProjectAccess;
  caller: User;
  meta: PushMeta;
  /** The version the changes were worked out against. */
  baseVersion: number;
  added: CommitFile[];
  updated: CommitFile[];
  removed: string[];
  /** What a time-travel version did; null for other server-made versions (field edits). */
  origin: VersionOrigin | null;
}

function planFile(file: CommitFile): PlanFile {
  return {
    path: file.path,
    size: file.size,
    checksum: file.checksum,
    mtime: file.mtime ? file.mtime.toISOString() : null,
    chunks: [],
    diff: file.diff
      ? { path: file.diff.path, size: file.diff.size, checksum: file.diff.checksum }
      : null,
  };
}

/** Makes the version; resolves its number. */
export async function pushServerVersion(ctx: AppContext, input: ServerPushInput): Promise<number> {
  const db = ctx.database.db;
  const { project, workspace } = input.access;
  const locked = lockedProblem(project.lockedUntil, ctx.now(), serverDialect);
  if (locked) throw locked;

  // The files of the latest version, read only for the removals' sizes and checksums.
  const current: CurrentFiles =
    input.removed.length > 0
      ? new Map((await listCurrentFiles(db, project.id)).map((f) => [f.path, f]))
      : new Map();
  const plan: UploadPlan = {
    added: input.added.map(planFile),
    updated: input.updated.map(planFile),
    removed: input.removed.map((path) => {
      const held = current.get(path);
      if (!held) throw new ServerPushMoved(project.latestVersion);
      return { path, size: held.size, checksum: held.checksum };
    }),
  };
  await checkAllowance(db, workspace, planGrowth(plan, current));

  const { upload, lease } = await takePushLock(
    ctx,
    {
      projectId: project.id,
      baseVersion: input.baseVersion,
      userId: input.caller.id,
      plan,
      status: 'committing',
    },
    serverDialect,
  );
  let version: number;
  let committed = false;
  try {
    version = await commitPush(
      ctx,
      {
        upload,
        plan,
        files: [...input.added, ...input.updated],
        caller: input.caller,
        meta: input.meta,
        clientVersion: input.baseVersion,
        origin: input.origin,
      },
      serverDialect,
    );
    committed = true;
  } finally {
    await lease?.end(false);
    // The commit's transaction deleted the upload row; a failed one left it.
    if (!committed) await deleteUpload(db, upload.id);
  }
  startChangesetWork(ctx);
  return version;
}

/** Attempts at a server-made version while other pushes keep making versions under it. */
export const SERVER_PUSH_ATTEMPTS = 3;

/**
 * Runs `attempt` (work the changes out against `access`, then `pushServerVersion`) again with
 * the project read (and checked for `upload`) anew while it fails with ServerPushMoved, at
 * most SERVER_PUSH_ATTEMPTS times; any other failure, or the last one, is thrown. An attempt
 * that fails deletes what it made itself.
 */
export async function retryWhileProjectMoves<T>(
  ctx: AppContext,
  first: ProjectAccess,
  caller: User,
  attempt: (access: ProjectAccess) => Promise<T>,
): Promise<T> {
  let access = first;
  for (let count = 1; ; count++) {
    try {
      return await attempt(access);
    } catch (error) {
      if (!(error instanceof ServerPushMoved) || count >= SERVER_PUSH_ATTEMPTS) throw error;
      access = await projectFor(ctx, caller, { id: access.project.id }, 'upload');
    }
  }
}
