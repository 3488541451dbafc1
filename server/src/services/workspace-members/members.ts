/**
 * A workspace's members, for its admins and owners: list, read, change the role, remove. Only
 * an owner grants, changes or removes the owner role; the last owner stays; a role held through
 * the server's GLOBAL_* setting is listed (marked `global`) and cannot be removed.
 */
import type { AppContext } from '../../context';
import type { Executor } from '../../db/database';
import {
  countWorkspaceOwners,
  deleteProjectRolesInWorkspace,
  deleteWorkspaceMember,
  listEveryoneWithWorkspaceRole,
  listWorkspaceMembers,
  type MemberRow,
} from '../../db/queries/workspace-members';
import { lockWorkspace, setWorkspaceMember } from '../../db/queries/workspaces';
import type { User, Workspace, WorkspaceRole } from '../../db/schema';
import { badRequest, forbidden, notFound } from '../../errors';
import type { WorkspaceMember, WorkspaceMemberUpdate } from '../../schemas/workspace-members';
import { recordAudit } from '../audit';
import { idOf } from '../../lib/validation';
import { isGlobalWorkspace, managedWorkspace, workspaceRole } from '../permissions';
import { kickWebhooks } from '../webhooks/dispatcher';
import { queueWorkspaceEvent } from '../webhooks/events';
import { GLOBAL_ROLE_STAYS, LAST_OWNER, MEMBER_NOT_FOUND, OWNER_ROLE_NEEDS_OWNER } from './texts';

/** What changed in a membership, as the `member.changed` webhook event says it. */
export interface MemberChange {
  change: 'added' | 'role_changed' | 'removed';
  role?: WorkspaceRole;
  previous_role: WorkspaceRole | null;
  projects_roles_reset?: boolean;
}

/** Queues the `member.changed` event of `user`'s membership of `workspace`, done by `actorId`. */
export function queueMemberChange(
  ctx: AppContext,
  tx: Executor,
  workspace: Workspace,
  actorId: number,
  user: { id: number; username: string },
  { change, ...rest }: MemberChange,
): Promise<number> {
  return queueWorkspaceEvent(tx, {
    type: 'member.changed',
    workspace,
    at: ctx.now(),
    actorId,
    data: { change, user: { id: user.id, username: user.username }, ...rest },
  });
}

export function memberView(row: MemberRow, global = false): WorkspaceMember {
  const view: WorkspaceMember = {
    id: row.id,
    username: row.username,
    email: row.email,
    workspace_role: row.role,
  };
  if (global) view.global = true;
  return view;
}

/** Whether everybody holds a role in this workspace: the global one under a GLOBAL_* setting. */
function everyoneHoldsRole(ctx: AppContext, workspace: Workspace): boolean {
  const { config } = ctx;
  return (
    isGlobalWorkspace(config, workspace.name) &&
    (config.globalAdmin || config.globalWrite || config.globalRead)
  );
}

/**
 * The workspace's members: its explicit members, and in the global workspace under a GLOBAL_*
 * setting also every other active user with the role that setting (or being a superuser) gives
 * them, marked `global` (spec 001 §6 global roles; api-reference A.5 lists them likewise).
 */
async function memberRows(
  ctx: AppContext,
  db: Executor,
  workspace: Workspace,
  userId?: number,
): Promise<WorkspaceMember[]> {
  if (!everyoneHoldsRole(ctx, workspace)) {
    return (await listWorkspaceMembers(db, workspace.id, userId)).map((row) => memberView(row));
  }
  const rows = await listEveryoneWithWorkspaceRole(db, workspace.id, userId);
  return rows.map((row) =>
    memberView(
      { ...row, role: workspaceRole(ctx.config, row, workspace.name, row.memberRole) },
      row.memberRole === null,
    ),
  );
}

