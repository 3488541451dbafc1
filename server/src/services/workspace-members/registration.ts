/**
 * Accounts made into a workspace: registering from an invitation link, and an admin creating a
 * member's account with a password (POST /v2/users).
 */
import type { AppContext } from '../../context';
import { hashPassword, validatePassword } from '../../auth/passwords';
import type { Executor } from '../../db/database';
import { findUserByEmail, findUserByUsername, insertUser } from '../../db/queries/users';
import { lockWorkspace, setWorkspaceMember } from '../../db/queries/workspaces';
import type { User } from '../../db/schema';
import { badRequest, forbidden, FormError, HttpProblem } from '../../errors';
import { emailError, usernameError } from '../../lib/validation';
import type {
  CreateMemberAccount,
  InvitationRegister,
  WorkspaceMember,
} from '../../schemas/workspace-members';
import { recordAudit } from '../audit';
import { managedWorkspace } from '../permissions';
import { reservedUsernameError } from '../templates';
import { invitationFor, spendInvitation, withInvitationLink } from './joining';
import { memberView } from './members';
import { EMAIL_TAKEN, INVITATION_EXPIRED, OWNER_ROLE_NEEDS_OWNER, USERNAME_TAKEN } from './texts';

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
      await spendInvitation(ctx, tx, user, invitation, workspace, true);
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
