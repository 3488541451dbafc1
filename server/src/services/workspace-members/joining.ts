/**
 * The invited side of an invitation. Who takes it: whoever holds its link (the token mailed to
 * the invited address; signed in with that address, or creating the account for it:
 * registration.ts), or, without the link, a user whose *verified* email is the invited address
 * (the profile's list). A new email is only pending until confirmed (services/account.ts), so
 * typing someone's address gains nothing. Guessed links are limited (auth/rate-limits.ts).
 */
import type { AppContext } from '../../context';
import { INVITATION_GUESSES, takeRateLimit } from '../../auth/rate-limits';
import type { Executor } from '../../db/database';
import { findUserByEmail, updateUser } from '../../db/queries/users';
import {
  deleteInvitation,
  findInvitationByTokenHash,
  findInvitationByUuid,
  listInvitationsForEmail,
} from '../../db/queries/workspace-members';
import {
  findWorkspaceById,
  findWorkspaceMemberRole,
  setWorkspaceMember,
} from '../../db/queries/workspaces';
import type { User, Workspace, WorkspaceInvitation } from '../../db/schema';
import { badRequest, forbidden, HttpProblem, notFound } from '../../errors';
import type { InvitationOffer, OwnInvitation } from '../../schemas/workspace-members';
import { actorOf, recordAudit } from '../audit';
import { isUuid, workspaceRoleRank } from '../permissions';
import { queueMemberChange } from './members';
import { tokenHash } from './invitations';
import { INVITATION_EXPIRED, INVITATION_NOT_FOUND, INVITATION_OTHER_EMAIL } from './texts';

/**
 * Runs `run` (a call of an invitation link) within the limit on guessed links of the client
 * `address`: a link that names no invitation (404) counts, any other answer does not.
 */
export async function withInvitationLink<T>(
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

/** The invitation a link's token names, and its active workspace, or the 404 answer. */
export async function invitationFor(
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
    await queueMemberChange(ctx, tx, workspace, user.id, user, {
      change: current ? 'role_changed' : 'added',
      role: invitation.role,
      previous_role: current,
    });
  }
  await spendInvitation(ctx, tx, user, invitation, workspace);
  return offerView(invitation, workspace, true);
}

/**
 * The accepted invitation is gone, and the audit log says who took it (`registered`: by
 * creating their account from the link).
 */
export async function spendInvitation(
  ctx: AppContext,
  tx: Executor,
  user: User,
  invitation: WorkspaceInvitation,
  workspace: Workspace,
  registered = false,
): Promise<void> {
  await deleteInvitation(tx, workspace.id, invitation.id);
  await recordAudit(ctx, tx, {
    action: 'workspace.invitation_accepted',
    actor: actorOf(user),
    workspace: { id: workspace.id, name: workspace.name },
    target: { type: 'invitation', id: invitation.id, name: invitation.email },
    details: registered ? { role: invitation.role, registered: true } : { role: invitation.role },
  });
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

/**
 * DELETE /app/user/invitations/{uuid}: the invited user declines; the invitation is gone, and
 * the audit log says who declined it.
 */
export async function declineOwnInvitation(
  ctx: AppContext,
  user: User,
  uuid: string,
): Promise<void> {
  await ctx.database.db.transaction(async (tx) => {
    const { invitation, workspace } = await ownInvitation(tx, user, uuid);
    await deleteInvitation(tx, workspace.id, invitation.id);
    await recordAudit(ctx, tx, {
      action: 'workspace.invitation_declined',
      actor: actorOf(user),
      workspace: { id: workspace.id, name: workspace.name },
      target: { type: 'invitation', id: invitation.id, name: invitation.email },
      details: { role: invitation.role },
    });
  });
}
