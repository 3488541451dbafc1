/**
 * A workspace's invitations, for its admins and owners: invite an address (the link is mailed,
 * within the invitation mail limits), list the pending ones, revoke one. The invited side is
 * joining.ts.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { AppContext } from '../../context';
import { INVITATION_MAILS, limitMail } from '../../auth/rate-limits';
import { findUserByEmail } from '../../db/queries/users';
import {
  deleteInvitation,
  listInvitations,
  upsertInvitation,
} from '../../db/queries/workspace-members';
import { findWorkspaceMemberRole, lockWorkspace } from '../../db/queries/workspaces';
import type { User, WorkspaceInvitation } from '../../db/schema';
import { deliver } from '../../email';
import { workspaceInvitationMessage } from '../../email/messages';
import { forbidden, FormError, HttpProblem, notFound } from '../../errors';
import { emailError, idOf } from '../../lib/validation';
import type {
  CreateInvitation,
  WorkspaceInvitation as InvitationView,
} from '../../schemas/workspace-members';
import { recordAudit } from '../audit';
import { managedWorkspace } from '../permissions';
import { ALREADY_WORKSPACE_MEMBER, INVITATION_NOT_FOUND, OWNER_ROLE_NEEDS_OWNER } from './texts';

/** How long an invitation link is valid. */
export const INVITATION_TTL_MS = 7 * 24 * 60 * 60 * 1000;

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

/** What the database keeps of an invitation link's token. */
export function tokenHash(token: string): string {
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
