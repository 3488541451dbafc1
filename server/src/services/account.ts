/**
 * A user's own account (api-reference A.2, A.3): password reset by email link, password
 * change, email confirmation, profile edits and closing the account.
 *
 * Sessions: a password change ends every other session of the user (the one making the
 * change stays signed in); a password reset and closing the account end all of them.
 * Both password paths set users.password_changed_at, so bearer tokens issued before the
 * change are refused as well.
 *
 * A new email is only pending (users.pending_email) until the link mailed to it is followed:
 * until then `email` stays the account's address for everything (sign-in, resets,
 * invitations, mail), so nobody gains anything by typing someone else's address.
 */
import { CONFIRMATION_MAILS, limitMail, RESET_MAILS, takeRateLimit } from '../auth/rate-limits';
import { hashPassword, validatePassword, verifyPassword } from '../auth/passwords';
import { makeToken, passwordFingerprint, readToken } from '../auth/tokens';
import type { AppContext } from '../context';
import { actorOf, recordAudit } from './audit';
import { declinePendingRequestsOf } from '../db/queries/access-requests';
import { deleteUserProjectMemberships } from '../db/queries/projects';
import { deleteOtherUserSessions, deleteUserSessions } from '../db/queries/sessions';
import {
  emailTakenByOther,
  findUserByEmail,
  findUserById,
  setPasswordHash,
  updateUser,
} from '../db/queries/users';
import { isUniqueViolation } from '../db/errors';
import type { User } from '../db/schema';
import { deliver } from '../email';
import { confirmEmailMessage, resetPasswordMessage } from '../email/messages';
import {
  authRequired,
  badRequest,
  FIELD_REQUIRED_TEXT,
  forbidden,
  FormError,
  JsonTextError,
  notFound,
  type FieldErrors,
} from '../errors';
import { emailError } from '../lib/validation';
import { INVALID_TOKEN } from '../schemas/protocol';
import { assertSignedIn } from './permissions';

export const CANNOT_EDIT_PROFILE = 'You cannot edit profile of this user';
export const ACCOUNT_NOT_ACTIVE = 'Account is not active';
export const ACCOUNT_NOT_FOUND = 'Account with given email does not exist';
export const EMAIL_EXISTS = 'Email already exists';
export const OLD_PASSWORD_INCORRECT = 'The old password is incorrect';
export const PASSWORDS_MUST_MATCH = 'Passwords must match';
export const NAME_MAX_LENGTH = 256;

/** The form fields of the calls below: anything may be missing or of the wrong kind. */
type Fields = Record<string, unknown>;