async function findMember(
  ctx: AppContext,
  db: Executor,
  workspace: Workspace,
  userIdText: string,
): Promise<WorkspaceMember> {
  const userId = idOf(userIdText);
  const [row] = userId === null ? [] : await memberRows(ctx, db, workspace, userId);
  if (!row) throw notFound(MEMBER_NOT_FOUND);
  return row;
}

export async function listMembers(
  ctx: AppContext,
  actor: User,
  idText: string,
): Promise<WorkspaceMember[]> {
  const { workspace } = await managedWorkspace(ctx, actor, idText);
  return memberRows(ctx, ctx.database.db, workspace);
}

export async function getMember(
  ctx: AppContext,
  actor: User,
  idText: string,
  userIdText: string,
): Promise<WorkspaceMember> {
  const { workspace } = await managedWorkspace(ctx, actor, idText);
  return findMember(ctx, ctx.database.db, workspace, userIdText);
}

export async function updateMember(
  ctx: AppContext,
  actor: User,
  idText: string,
  userIdText: string,
  body: WorkspaceMemberUpdate,
): Promise<WorkspaceMember> {
  const { workspace, role: actorRole } = await managedWorkspace(ctx, actor, idText);
  const updated = await ctx.database.db.transaction(async (tx) => {
    await lockWorkspace(tx, workspace.id);
    const target = await findMember(ctx, tx, workspace, userIdText);
    const current = target.workspace_role;
    const role = body.workspace_role ?? current;
    if ((role === 'owner' || current === 'owner') && role !== current) {
      if (actorRole !== 'owner') throw forbidden(OWNER_ROLE_NEEDS_OWNER);
      if (current === 'owner' && (await countWorkspaceOwners(tx, workspace.id)) <= 1) {
        throw badRequest(LAST_OWNER);
      }
    }
    // A role held through the global setting becomes a membership once it is set.
    const changed = role !== current || (target.global && body.workspace_role !== undefined);
    if (changed) await setWorkspaceMember(tx, workspace.id, target.id, role);
    if (body.reset_projects_roles) await deleteProjectRolesInWorkspace(tx, workspace.id, target.id);
    if (changed || body.reset_projects_roles) {
      await recordAudit(ctx, tx, {
        action: 'workspace.member_role_changed',
        workspace: { id: workspace.id, name: workspace.name },
        target: { type: 'user', id: target.id, name: target.username },
        details: { from: current, to: role, reset_project_roles: !!body.reset_projects_roles },
      });
      await queueMemberChange(ctx, tx, workspace, actor.id, target, {
        change: 'role_changed',
        role,
        previous_role: current,
        projects_roles_reset: body.reset_projects_roles === true,
      });
    }
    const { global, ...member } = target;
    return global && !changed ? target : { ...member, workspace_role: role };
  });
  kickWebhooks(ctx);
  return updated;
}

export async function removeMember(
  ctx: AppContext,
  actor: User,
  idText: string,
  userIdText: string,
): Promise<void> {
  const { workspace, role: actorRole } = await managedWorkspace(ctx, actor, idText);
  await ctx.database.db.transaction(async (tx) => {
    await lockWorkspace(tx, workspace.id);
    const target = await findMember(ctx, tx, workspace, userIdText);
    if (target.global) throw badRequest(GLOBAL_ROLE_STAYS);
    if (target.workspace_role === 'owner') {
      if (actorRole !== 'owner') throw forbidden(OWNER_ROLE_NEEDS_OWNER);
      if ((await countWorkspaceOwners(tx, workspace.id)) <= 1) throw badRequest(LAST_OWNER);
    }
    await deleteWorkspaceMember(tx, workspace.id, target.id);
    await recordAudit(ctx, tx, {
      action: 'workspace.member_removed',
      workspace: { id: workspace.id, name: workspace.name },
      target: { type: 'user', id: target.id, name: target.username },
      details: { role: target.workspace_role },
    });
    await queueMemberChange(ctx, tx, workspace, actor.id, target, {
      change: 'removed',
      previous_role: target.workspace_role,
    });
  });
  kickWebhooks(ctx);
}
