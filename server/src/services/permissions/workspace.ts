/** A workspace looked up by name, with the caller's role in it (rules.ts decides). */
import type { AppContext } from '../../context';
import { findWorkspaceByName, findWorkspaceMemberRole } from '../../db/queries/workspaces';
import type { User, Workspace, WorkspaceRole } from '../../db/schema';
import { oncePerRequest } from './request-memo';
import { actorWorkspaceRole, isWorkspaceMember } from './rules';

export interface WorkspaceAccess {
  workspace: Workspace;
  /** The caller's role (null: no role at all). */
  role: WorkspaceRole | null;
  /** Belongs to the workspace (isWorkspaceMember). */
  member: boolean;
}

/**
 * The workspace named `name` (case-insensitively) and the caller's role in it; null when it
 * does not exist, or is inactive and the caller is not a superuser. Resolved once per
 * read-only request and caller (request-memo.ts).
 */
export function workspaceFor(
  ctx: AppContext,
  caller: User,
  name: string,
): Promise<WorkspaceAccess | null> {
  return oncePerRequest(`workspace ${caller.id} ${name.toLowerCase()}`, () =>
    resolveWorkspaceAccess(ctx, caller, name),
  );
}

async function resolveWorkspaceAccess(
  ctx: AppContext,
  caller: User,
  name: string,
): Promise<WorkspaceAccess | null> {
  const db = ctx.database.db;
  const workspace = await findWorkspaceByName(db, name);
  if (!workspace || (!workspace.active && !(caller.active && caller.isAdmin))) return null;
  const memberRole = await findWorkspaceMemberRole(db, workspace.id, caller.id);
  return {
    workspace,
    role: actorWorkspaceRole(ctx.config, caller, workspace.name, memberRole),
    member: isWorkspaceMember(ctx.config, caller, workspace.name, memberRole),
  };
}
