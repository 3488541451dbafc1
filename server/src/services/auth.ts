/** Sign-in and sign-out for browser sessions (api-reference A.2). */
import type { AppContext } from '../context';
import { actorOf, recordAudit } from './audit';
import { burnPasswordCheck, verifyPassword } from '../auth/passwords';
import { createSession, type ClientMeta } from '../auth/sessions';
import { deleteSession } from '../db/queries/sessions';
import { findUserByEmail, findUserByUsername, recordLogin } from '../db/queries/users';
import type { User } from '../db/schema';
import { FIELD_REQUIRED_TEXT, FormError, HttpProblem, type FieldErrors } from '../errors';
import type { LoginBody as LoginInput } from '../schemas/auth';

export const INVALID_CREDENTIALS = 'Invalid username or password';
export const LOGIN_MAX_LENGTH = 80;

/** The login form's fields (`@contract/auth`). */
export type { LoginBody as LoginInput } from '../schemas/auth';

/** Form validation of the login body; throws 401 form errors. */
export function validateLoginForm(input: LoginInput): { login: string; password: string } {
  const login = (input.login ?? '').trim();
  const password = input.password ?? '';
  const errors: FieldErrors = {};
  if (login === '') errors.login = [FIELD_REQUIRED_TEXT];
  else if (login.length > LOGIN_MAX_LENGTH) {
    errors.login = [`Field cannot be longer than ${LOGIN_MAX_LENGTH} characters.`];
  }
  if (password === '') errors.password = [FIELD_REQUIRED_TEXT];
  if (Object.keys(errors).length > 0) throw new FormError(401, errors);
  return { login, password };
}

/** The active user with these credentials, or a 401 'Invalid username or password'. */
export async function authenticate(ctx: AppContext, input: LoginInput): Promise<User> {
  const { login, password } = validateLoginForm(input);
  const db = ctx.database.db;
  const user = login.includes('@')
    ? await findUserByEmail(db, login)
    : await findUserByUsername(db, login);
  if (!user || !user.passwordHash) {
    await burnPasswordCheck(password);
    throw new HttpProblem(401, INVALID_CREDENTIALS);
  }
  const valid = await verifyPassword(user.passwordHash, password);
  if (!valid || !user.active) throw new HttpProblem(401, INVALID_CREDENTIALS);
  return user;
}

export interface SignInOptions {
  meta: ClientMeta;
  deviceId: string | null;
  /** Session being replaced (rotated) by this sign-in. */
  previousSessionHash: string | null;
  /** In maintenance nothing but the session is written (no login history). */
  maintenance: boolean;
}

/** Opens a new session for `user`; returns the raw session id for the cookie. */
export async function signIn(
  ctx: AppContext,
  user: User,
  options: SignInOptions,
): Promise<{ id: string; expiresAt: Date }> {
  const now = ctx.now();
  return ctx.database.db.transaction(async (tx) => {
    if (options.previousSessionHash) await deleteSession(tx, options.previousSessionHash);
    const session = await createSession(tx, user.id, options.meta, now);
    if (!options.maintenance) {
      await recordLogin(tx, {
        userId: user.id,
        at: now,
        userAgent: options.meta.userAgent,
        ip: options.meta.ip,
        deviceId: options.deviceId,
      });
    }
    await recordAudit(ctx, tx, {
      action: 'auth.sign_in',
      actor: actorOf(user),
      target: { type: 'user', id: user.id, name: user.username },
      details: { client: 'browser' },
    });
    return { id: session.id, expiresAt: session.expiresAt };
  });
}

/**
 * Replaces the session `sessionIdHash` of `user` by a new one (after a password change: a copy
 * of the old cookie is refused from then on). Returns the new session's raw id.
 */
export async function rotateSession(
  ctx: AppContext,
  user: User,
  sessionIdHash: string,
  meta: ClientMeta,
): Promise<{ id: string; idHash: string; expiresAt: Date }> {
  const now = ctx.now();
  return ctx.database.db.transaction(async (tx) => {
    await deleteSession(tx, sessionIdHash);
    return createSession(tx, user.id, meta, now);
  });
}

export async function signOut(
  ctx: AppContext,
  user: User | null,
  sessionIdHash: string | null,
): Promise<void> {
  if (!sessionIdHash) return;
  await ctx.database.db.transaction(async (tx) => {
    await deleteSession(tx, sessionIdHash);
    if (user) {
      await recordAudit(ctx, tx, {
        action: 'auth.sign_out',
        target: { type: 'user', id: user.id, name: user.username },
      });
    }
  });
}
