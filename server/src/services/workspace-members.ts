/**
 * A workspace's members and invitations, for its admins and owners: the web app's members
 * screen and the reference's v2 calls share these. Rules: only admins and owners manage; only
 * an owner grants, changes or removes the owner role; the last owner stays.
 *
 * Who takes an invitation: whoever holds its link (the token mailed to the invited address;
 * signed in with that address, or creating the account for it), or, without the link, a user
 * whose *verified* email is the invited address (the profile's list). A new email is only
 * pending until confirmed (services/account.ts), so typing someone's address gains nothing.
 * Invitation mails and guessed links are limited (auth/rate-limits.ts).
 */
import { createHash, randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { AppContext } from '../context';
import { actorOf, recordAudit } from './audit';
import type { Executor } from '../db/database';
import { hashPassword, validatePassword } from '../auth/passwords';
import {
  INVITATION_GUESSES,
  INVITATION_MAILS,
  limitMail,
  takeRateLimit,
} from '../auth/rate-limits';
import { findUserByEmail, findUserByUsername, insertUser, updateUser } from '../db/queries/users';
import {
  countWorkspaceOwners,
  deleteInvitation,
  deleteProjectRolesInWorkspace,
  deleteWorkspaceMember,
  findInvitationByTokenHash,
  findInvitationByUuid,
  listInvitations,
  listEveryoneWithWorkspaceRole,
  listInvitationsForEmail,
  listWorkspaceMembers,
  upsertInvitation,
  type MemberRow,
} from '../db/queries/workspace-members';
import {
  findWorkspaceById,
  findWorkspaceMemberRole,
  setWorkspaceMember,
} from '../db/queries/workspaces';
import type { User, Workspace, WorkspaceInvitation, WorkspaceRole } from '../db/schema';
import { deliver } from '../email';
import { workspaceInvitationMessage } from '../email/messages';
import { badRequest, forbidden, FormError, HttpProblem, notFound } from '../errors';
import { emailError, usernameError } from '../lib/validation';
import type {
  CreateInvitation,
  CreateMemberAccount,
  InvitationRegister,
  InvitationOffer,
  OwnInvitation,
  WorkspaceInvitation as InvitationView,
  WorkspaceMember,
  WorkspaceMemberUpdate,
} from '../schemas/workspace-members';
import {
  hasWorkspaceRole,
  isGlobalWorkspace,
  isUuid,
  workspaceRole,
  workspaceRoleRank,
} from './permissions';
import { reservedUsernameError } from './templates';
import { kickWebhooks } from './webhooks/dispatcher';
import { queueWorkspaceEvent } from './webhooks/events';
import { NO_WORKSPACE_PERMISSION, WORKSPACE_NOT_FOUND } from './workspaces';

export const MEMBER_NOT_FOUND = 'User is not a member of this workspace';
export const ALREADY_WORKSPACE_MEMBER = 'User is already a member of this workspace';
export const OWNER_ROLE_NEEDS_OWNER =
  'Only a workspace owner can grant, change or remove the owner role';
export const LAST_OWNER = 'The workspace must keep at least one owner';
export const GLOBAL_ROLE_STAYS =
  "This user's role comes from the server's global setting (GLOBAL_READ, GLOBAL_WRITE or GLOBAL_ADMIN) and cannot be removed";
export const EMAIL_TAKEN = 'User with this email already exists';
export const USERNAME_TAKEN = 'User with this username already exists';
export const INVITATION_NOT_FOUND = 'Invitation not found';
export const INVITATION_EXPIRED = 'This invitation has expired';
export const INVITATION_OTHER_EMAIL = 'This invitation was sent to another email address';

/** How long an invitation link is valid. */
export const INVITATION_TTL_MS = 7 * 24 * 60 * 60 * 1000;

interface Managed {
  workspace: Workspace;
  role: WorkspaceRole;
}

/** A path segment as a database id (at most 9 digits), or null. */
function idOf(text: string): number | null {
  return /^\d{1,9}$/.test(text) ? Number(text) : null;
}

/** The workspace `actor` manages (admin or owner), or the 404/403 answer. */
async function managedWorkspace(ctx: AppContext, actor: User, idText: string): Promise<Managed> {
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

/** Serialises member changes of one workspace (the last-owner rule reads, then writes). */
async function lockWorkspace(tx: Executor, workspaceId: number): Promise<void> {
  await tx.execute(sql`SELECT id FROM workspaces WHERE id = ${workspaceId} FOR UPDATE`);
}

function memberView(row: MemberRow, global = false): WorkspaceMember {
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

function invitationView(row: WorkspaceInvitation): InvitationView {
  return {
    id: row.id,
    workspace_id: row.workspaceId,
    email: row.email,
    role: row.role,
    created_at: row.createdAt.toISOString(),
    expires_at: row.expiresAt.toISOString(),
  };
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
      await queueWorkspaceEvent(tx, {
        type: 'member.changed',
        workspace,
        at: ctx.now(),
        actorId: actor.id,
        data: {
          change: 'role_changed',
          user: { id: target.id, username: target.username },
          role,
          previous_role: current,
          projects_roles_reset: body.reset_projects_roles === true,
        },
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
    await queueWorkspaceEvent(tx, {
      type: 'member.changed',
      workspace,
      at: ctx.now(),
      actorId: actor.id,
      data: {
        change: 'removed',
        user: { id: target.id, username: target.username },
        previous_role: target.workspace_role,
      },
    });
  });
  kickWebhooks(ctx);
}

function tokenHash(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/**
 * Invites `email` with `role` and mails the link; a pending invitation is renewed. Within the
 * invitation mail limits of the address and of the inviting user: a refusal (429) changes
 * nothing, and a refused invitation (409) does not count.
 */
export async function inviteMember(
  ctx: AppContext,
  actor: User,
  idText: string,
  body: CreateInvitation,
): Promise<InvitationView> {
  const { workspace, role: actorRole } = await managedWorkspace(ctx, actor, idText);
  const email = body.email.trim();
  const problem = emailError(email);
  if (problem) throw new FormError(400, { email: [problem] });
  if (body.role === 'owner' && actorRole !== 'owner') throw forbidden(OWNER_ROLE_NEEDS_OWNER);
  const token = randomBytes(24).toString('base64url');
  const now = ctx.now();
  return limitMail(
    ctx,
    INVITATION_MAILS,
    { subject: email, source: `user:${actor.id}` },
    async () => {
      const invitation = await ctx.database.db.transaction(async (tx) => {
        await lockWorkspace(tx, workspace.id);
        const existing = await findUserByEmail(tx, email);
        if (existing && (await findWorkspaceMemberRole(tx, workspace.id, existing.id))) {
          throw new HttpProblem(409, ALREADY_WORKSPACE_MEMBER);
        }
        const made = await upsertInvitation(tx, {
          workspaceId: workspace.id,
          email,
          role: body.role,
          tokenHash: tokenHash(token),
          invitedBy: actor.id,
          createdAt: now,
          expiresAt: new Date(now.getTime() + INVITATION_TTL_MS),
        });
        await recordAudit(ctx, tx, {
          action: 'workspace.invitation_sent',
          workspace: { id: workspace.id, name: workspace.name },
          target: { type: 'invitation', id: made.id, name: email },
          details: { role: body.role },
        });
        return made;
      });
      const url = `${ctx.config.baseUrl}/invitations/${token}`;
      await deliver(
        ctx.mailer,
        ctx.log,
        workspaceInvitationMessage(email, actor.username, workspace.name, body.role, url),
      );
      return invitationView(invitation);
    },
  );
}

export async function listPendingInvitations(
  ctx: AppContext,
  actor: User,
  idText: string,
): Promise<InvitationView[]> {
  const { workspace } = await managedWorkspace(ctx, actor, idText);
  return (await listInvitations(ctx.database.db, workspace.id)).map(invitationView);
}

export async function revokeInvitation(
  ctx: AppContext,
  actor: User,
  idText: string,
  invitationIdText: string,
): Promise<void> {
  const { workspace } = await managedWorkspace(ctx, actor, idText);
  const id = idOf(invitationIdText);
  if (id === null) throw notFound(INVITATION_NOT_FOUND);
  await ctx.database.db.transaction(async (tx) => {
    const revoked = await deleteInvitation(tx, workspace.id, id);
    if (!revoked) throw notFound(INVITATION_NOT_FOUND);
    await recordAudit(ctx, tx, {
      action: 'workspace.invitation_revoked',
      workspace: { id: workspace.id, name: workspace.name },
      target: { type: 'invitation', id, name: revoked.email },
      details: { role: revoked.role },
    });
  });
}

/**
 * Runs `run` (a call of an invitation link) within the limit on guessed links of the client
 * `address`: a link that names no invitation (404) counts, any other answer does not.
 */
async function withInvitationLink<T>(
  ctx: AppContext,
  address: string | null,
  run: () => Promise<T>,
): Promise<T> {
  const release = await takeRateLimit(ctx, INVITATION_GUESSES, { source: address });
  let result: T;
  try {
    result = await run();
  } catch (error) {
    if (!(error instanceof HttpProblem && error.status === 404)) await release();
    throw error;
  }
  await release();
  return result;
}

async function invitationFor(
  db: Executor,
  token: string,
): Promise<{ invitation: WorkspaceInvitation; workspace: Workspace }> {
  const invitation = await findInvitationByTokenHash(db, tokenHash(token));
  const workspace = invitation ? await findWorkspaceById(db, invitation.workspaceId) : null;
  if (!invitation || !workspace || !workspace.active) throw notFound(INVITATION_NOT_FOUND);
  return { invitation, workspace };
}

function offerView(
  invitation: WorkspaceInvitation,
  workspace: Workspace,
  accountExists: boolean,
): InvitationOffer {
  return {
    workspace: workspace.name,
    workspace_id: workspace.id,
    email: invitation.email,
    role: invitation.role,
    expires_at: invitation.expiresAt.toISOString(),
    account_exists: accountExists,
  };
}

/**
 * GET /app/invitations/{token}: what the link offers (the token is the secret), to the client
 * `address` (guessed links are limited).
 */
export async function showInvitation(
  ctx: AppContext,
  token: string,
  address: string | null,
): Promise<InvitationOffer> {
  return withInvitationLink(ctx, address, async () => {
    const db = ctx.database.db;
    const { invitation, workspace } = await invitationFor(db, token);
    return offerView(invitation, workspace, (await findUserByEmail(db, invitation.email)) !== null);
  });
}

/**
 * POST /app/invitations/{token}/accept: the signed-in user whose account email is the invited
 * address joins with its role (a higher role they already hold stays); the link is then spent.
 * Holding the link mailed there proves the mailbox, so an unverified email becomes verified.
 */
export async function acceptInvitation(
  ctx: AppContext,
  user: User,
  token: string,
  address: string | null,
): Promise<InvitationOffer> {
  return withInvitationLink(ctx, address, () =>
    ctx.database.db.transaction(async (tx) => {
      const { invitation, workspace } = await invitationFor(tx, token);
      if (!isInvitedEmail(user, invitation)) throw forbidden(INVITATION_OTHER_EMAIL);
      if (!user.verifiedEmail) await updateUser(tx, user.id, { verifiedEmail: true });
      return join(ctx, tx, user, invitation, workspace);
    }),
  );
}

/** The account's email (not a pending one) is the invited address, in any letter case. */
function isInvitedEmail(user: User, invitation: WorkspaceInvitation): boolean {
  return !!user.email && user.email.toLowerCase() === invitation.email.toLowerCase();
}

/** The invited user joins with the invitation's role (a higher one stays); it is then spent. */
async function join(
  ctx: AppContext,
  tx: Executor,
  user: User,
  invitation: WorkspaceInvitation,
  workspace: Workspace,
): Promise<InvitationOffer> {
  if (invitation.expiresAt.getTime() <= ctx.now().getTime()) throw badRequest(INVITATION_EXPIRED);
  const current = await findWorkspaceMemberRole(tx, workspace.id, user.id);
  if (!current || workspaceRoleRank(current) < workspaceRoleRank(invitation.role)) {
    await setWorkspaceMember(tx, workspace.id, user.id, invitation.role);
    await queueWorkspaceEvent(tx, {
      type: 'member.changed',
      workspace,
      at: ctx.now(),
      actorId: user.id,
      data: {
        change: current ? 'role_changed' : 'added',
        user: { id: user.id, username: user.username },
        role: invitation.role,
        previous_role: current,
      },
    });
  }
  await deleteInvitation(tx, workspace.id, invitation.id);
  await recordAudit(ctx, tx, {
    action: 'workspace.invitation_accepted',
    actor: actorOf(user),
    workspace: { id: workspace.id, name: workspace.name },
    target: { type: 'invitation', id: invitation.id, name: invitation.email },
    details: { role: invitation.role },
  });
  return offerView(invitation, workspace, true);
}

/**
 * The profile's `invitations` (api-reference A.3: `{uuid, workspace, role}`): the unexpired
 * invitations of the user's verified email into active workspaces (an unverified or pending
 * address lists nothing: the list must not tell which addresses are invited).
 */
export async function listOwnInvitations(ctx: AppContext, user: User): Promise<OwnInvitation[]> {
  if (!user.email || !user.verifiedEmail) return [];
  const rows = await listInvitationsForEmail(ctx.database.db, user.email, ctx.now());
  return rows.map(({ invitation, workspace }) => ({
    uuid: invitation.uuid,
    workspace: workspace.name,
    role: invitation.role,
  }));
}

/**
 * One of the user's own invitations (by the profile's uuid) and its workspace: addressed to
 * the user's verified email. Another address's invitation (or any, while the user's email is
 * unverified) is not found either: the uuid reveals nothing about others.
 */
async function ownInvitation(
  tx: Executor,
  user: User,
  uuid: string,
): Promise<{ invitation: WorkspaceInvitation; workspace: Workspace }> {
  const invitation = isUuid(uuid) ? await findInvitationByUuid(tx, uuid.toLowerCase()) : null;
  const workspace = invitation ? await findWorkspaceById(tx, invitation.workspaceId) : null;
  if (
    !invitation ||
    !workspace ||
    !workspace.active ||
    !user.verifiedEmail ||
    !isInvitedEmail(user, invitation)
  ) {
    throw notFound(INVITATION_NOT_FOUND);
  }
  return { invitation, workspace };
}

/** POST /app/user/invitations/{uuid}/accept: as the link's accept, from the header's list. */
export async function acceptOwnInvitation(
  ctx: AppContext,
  user: User,
  uuid: string,
): Promise<InvitationOffer> {
  return ctx.database.db.transaction(async (tx) => {
    const { invitation, workspace } = await ownInvitation(tx, user, uuid);
    return join(ctx, tx, user, invitation, workspace);
  });
}

/** DELETE /app/user/invitations/{uuid}: the invited user declines; the invitation is gone. */
export async function declineOwnInvitation(
  ctx: AppContext,
  user: User,
  uuid: string,
): Promise<void> {
  await ctx.database.db.transaction(async (tx) => {
    const { invitation, workspace } = await ownInvitation(tx, user, uuid);
    await deleteInvitation(tx, workspace.id, invitation.id);
  });
}

/**
 * POST /app/invitations/{token}/register: a person without an account creates one for the
 * invited email (the link proves the mailbox, so the email counts as verified) and joins. The
 * route then signs the new user in.
 */
export async function registerFromInvitation(
  ctx: AppContext,
  token: string,
  body: InvitationRegister,
  address: string | null,
): Promise<User> {
  const username = body.username.trim();
  const usernameProblem = usernameError(username) ?? reservedUsernameError(username);
  const passwordProblem = validatePassword(body.password);
  if (usernameProblem || passwordProblem) {
    const fields: Record<string, string[]> = {};
    if (usernameProblem) fields.username = [`Username ${usernameProblem}`];
    if (passwordProblem) fields.password = [passwordProblem];
    throw new FormError(400, fields);
  }
  const passwordHash = await hashPassword(body.password);
  return withInvitationLink(ctx, address, () =>
    ctx.database.db.transaction(async (tx) => {
      const { invitation, workspace } = await invitationFor(tx, token);
      if (invitation.expiresAt.getTime() <= ctx.now().getTime()) {
        throw badRequest(INVITATION_EXPIRED);
      }
      if (await findUserByEmail(tx, invitation.email)) throw new HttpProblem(409, EMAIL_TAKEN);
      if (await findUserByUsername(tx, username)) {
        throw new FormError(400, { username: [USERNAME_TAKEN] });
      }
      const user = await insertUser(tx, {
        username,
        email: invitation.email,
        passwordHash,
        active: true,
        verifiedEmail: true,
        preferredWorkspaceId: workspace.id,
      });
      await setWorkspaceMember(tx, workspace.id, user.id, invitation.role);
      await deleteInvitation(tx, workspace.id, invitation.id);
      await recordAudit(ctx, tx, {
        action: 'workspace.invitation_accepted',
        actor: actorOf(user),
        workspace: { id: workspace.id, name: workspace.name },
        target: { type: 'invitation', id: invitation.id, name: invitation.email },
        details: { role: invitation.role, registered: true },
      });
      return user;
    }),
  );
}

/**
 * A free username made from the email's local part (letters, digits, _ - . kept); never a
 * reserved one (templates@… becomes templates1).
 */
async function usernameFromEmail(db: Executor, email: string): Promise<string> {
  const local = email
    .split('@')[0]!
    .replace(/[^\w\-.]/g, '')
    .replace(/^\.+/, '');
  const base = (local.length >= 4 ? local : `${local}user`).slice(0, 44);
  for (let n = 0; n < 100; n++) {
    const candidate = n === 0 ? base : `${base}${n}`;
    if (reservedUsernameError(candidate)) continue;
    if (!(await findUserByUsername(db, candidate))) return candidate;
  }
  throw new HttpProblem(409, USERNAME_TAKEN);
}

/**
 * POST /v2/users (the plugin's library, gate 2025.1): a workspace admin creates an account with
 * a password, and it joins the workspace with `role`. No mail is sent (notify_user is accepted).
 */
export async function createMemberAccount(
  ctx: AppContext,
  actor: User,
  body: CreateMemberAccount,
): Promise<WorkspaceMember> {
  const { workspace, role: actorRole } = await managedWorkspace(
    ctx,
    actor,
    String(body.workspace_id),
  );
  if (body.role === 'owner' && actorRole !== 'owner') throw forbidden(OWNER_ROLE_NEEDS_OWNER);
  const email = body.email.trim();
  const emailProblem = emailError(email);
  if (emailProblem) throw new FormError(400, { email: [emailProblem] });
  const passwordProblem = validatePassword(body.password);
  if (passwordProblem) throw new FormError(400, { password: [passwordProblem] });
  const given = body.username?.trim();
  const usernameProblem =
    given === undefined || given === ''
      ? null
      : (usernameError(given) ?? reservedUsernameError(given));
  if (usernameProblem) throw new FormError(400, { username: [`Username ${usernameProblem}`] });
  const passwordHash = await hashPassword(body.password);
  return ctx.database.db.transaction(async (tx) => {
    await lockWorkspace(tx, workspace.id);
    if (await findUserByEmail(tx, email)) throw new HttpProblem(409, EMAIL_TAKEN);
    let username: string;
    if (given) {
      if (await findUserByUsername(tx, given)) throw new HttpProblem(409, USERNAME_TAKEN);
      username = given;
    } else {
      username = await usernameFromEmail(tx, email);
    }
    const user = await insertUser(tx, {
      username,
      email,
      passwordHash,
      active: true,
      verifiedEmail: false,
      preferredWorkspaceId: workspace.id,
    });
    await setWorkspaceMember(tx, workspace.id, user.id, body.role);
    await recordAudit(ctx, tx, {
      action: 'workspace.member_added',
      workspace: { id: workspace.id, name: workspace.name },
      target: { type: 'user', id: user.id, name: username },
      details: { role: body.role, account_created: true },
    });
    return memberView({ id: user.id, username, email, role: body.role });
  });
}
