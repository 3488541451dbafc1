/**
 * A user's own account (api-reference A.2, A.3): password reset by email link, password
 * change, email confirmation, profile edits and closing the account.
 *
 * Sessions: a password change ends every other session of the user (the one making the
 * change stays signed in); a password reset and closing the account end all of them.
 * Both password paths set users.password_changed_at, so bearer tokens issued before the
 * change are refused as well.
 */
import { limitPasswordReset } from '../auth/reset-limits';
import { hashPassword, validatePassword, verifyPassword } from '../auth/passwords';
import { makeToken, passwordFingerprint, readToken } from '../auth/tokens';
import type { AppContext } from '../context';
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
import { assertSignedIn } from './permissions';

export const CANNOT_EDIT_PROFILE = 'You cannot edit profile of this user';
export const INVALID_TOKEN = 'Invalid token';
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

function confirmLink(ctx: AppContext, user: User): string {
  const token = makeToken(
    ctx.config.secretKey,
    'confirm-email',
    { userId: user.id, email: user.email! },
    ctx.now(),
  );
  return `${ctx.config.baseUrl}/confirm-email/${token}`;
}

async function sendConfirmation(ctx: AppContext, user: User): Promise<void> {
  if (!user.email) return;
  await deliver(
    ctx.mailer,
    ctx.log,
    confirmEmailMessage(user.email, user.username, confirmLink(ctx, user)),
  );
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
 * limits (auth/reset-limits.ts) of the email and the client `address`.
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
  await limitPasswordReset(ctx, { email, address });
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
  });
}

/** POST /app/auth/confirm-email/:token. */
export async function confirmEmail(ctx: AppContext, token: string): Promise<void> {
  const claims = readToken(ctx.config.secretKey, 'confirm-email', token, ctx.now());
  if (!claims) throw badRequest(INVALID_TOKEN);
  const user = await tokenUser(ctx, claims.userId, claims.email);
  if (!user.active || !user.passwordHash) throw forbidden(CANNOT_EDIT_PROFILE);
  if (!user.verifiedEmail) await updateUser(ctx.database.db, user.id, { verifiedEmail: true });
}

/** GET /app/auth/resend-confirm-email. */
export async function resendConfirmation(ctx: AppContext, user: User | null): Promise<void> {
  assertProfileEditable(user);
  await sendConfirmation(ctx, user);
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
 * A changed email is unverified until confirmed through the link mailed to it.
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

  const emailChanged = email.toLowerCase() !== (user.email ?? '').toLowerCase();
  changes.email = email;
  if (emailChanged) changes.verifiedEmail = false;
  try {
    await ctx.database.db.transaction(async (tx) => {
      if (emailChanged && (await emailTakenByOther(tx, email, user.id))) {
        throw new FormError(400, { email: [EMAIL_EXISTS] });
      }
      await updateUser(tx, user.id, changes);
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw new FormError(400, { email: [EMAIL_EXISTS] });
    throw error;
  }
  if (emailChanged) {
    const updated = await findUserById(ctx.database.db, user.id);
    if (updated) await sendConfirmation(ctx, updated);
  }
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
