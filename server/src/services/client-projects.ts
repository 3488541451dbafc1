/**
 * Project calls only the desktop and mobile clients make (client-compat §4):
 * POST /v1/project/by_names (status checks of many projects at once) and
 * DELETE /v1/project/{namespace}/{name} (the CLI's `remove`, the legacy form of
 * scheduleDelete), PATCH /v2/projects/{id} (the CLI's `rename`) and GET /v2/projects/{id}.
 */
import { kickWebhooks } from './webhooks/dispatcher';
import { queueProjectEvent } from './webhooks/events';
import type { AppContext } from '../context';
import { isUniqueViolation } from '../db/errors';
import {
  findVersion,
  listCurrentFiles,
  listFilesAtVersion,
  type FileRow,
} from '../db/queries/files';
import { setProjectName } from '../db/queries/project-names';
import {
  listProjectMembers,
  markProjectRemoved,
  projectHasConflictFile,
} from '../db/queries/projects';
import type { User } from '../db/schema';
import { badRequest, HttpProblem, notFound } from '../errors';
import { isoZ } from '../lib/time';
import { projectScope, recordAudit } from './audit';
import { purgeRemovedProjects } from './purge';
import { projectNameError } from '../lib/validation';
import { assertSignedIn, NO_PROJECT_PERMISSIONS, projectFor, type ProjectRef } from './permissions';
import type { ProjectAccess } from './permissions';
import { accessView, projectSummary } from './projects';
import type { ProjectListItem, ProjectV2 } from '../schemas/projects';
import { versionNumber } from '../schemas/protocol';

export type { ProjectV2 as ProjectV2View };

/** Most projects one by_names call may name (the reference's limit). */
export const BY_NAMES_LIMIT = 50;
export const TOO_MANY_PROJECTS = 'Too many projects';

export type ByNamesEntry = ProjectListItem | { error: 401 | 403 | 404 };

async function listItem(ctx: AppContext, access: ProjectAccess): Promise<ProjectListItem> {
  const db = ctx.database.db;
  const { project } = access;
  const [members, hasConflict] = await Promise.all([
    listProjectMembers(db, [project.id]),
    projectHasConflictFile(db, project.id),
  ]);
  return {
    ...projectSummary(project, access.workspace.name, access.permissions),
    has_conflict: hasConflict,
    access: accessView(members, project.public),
  };
}

/**
 * POST /v1/project/by_names: each `namespace/name` → its list item, or `{"error": 404}`
 * (unknown, scheduled for deletion, malformed), 403 (no read access) or 401 (anonymous
 * caller, no read access).
 */
export async function projectsByNames(
  ctx: AppContext,
  caller: User | null,
  names: string[],
): Promise<Record<string, ByNamesEntry>> {
  if (names.length > BY_NAMES_LIMIT) throw badRequest(TOO_MANY_PROJECTS);
  const result: Record<string, ByNamesEntry> = {};
  for (const key of names) {
    const slash = key.indexOf('/');
    if (slash <= 0 || slash === key.length - 1) {
      result[key] = { error: 404 };
      continue;
    }
    const ref = { namespace: key.slice(0, slash), name: key.slice(slash + 1) };
    let access: ProjectAccess;
    try {
      access = await projectFor(ctx, caller, ref, null);
    } catch (error) {
      if (error instanceof HttpProblem && error.status === 404) {
        result[key] = { error: 404 };
        continue;
      }
      throw error;
    }
    if (!access.permissions.read) {
      result[key] = { error: access.actor ? 403 : 401 };
      continue;
    }
    result[key] = await listItem(ctx, access);
  }
  return result;
}

/** DELETE /v1/project/{namespace}/{name}: schedules the deletion, as scheduleDelete does. */
export async function removeProjectByName(
  ctx: AppContext,
  caller: User | null,
  ref: ProjectRef,
): Promise<void> {
  assertSignedIn(caller);
  const access = await projectFor(ctx, caller, ref, 'delete');
  await removeProject(ctx, access, caller, ctx.now());
}

/**
 * Marks the project removed (purged at `purgeAfter`'s reckoning, services/purge.ts) and
 * records it in the audit log, in one transaction; 404 when it was removed meanwhile.
 */
