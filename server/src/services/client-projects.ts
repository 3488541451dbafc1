/**
 * Project calls only the desktop and mobile clients make (client-compat §4):
 * POST /v1/project/by_names (status checks of many projects at once) and
 * DELETE /v1/project/{namespace}/{name} (the CLI's `remove`, the legacy form of
 * scheduleDelete) and PATCH /v2/projects/{id} (the CLI's `rename`).
 */
import type { AppContext } from '../context';
import { isUniqueViolation } from '../db/errors';
import { listCurrentFiles } from '../db/queries/files';
import { setProjectName } from '../db/queries/project-names';
import {
  CONFLICT_FILE_PATTERN,
  listProjectMembers,
  markProjectRemoved,
} from '../db/queries/projects';
import type { User } from '../db/schema';
import { badRequest, HttpProblem, notFound } from '../errors';
import { isoZ } from '../lib/time';
import { projectNameError } from '../lib/validation';
import { assertSignedIn, projectAccessOf, projectFor, type ProjectRef } from './permissions';
import type { ProjectAccess } from './permissions';
import { accessView, type ProjectListItem } from './projects';

/** Most projects one by_names call may name (the reference's limit). */
export const BY_NAMES_LIMIT = 50;
export const TOO_MANY_PROJECTS = 'Too many projects';

const CONFLICT_RE = new RegExp(CONFLICT_FILE_PATTERN);

export type ByNamesEntry = ProjectListItem | { error: 401 | 403 | 404 };

async function listItem(ctx: AppContext, access: ProjectAccess): Promise<ProjectListItem> {
  const db = ctx.database.db;
  const { project } = access;
  const [members, files] = await Promise.all([
    listProjectMembers(db, [project.id]),
    listCurrentFiles(db, project.id),
  ]);
  return {
    id: project.id,
    name: project.name,
    namespace: access.workspace.name,
    version: `v${project.latestVersion}`,
    created: isoZ(project.createdAt),
    updated: isoZ(project.updatedAt),
    creator: project.creatorId,
    disk_usage: project.diskUsage,
    tags: project.tags,
    has_conflict: files.some((file) => CONFLICT_RE.test(file.path)),
    permissions: {
      upload: access.permissions.upload,
      update: access.permissions.update,
      delete: access.permissions.delete,
    },
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
      access = await projectAccessOf(ctx, caller, ref);
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
  const marked = await markProjectRemoved(ctx.database.db, access.project.id, caller.id, ctx.now());
  if (!marked) throw notFound();
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
    if (!(await setProjectName(ctx.database.db, access.project.id, trimmed))) throw notFound();
  } catch (error) {
    if (isUniqueViolation(error)) throw new HttpProblem(409, NAME_TAKEN);
    throw error;
  }
}
