/**
 * Workspaces as a user sees them, and the user's role in each (the role rule is in
 * permissions.ts). Active users always see the global workspace; other workspaces only with
 * a membership row (superusers see all).
 */
import type { Config } from '../config';
import type { AppContext } from '../context';
import { recordAudit } from './audit';
import {
  findWorkspaceById,
  findWorkspaceByName,
  insertWorkspace,
  listWorkspacesWithUsage,
  setWorkspaceMember,
  type WorkspaceUsageRow,
} from '../db/queries/workspaces';
import type { User } from '../db/schema';
import { forbidden, FormError, HttpProblem, notFound } from '../errors';
import { reservedWorkspaceNameError } from '../lib/route-words';
import { workspaceNameError } from '../lib/validation';
import {
  isSuperuser,
  NO_WORKSPACE_PERMISSION,
  WORKSPACE_NOT_FOUND,
  workspaceRole,
} from './permissions';
import type { CreateWorkspace, Workspace } from '../schemas/workspaces';

export { isGlobalWorkspace, workspaceRole, workspaceRoleRank } from './permissions';

export const WORKSPACE_CREATION_DISABLED = 'Creating workspaces is not enabled on this server';
export const WORKSPACE_NAME_TAKEN = 'Workspace with this name already exists';

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

/**
 * POST /v1/workspace: a workspace of the caller's own (they own it), with the global storage
 * allowance, where WORKSPACE_CREATION allows it (superusers always may).
 */
export async function createUserWorkspace(
  ctx: AppContext,
  user: User,
  body: CreateWorkspace,
  /** Words of the route table a workspace name would be shadowed by (lib/route-words.ts). */
  routeWords: ReadonlySet<string>,
): Promise<Workspace> {
  if (!user.active || (!ctx.config.workspaceCreation && !isSuperuser(user))) {
    throw forbidden(WORKSPACE_CREATION_DISABLED);
  }
  const name = body.name.trim();
  const problem = workspaceNameError(name) ?? reservedWorkspaceNameError(name, routeWords);
  if (problem) throw new FormError(400, { name: [`Workspace name ${problem}`] });
  const created = await ctx.database.db.transaction(async (tx) => {
    if (await findWorkspaceByName(tx, name)) throw new HttpProblem(409, WORKSPACE_NAME_TAKEN);
    const workspace = await insertWorkspace(tx, { name, storage: ctx.config.globalStorage });
    await setWorkspaceMember(tx, workspace.id, user.id, 'owner');
    await recordAudit(ctx, tx, {
      action: 'workspace.created',
      workspace: { id: workspace.id, name: workspace.name },
      target: { type: 'workspace', id: workspace.id, name: workspace.name },
    });
    return workspace;
  });
  return getUserWorkspace(ctx, user, created.id);
}
