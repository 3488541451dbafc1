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
 *
 * `pushServerVersion` takes the lock when the files are known; `lockServerPush` takes it
 * before (field edits: the lock's statements run while the sandbox applies the batch), and
 * its `commit` makes the version. A server-made version is not recorded in push_commits
 * (only a v1 finish retried by its transaction id reads it).
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

/** What the version holds (the files as blobs the server holds), for ServerPushLock.commit. */
export type ServerPushFiles = Pick<ServerPushInput, 'added' | 'updated' | 'removed'>;

/** The project's push lock, held for a version the server makes (lockServerPush). */
export interface ServerPushLock {
  /**
   * Makes the version and ends the lock; resolves its number. ServerPushMoved when another
   * push made a version after the lock's base version (the lock is ended then too).
   */
  commit(files: ServerPushFiles, plan?: UploadPlan): Promise<number>;
  /** Ends the lock without a version (nothing was committed). */
  release(): Promise<void>;
}

/**
 * Takes the project's push lock (the upload row, `committing`, with the lease) before the
 * version's files are known, so the work that makes them runs under it (field edits: the
 * batch applied in the sandbox while the lock's statements run). The lock's row holds
 * `plan` (what is known of the change then). Every path must end in `commit` or `release`.
 * The allowance is checked in the commit (with the version's real sizes).
 */
export async function lockServerPush(
  ctx: AppContext,
  input: Pick<ServerPushInput, 'access' | 'caller' | 'meta' | 'baseVersion' | 'origin'> & {
    plan?: UploadPlan;
  },
): Promise<ServerPushLock> {
  const db = ctx.database.db;
  const { project } = input.access;
  const locked = lockedProblem(project.lockedUntil, ctx.now(), serverDialect);
  if (locked) throw locked;
  const { upload, lease } = await takePushLock(
    ctx,
    {
      projectId: project.id,
      baseVersion: input.baseVersion,
      userId: input.caller.id,
      plan: input.plan ?? { added: [], updated: [], removed: [] },
      status: 'committing',
    },
    serverDialect,
  );
  let ended = false;
  const end = async (committed: boolean) => {
    if (ended) return;
    ended = true;
    await lease?.end(false);
    // The commit's transaction deleted the upload row; otherwise it goes here.
    if (!committed) await deleteUpload(db, upload.id);
  };
  return {
    async commit(files, known) {
      if (ended) throw new Error('The push lock was already ended');
      let committed = false;
      try {
        const plan = known ?? (await planOf(ctx, project, files));
        const version = await commitPush(
          ctx,
          {
            upload,
            plan,
            files: [...files.added, ...files.updated],
            caller: input.caller,
            meta: input.meta,
            clientVersion: input.baseVersion,
            origin: input.origin,
            recordCommit: false,
          },
          serverDialect,
        );
        committed = true;
        return version;
      } finally {
        await end(committed);
        if (committed) startChangesetWork(ctx);
      }
    },
    release: () => end(false),
  };
}

/** The upload plan of a server-made version (the removals' sizes from the latest files). */
async function planOf(
  ctx: AppContext,
  project: ProjectAccess['project'],
  files: ServerPushFiles,
): Promise<UploadPlan> {
  // The files of the latest version, read only for the removals' sizes and checksums.
  const current: CurrentFiles =
    files.removed.length > 0
      ? new Map((await listCurrentFiles(ctx.database.db, project.id)).map((f) => [f.path, f]))
      : new Map();
  return {
    added: files.added.map(planFile),
    updated: files.updated.map(planFile),
    removed: files.removed.map((path) => {
      const held = current.get(path);
      if (!held) throw new ServerPushMoved(project.latestVersion);
      return { path, size: held.size, checksum: held.checksum };
    }),
  };
}

/** Makes the version; resolves its number. */
export async function pushServerVersion(ctx: AppContext, input: ServerPushInput): Promise<number> {
  const { project, workspace } = input.access;
  const locked = lockedProblem(project.lockedUntil, ctx.now(), serverDialect);
  if (locked) throw locked;
  const plan = await planOf(ctx, project, input);
  await checkAllowance(ctx.database.db, workspace, planGrowth(plan, new Map()));
  const lock = await lockServerPush(ctx, { ...input, plan });
  return lock.commit(input, plan);
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