export async function removeProject(
  ctx: AppContext,
  access: ProjectAccess,
  caller: User,
  removedAt: Date,
  details: Record<string, unknown> = {},
): Promise<void> {
  await ctx.database.db.transaction(async (tx) => {
    if (!(await markProjectRemoved(tx, access.project.id, caller.id, removedAt))) throw notFound();
    await recordAudit(ctx, tx, { action: 'project.deleted', ...projectScope(access), details });
    await queueProjectEvent(tx, {
      type: 'project.deleted',
      projectId: access.project.id,
      at: ctx.now(),
      actorId: caller.id,
      data: {},
    });
  });
  kickWebhooks(ctx);
}

export const INVALID_PROJECT_NAME = 'InvalidProjectName';
export const NAME_TAKEN = 'Name already exist within workspace';

/**
 * PATCH /v2/projects/{id} `{"name"}`: owner's rights. An invalid name is a 400
 * `{"code":"InvalidProjectName","detail":<why>}`, a name taken in the workspace (projects
 * scheduled for deletion included, until purged) a 409.
 */
export async function renameProject(
  ctx: AppContext,
  caller: User | null,
  projectId: string,
  name: string,
): Promise<void> {
  assertSignedIn(caller);
  const access = await projectFor(ctx, caller, { id: projectId }, 'update');
  const trimmed = name.trim();
  const problem = projectNameError(trimmed);
  if (problem) {
    throw new HttpProblem(400, problem, { extra: { code: INVALID_PROJECT_NAME } });
  }
  if (trimmed === access.project.name) return;
  try {
    await ctx.database.db.transaction(async (tx) => {
      if (!(await setProjectName(tx, access.project.id, trimmed))) throw notFound();
      await recordAudit(ctx, tx, {
        action: 'project.renamed',
        ...projectScope(access),
        project: { id: access.project.id, name: trimmed, workspaceId: access.workspace.id },
        details: { from: access.project.name, to: trimmed },
      });
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw new HttpProblem(409, NAME_TAKEN);
    throw error;
  }
}

export function projectV2View(access: ProjectAccess, files?: FileRow[]): ProjectV2 {
  const { project, workspace } = access;
  const view: ProjectV2 = {
    id: project.id,
    name: project.name,
    workspace: { id: workspace.id, name: workspace.name },
    role: access.role,
    version: `v${project.latestVersion}`,
    created_at: isoZ(project.createdAt),
    updated_at: isoZ(project.updatedAt),
    public: project.public,
    size: project.diskUsage,
  };
  if (files) {
    view.files = files.map((f) => ({
      path: f.path,
      mtime: isoZ(f.mtime),
      size: f.size,
      checksum: f.checksum,
    }));
  }
  return view;
}

/**
 * GET /v2/projects/{id}[?files_at_version=vN]: read access; anonymous visitors of a private
 * project get 404 (as in the reference), signed-in ones 403. `files` (the files at vN) only
 * when vN exists.
 */
export async function getProjectV2(
  ctx: AppContext,
  caller: User | null,
  projectId: string,
  filesAtVersion?: string,
): Promise<ProjectV2> {
  const access = await projectFor(ctx, caller, { id: projectId }, null);
  if (!access.permissions.read) {
    if (!access.actor) throw notFound();
    throw new HttpProblem(403, NO_PROJECT_PERMISSIONS);
  }
  if (filesAtVersion === undefined) return projectV2View(access);
  const version = versionNumber(filesAtVersion);
  const db = ctx.database.db;
  if (!(await findVersion(db, access.project.id, version))) return projectV2View(access);
  const files =
    version === access.project.latestVersion
      ? await listCurrentFiles(db, access.project.id)
      : await listFilesAtVersion(db, access.project.id, version);
  return projectV2View(access, files);
}

/**
 * DELETE /v2/projects/{id} ("delete now", owner's rights): the project is marked removed as
 * of long ago, so the purge (services/purge.ts) deletes it at once with its rows and the
 * blobs nothing else uses; the name is free again. (Projects already due are purged too.)
 */
export async function deleteProjectNow(
  ctx: AppContext,
  caller: User | null,
  projectId: string,
): Promise<void> {
  assertSignedIn(caller);
  const access = await projectFor(ctx, caller, { id: projectId }, 'delete');
  await removeProject(ctx, access, caller, new Date(0), { immediately: true });
  await purgeRemovedProjects(ctx);
}
