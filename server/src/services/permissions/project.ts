/**
 * Finding a project for a caller and checking what they may do with it, with the
 * reference's answers (api-reference A.5, §3.3):
 * - unknown workspace, unknown project, project scheduled for deletion, invalid id: 404
 *   with the generic text;
 * - inactive workspace (unless superuser): 404 "Workspace doesn't exist";
 * - the needed permission missing: 403 "You do not have permissions for this project"
 *   (anonymous visitors of a private project too).
 * Projects scheduled for deletion are gone for everybody here, superusers included.
 */
import type { AppContext } from '../../context';
import {
  findProjectById,
  findProjectByPath,
  type ProjectLookupRow,
} from '../../db/queries/projects';
import type { Project, ProjectRole, User, Workspace } from '../../db/schema';
import { forbidden, notFound } from '../../errors';
import { oncePerRequest } from './request-memo';
import {
  actorWorkspaceRole,
  effectiveProjectRole,
  projectPermissions,
  type ProjectPermissions,
} from './rules';

export const NO_PROJECT_PERMISSIONS = 'You do not have permissions for this project';
export const WORKSPACE_DOESNT_EXIST = "Workspace doesn't exist";

export type ProjectPermission = keyof ProjectPermissions;

/** A project the caller may act on, with everything the checks found out. */
export interface ProjectAccess {
  project: Project;
  workspace: Workspace;
  /** The acting user (null: anonymous, or an inactive account). */
  actor: User | null;
  directRole: ProjectRole | null;
  permissions: ProjectPermissions;
  /** owner / writer / reader / null: the `role` of project details. */
  role: ProjectRole | null;
}

export type ProjectRef = { namespace: string; name: string } | { id: string };

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function isUuid(text: string): boolean {
  return UUID_RE.test(text);
}

async function lookup(
  ctx: AppContext,
  ref: ProjectRef,
  viewerId: number | null,
): Promise<ProjectLookupRow | null> {
  const db = ctx.database.db;
  if ('id' in ref) {
    return isUuid(ref.id) ? findProjectById(db, ref.id.toLowerCase(), viewerId) : null;
  }
  return findProjectByPath(db, ref.namespace, ref.name, viewerId);
}

/**
 * The project `ref` names, with what `caller` may do with it: the 404s described above, then
 * 403 (with `refusal`, by default the reference's project text) unless the caller has
 * `permission`. With `permission` null nothing is required: the caller reads
 * `access.permissions` and answers with its own refusal (a by-names entry, a private
 * project answered 404 to anonymous visitors).
 *
 * The project and the caller's roles are resolved once per read-only request and caller
 * (request-memo.ts): every check of the request on that project reuses them.
 */
export async function projectFor(
  ctx: AppContext,
  caller: User | null,
  ref: ProjectRef,
  permission: ProjectPermission | null,
  refusal: string = NO_PROJECT_PERMISSIONS,
): Promise<ProjectAccess> {
  const actor = caller?.active ? caller : null;
  const project = 'id' in ref ? `id ${ref.id.toLowerCase()}` : `path ${ref.namespace}/${ref.name}`;
  const access = await oncePerRequest(`project ${actor?.id ?? 'anonymous'} ${project}`, () =>
    resolveProjectAccess(ctx, actor, ref),
  );
  if (permission !== null && !access.permissions[permission]) throw forbidden(refusal);
  return access;
}

async function resolveProjectAccess(
  ctx: AppContext,
  actor: User | null,
  ref: ProjectRef,
): Promise<ProjectAccess> {
  const row = await lookup(ctx, ref, actor?.id ?? null);
  if (!row) throw notFound();
  if (!row.workspace.active && !actor?.isAdmin) throw notFound(WORKSPACE_DOESNT_EXIST);
  return accessOf(ctx, actor, row);
}

/** What `actor` may do with the live project of `row`; 404 when it is gone. */
function accessOf(ctx: AppContext, actor: User | null, row: ProjectLookupRow): ProjectAccess {
  const project = row.project;
  if (!project || project.removedAt) throw notFound();
  const permissions = projectPermissions(actor, {
    public: project.public,
    removed: false,
    directRole: row.directRole,
    workspaceRole: actorWorkspaceRole(ctx.config, actor, row.workspace.name, row.memberRole),
  });
  return {
    project,
    workspace: row.workspace,
    actor,
    directRole: row.directRole,
    permissions,
    role: effectiveProjectRole(permissions),
  };
}

/**
 * The same project read again after a change (members, public flag), with the caller's
 * permissions as they are now; no permission is required (the caller may have just given
 * up their own role).
 */
export async function reloadProjectAccess(
  ctx: AppContext,
  access: ProjectAccess,
): Promise<ProjectAccess> {
  const row = await findProjectById(ctx.database.db, access.project.id, access.actor?.id ?? null);
  if (!row) throw notFound();
  return accessOf(ctx, access.actor, row);
}
