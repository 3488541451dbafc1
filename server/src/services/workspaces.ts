/**
 * Workspaces as a user sees them, and the user's role in each (the role rule is in
 * permissions.ts). Active users always see the global workspace; other workspaces only with
 * a membership row (superusers see all).
 */
import type { Config } from '../config';
import type { AppContext } from '../context';
import {
  findWorkspaceById,
  listWorkspacesWithUsage,
  type WorkspaceUsageRow,
} from '../db/queries/workspaces';
import type { User } from '../db/schema';
import { forbidden, notFound } from '../errors';
import { isSuperuser, workspaceRole } from './permissions';
import type { Workspace } from '../schemas/workspaces';

export { isGlobalWorkspace, workspaceRole, workspaceRoleRank } from './permissions';

export const WORKSPACE_NOT_FOUND = 'Workspace not found';
export const NO_WORKSPACE_PERMISSION = 'You do not have permissions to workspace';

function toView(config: Config, user: User, row: WorkspaceUsageRow): Workspace {
  return {
    id: row.id,
    name: row.name,
    storage: row.storage,
    disk_usage: row.diskUsage,
    project_count: row.projectCount,
    role: workspaceRole(config, user, row.name, row.memberRole),
  };
}

/** The workspaces `user` can see, by id. */
export async function listUserWorkspaces(ctx: AppContext, user: User): Promise<Workspace[]> {
  if (!user.active) return [];
  const rows = await listWorkspacesWithUsage(ctx.database.db, {
    userId: user.id,
    all: isSuperuser(user),
    globalName: ctx.config.globalWorkspace,
  });
  return rows.map((row) => toView(ctx.config, user, row));
}

export async function getUserWorkspace(
  ctx: AppContext,
  user: User,
  id: number,
): Promise<Workspace> {
  const workspace = await findWorkspaceById(ctx.database.db, id);
  if (!workspace || !workspace.active) throw notFound(WORKSPACE_NOT_FOUND);
  const [row] = await listWorkspacesWithUsage(ctx.database.db, {
    userId: user.id,
    all: isSuperuser(user),
    globalName: ctx.config.globalWorkspace,
    workspaceId: id,
  });
  if (!row || !user.active) throw forbidden(NO_WORKSPACE_PERMISSION);
  return toView(ctx.config, user, row);
}
