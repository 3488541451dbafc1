/**
 * The workspace a member or invitation call manages: only its admins and owners manage
 * (index.ts lists the folder).
 */
import type { AppContext } from '../../context';
import { findWorkspaceById, findWorkspaceMemberRole } from '../../db/queries/workspaces';
import type { User, Workspace, WorkspaceRole } from '../../db/schema';
import { forbidden, notFound } from '../../errors';
import { hasWorkspaceRole, workspaceRole } from '../permissions';
import { NO_WORKSPACE_PERMISSION, WORKSPACE_NOT_FOUND } from '../workspaces';

export interface Managed {
  workspace: Workspace;
  /** The caller's role in it (admin or owner). */
  role: WorkspaceRole;
}

/** A path segment as a database id (at most 9 digits), or null. */
export function idOf(text: string): number | null {
  return /^\d{1,9}$/.test(text) ? Number(text) : null;
}

/** The workspace `actor` manages (admin or owner), or the 404/403 answer. */
export async function managedWorkspace(
  ctx: AppContext,
  actor: User,
  idText: string,
): Promise<Managed> {
  // A non-integer workspace id is "no such route" (generic 404), as for GET /v1/workspace/{id}.
  const id = idOf(idText);
  if (id === null) throw notFound();
  const workspace = await findWorkspaceById(ctx.database.db, id);
  if (!workspace || !workspace.active) throw notFound(WORKSPACE_NOT_FOUND);
  const memberRole = await findWorkspaceMemberRole(ctx.database.db, workspace.id, actor.id);
  const role = workspaceRole(ctx.config, actor, workspace.name, memberRole);
  if (!actor.active || !hasWorkspaceRole(role, 'admin')) throw forbidden(NO_WORKSPACE_PERMISSION);
  return { workspace, role };
}
