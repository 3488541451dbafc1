/**
 * A workspace and the caller's role in it (rules.ts decides), two ways in:
 * - `workspaceFor(ctx, caller, name)`: by name (project paths, the user search, access
 *   requests); null when it does not exist, or is inactive and the caller is not a
 *   superuser; the caller answers with its own refusal.
 * - `managedWorkspace(ctx, caller, idText)`: by id (the /v1/workspace/{id}/... calls that
 *   manage it: members, invitations, webhooks), for its admins and owners only: generic 404
 *   for an id that is not a number, 404 "Workspace not found" (an inactive one too, for
 *   everybody), 403 "You do not have permissions to workspace".
 * Both are resolved once per read-only request and caller (request-memo.ts).
 */
import type { AppContext } from '../../context';
import {
  findWorkspaceById,
  findWorkspaceByName,
  findWorkspaceMemberRole,
} from '../../db/queries/workspaces';
import type { User, Workspace, WorkspaceRole } from '../../db/schema';
import { forbidden, notFound } from '../../errors';
import { idOf } from '../../lib/validation';
import { oncePerRequest } from './request-memo';
import { actorWorkspaceRole, hasWorkspaceRole, isWorkspaceMember } from './rules';

export const WORKSPACE_NOT_FOUND = 'Workspace not found';
export const NO_WORKSPACE_PERMISSION = 'You do not have permissions to workspace';

export interface WorkspaceAccess {
  workspace: Workspace;
  /** The caller's role (null: no role at all). */
  role: WorkspaceRole | null;
  /** Belongs to the workspace (isWorkspaceMember). */
  member: boolean;
}

/** A workspace its caller administers. */
export interface ManagedWorkspace extends WorkspaceAccess {
  /** admin or owner. */
  role: WorkspaceRole;
}

/**
 * The workspace named `name` (case-insensitively) and the caller's role in it; null when it
 * does not exist, or is inactive and the caller is not a superuser.
 */
export function workspaceFor(
  ctx: AppContext,
  caller: User,
  name: string,
): Promise<WorkspaceAccess | null> {
  return oncePerRequest(`workspace name ${caller.id} ${name.toLowerCase()}`, async () => {
    const workspace = await findWorkspaceByName(ctx.database.db, name);
    if (!workspace || (!workspace.active && !(caller.active && caller.isAdmin))) return null;
    return accessTo(ctx, caller, workspace);
  });
}

/** The workspace with the id `idText` if `caller` administers it; the 404s and 403 above. */
export async function managedWorkspace(
  ctx: AppContext,
  caller: User,
  idText: string,
): Promise<ManagedWorkspace> {
  // A non-integer workspace id is "no such route" (generic 404), as for GET /v1/workspace/{id}.
  const id = idOf(idText);
  if (id === null) throw notFound();
  const access = await oncePerRequest(`workspace id ${caller.id} ${id}`, async () => {
    const workspace = await findWorkspaceById(ctx.database.db, id);
    return workspace?.active ? accessTo(ctx, caller, workspace) : null;
  });
  if (!access) throw notFound(WORKSPACE_NOT_FOUND);
  const { role } = access;
  if (role === null || !hasWorkspaceRole(role, 'admin')) throw forbidden(NO_WORKSPACE_PERMISSION);
  return { ...access, role };
}

async function accessTo(
  ctx: AppContext,
  caller: User,
  workspace: Workspace,
): Promise<WorkspaceAccess> {
  const memberRole = await findWorkspaceMemberRole(ctx.database.db, workspace.id, caller.id);
  return {
    workspace,
    role: actorWorkspaceRole(ctx.config, caller, workspace.name, memberRole),
    member: isWorkspaceMember(ctx.config, caller, workspace.name, memberRole),
  };
}