function text(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

/** Signed in, active, and with a password (an account without one is managed elsewhere). */
function assertProfileEditable(user: User | null): asserts user is User {
  if (!user) throw authRequired();
  if (!user.active || !user.passwordHash) throw new JsonTextError(403, CANNOT_EDIT_PROFILE);
}

/** Errors of a new password and its confirmation (fields `password` and `confirm`). */
function newPasswordErrors(input: Fields): FieldErrors {
  const errors: FieldErrors = {};
  const password = text(input.password);
  const confirm = text(input.confirm);
  if (password === '') errors.password = [FIELD_REQUIRED_TEXT];
  else {
    const problem = validatePassword(password);
    if (problem) errors.password = [problem];
  }
  if (confirm === '') errors.confirm = [FIELD_REQUIRED_TEXT];
  else if (confirm !== password) errors.confirm = [PASSWORDS_MUST_MATCH];
  return errors;
}

function throwIfAny(errors: FieldErrors, status = 400): void {
  if (Object.keys(errors).length > 0) throw new FormError(status, errors);
}

function resetLink(ctx: AppContext, user: User): string {
  const token = makeToken(
    ctx.config.secretKey,
    'reset-password',
    { userId: user.id, email: user.email!, passwordHash: user.passwordHash },
    ctx.now(),
  );
  return `${ctx.config.baseUrl}/change-password/${token}`;
}

function confirmLink(ctx: AppContext, user: User, email: string): string {
  const token = makeToken(
    ctx.config.secretKey,
    'confirm-email',
    { userId: user.id, email },
    ctx.now(),
  );
  return `${ctx.config.baseUrl}/confirm-email/${token}`;
}

/**
 * Mails a confirmation link for `email` (the account's address or its pending one), within
 * the confirmation mail limits of that address and of the user (auth/rate-limits.ts);
 * `before` runs first, inside the limit (a refusal runs neither).
 */
async function sendConfirmation(
  ctx: AppContext,
  user: User,
  email: string,
  before: () => Promise<void> = async () => {},
): Promise<void> {
  await limitMail(
    ctx,
    CONFIRMATION_MAILS,
    { subject: email, source: `user:${user.id}` },
    async () => {
      await before();
      await deliver(
        ctx.mailer,
        ctx.log,
        confirmEmailMessage(email, user.username, confirmLink(ctx, user, email)),
      );
    },
  );
}

/** The address a confirmation link is for now: the pending one, else an unverified email. */
export function addressToConfirm(user: User): string | null {
  if (user.pendingEmail) return user.pendingEmail;
  return user.email && !user.verifiedEmail ? user.email : null;
}

function sameEmail(a: string | null | undefined, b: string | null | undefined): boolean {
  return !!a && !!b && a.toLowerCase() === b.toLowerCase();
}

/** The user a link token was issued for, or the reference's errors. */
async function tokenUser(ctx: AppContext, userId: number, email: string): Promise<User> {
  const user = await findUserByEmail(ctx.database.db, email);
  // The email now belongs to nobody, or to another account: the link's account is gone.
  if (!user || user.id !== userId) throw notFound();
  return user;
}

/**
 * POST /app/auth/reset-password: mails a link to set a new password, within the reset
 * limits (auth/rate-limits.ts) of the email and the client `address`. Every request that
 * passes the form checks counts, whether or not an account has the email, so the limits
 * tell nothing about accounts.
 */
export async function requestPasswordReset(
  ctx: AppContext,
  input: Fields,
  address: string | null,
): Promise<void> {
  const email = text(input.email).trim();
  if (email === '') throw new FormError(400, { email: [FIELD_REQUIRED_TEXT] });
  const problem = emailError(email);
  if (problem) throw new FormError(400, { email: [problem] });
  await takeRateLimit(ctx, RESET_MAILS, { subject: email, source: address });
  const user = await findUserByEmail(ctx.database.db, email);
  if (!user) throw new FormError(404, { email: [ACCOUNT_NOT_FOUND] });
  if (!user.active) throw new FormError(400, { email: [ACCOUNT_NOT_ACTIVE] });
  if (!user.passwordHash) throw forbidden(CANNOT_EDIT_PROFILE);
  await deliver(
    ctx.mailer,
    ctx.log,
    resetPasswordMessage(user.email!, user.username, resetLink(ctx, user)),
  );
}

/** POST /app/auth/reset-password/:token: sets the new password; the link is then spent. */
export async function resetPassword(ctx: AppContext, token: string, input: Fields): Promise<void> {
  const now = ctx.now();
  const claims = readToken(ctx.config.secretKey, 'reset-password', token, now);
  if (!claims) throw badRequest(INVALID_TOKEN);
  const user = await tokenUser(ctx, claims.userId, claims.email);
  if (!user.active) throw badRequest(ACCOUNT_NOT_ACTIVE);
  if (!user.passwordHash) throw forbidden(CANNOT_EDIT_PROFILE);
  if (claims.passwordFingerprint !== passwordFingerprint(ctx.config.secretKey, user.passwordHash)) {
    throw badRequest(INVALID_TOKEN);
  }
  throwIfAny(newPasswordErrors(input));
  const passwordHash = await hashPassword(text(input.password));
  await ctx.database.db.transaction(async (tx) => {
    // Compare-and-set: of two requests racing with one link, only the first succeeds.
    if (!(await setPasswordHash(tx, user.id, passwordHash, now, user.passwordHash!))) {
      throw badRequest(INVALID_TOKEN);
    }
    await deleteUserSessions(tx, user.id);
    await recordAudit(ctx, tx, {
      action: 'account.password_reset',
      actor: actorOf(user),
      target: { type: 'user', id: user.id, name: user.username },
    });
  });
}

/** POST /app/auth/change-password: ends the user's other sessions. */
export async function changePassword(
  ctx: AppContext,
  user: User | null,
  currentSessionHash: string | null,
  input: Fields,
): Promise<void> {
  assertProfileEditable(user);
  const oldPassword = text(input.old_password);
  const errors: FieldErrors = oldPassword === '' ? { old_password: [FIELD_REQUIRED_TEXT] } : {};
  throwIfAny(Object.assign(errors, newPasswordErrors(input)));
  if (!(await verifyPassword(user.passwordHash!, oldPassword))) {
    throw new FormError(400, { old_password: [OLD_PASSWORD_INCORRECT] });
  }
  const passwordHash = await hashPassword(text(input.password));
  await ctx.database.db.transaction(async (tx) => {
    await setPasswordHash(tx, user.id, passwordHash, ctx.now());
    await deleteOtherUserSessions(tx, user.id, currentSessionHash);
    await recordAudit(ctx, tx, {
      action: 'account.password_changed',
      target: { type: 'user', id: user.id, name: user.username },
    });
  });
}

/**
 * POST /app/auth/confirm-email/:token: a link for the account's address verifies it; a link
 * for its pending address makes that the account's (verified) address. A link for an address
 * the account no longer has or asks for is 'Invalid token'; one whose address another account
 * took meanwhile is 400 'Email already exists'.
 */
export async function confirmEmail(ctx: AppContext, token: string): Promise<void> {
  const claims = readToken(ctx.config.secretKey, 'confirm-email', token, ctx.now());
  if (!claims) throw badRequest(INVALID_TOKEN);
  const user = await findUserById(ctx.database.db, claims.userId);
  if (!user) throw notFound();
  if (!user.active || !user.passwordHash) throw forbidden(CANNOT_EDIT_PROFILE);
  if (sameEmail(claims.email, user.email)) {
    if (user.verifiedEmail) return;
    await ctx.database.db.transaction(async (tx) => {
      await updateUser(tx, user.id, { verifiedEmail: true });
      await recordAudit(ctx, tx, {
        action: 'account.email_confirmed',
        actor: actorOf(user),
        target: { type: 'user', id: user.id, name: user.username },
        details: { email: user.email },
      });
    });
    return;
  }
  if (!sameEmail(claims.email, user.pendingEmail)) throw badRequest(INVALID_TOKEN);
  try {
    await ctx.database.db.transaction(async (tx) => {
      if (await emailTakenByOther(tx, user.pendingEmail!, user.id)) {
        throw badRequest(EMAIL_EXISTS);
      }
      await updateUser(tx, user.id, {
        email: user.pendingEmail,
        verifiedEmail: true,
        pendingEmail: null,
      });
      await recordAudit(ctx, tx, {
        action: 'account.email_changed',
        actor: actorOf(user),
        target: { type: 'user', id: user.id, name: user.username },
        details: { from: user.email, to: user.pendingEmail },
      });
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw badRequest(EMAIL_EXISTS);
    throw error;
  }
}

/**
 * GET /app/auth/resend-confirm-email: mails the link for the pending address, else for an
 * unverified email; with nothing to confirm nothing is sent.
 */
export async function resendConfirmation(ctx: AppContext, user: User | null): Promise<void> {
  assertProfileEditable(user);
  const email = addressToConfirm(user);
  if (email) await sendConfirmation(ctx, user, email);
}

/**
 * DELETE /app/auth/user/pending-email: drops the pending address (its link stops working);
 * the account keeps its email.
 */
export async function cancelEmailChange(ctx: AppContext, user: User | null): Promise<void> {
  assertProfileEditable(user);
  await updateUser(ctx.database.db, user.id, { pendingEmail: null });
}

/** Trimmed optional name; '' is stored as null. */
function optionalName(value: unknown, field: string, errors: FieldErrors): string | null {
  const name = text(value).trim();
  if (name.length > NAME_MAX_LENGTH) {
    errors[field] = [`Field cannot be longer than ${NAME_MAX_LENGTH} characters.`];
  }
  return name === '' ? null : name;
}

/**
 * POST /app/auth/user/profile. Only the fields present are changed; `email` is required.
 * A different email becomes the pending one and its confirmation link is mailed to it (within
 * the confirmation limits: a 429 changes nothing); the account keeps its address until the
 * link is followed. The account's own address (any letter case) changes nothing pending.
 */
export async function updateProfile(
  ctx: AppContext,
  user: User | null,
  input: Fields,
): Promise<void> {
  assertProfileEditable(user);
  const errors: FieldErrors = {};
  const email = text(input.email).trim();
  if (email === '') errors.email = [FIELD_REQUIRED_TEXT];
  else {
    const problem = emailError(email);
    if (problem) errors.email = [problem];
  }
  const changes: Parameters<typeof updateUser>[2] = {};
  if ('first_name' in input)
    changes.firstName = optionalName(input.first_name, 'first_name', errors);
  if ('last_name' in input) changes.lastName = optionalName(input.last_name, 'last_name', errors);
  if (typeof input.receive_notifications === 'boolean') {
    changes.receiveNotifications = input.receive_notifications;
  }
  throwIfAny(errors);

  const emailChanged = !sameEmail(email, user.email);
  // The same address in another letter case is saved as typed (it stays verified).
  if (emailChanged) changes.pendingEmail = email;
  else changes.email = email;
  const save = async () => {
    try {
      await ctx.database.db.transaction(async (tx) => {
        if (emailChanged && (await emailTakenByOther(tx, email, user.id))) {
          throw new FormError(400, { email: [EMAIL_EXISTS] });
        }
        await updateUser(tx, user.id, changes);
        if (emailChanged) {
          await recordAudit(ctx, tx, {
            action: 'account.email_change_requested',
            target: { type: 'user', id: user.id, name: user.username },
            details: { from: user.email, to: email },
          });
        }
      });
    } catch (error) {
      if (isUniqueViolation(error)) throw new FormError(400, { email: [EMAIL_EXISTS] });
      throw error;
    }
  };
  // Counted before anything is saved: a refused change leaves the profile as it was.
  if (emailChanged) await sendConfirmation(ctx, user, email, save);
  else await save();
}

/**
 * DELETE /v1/user: deactivates the account, removes its project memberships, declines its
 * pending access requests and ends all its sessions. The row stays (username and email
 * remain taken) until the anonymisation job.
 */
export async function closeAccount(ctx: AppContext, user: User | null): Promise<void> {
  assertSignedIn(user);
  const now = ctx.now();
  await ctx.database.db.transaction(async (tx) => {
    await updateUser(tx, user.id, { active: false, inactiveSince: now });
    await deleteUserProjectMemberships(tx, user.id);
    await declinePendingRequestsOf(tx, user.id, now);
    await deleteUserSessions(tx, user.id);
  });
}
