/**
 * Token login for desktop and mobile clients: POST /v1/auth/login (api-reference A.3,
 * client-compat §2). Answers the user's profile and a bearer token (auth/bearer.ts).
 */
import { makeBearerToken } from '../auth/bearer';
import { limitSignIn } from '../auth/sign-in-limits';
import type { ClientMeta } from '../auth/sessions';
import type { AppContext } from '../context';
import { recordLogin } from '../db/queries/users';
import { FIELD_REQUIRED_TEXT, HttpProblem } from '../errors';
import { isoZ } from '../lib/time';
import { actorOf, recordAudit } from './audit';
import { authenticate, LOGIN_MAX_LENGTH, type LoginInput } from './auth';
import { displayName } from './users';
import type { TokenLogin } from '../schemas/auth';

/** Form checks with the reference's v1 wording: 400 `This field is required.(login)`. */
function validate(input: LoginInput): void {
  const login = (input.login ?? '').trim();
  if (login === '') throw new HttpProblem(400, `${FIELD_REQUIRED_TEXT}(login)`);
  if (login.length > LOGIN_MAX_LENGTH) {
    throw new HttpProblem(
      400,
      `Field cannot be longer than ${LOGIN_MAX_LENGTH} characters.(login)`,
    );
  }
  if ((input.password ?? '') === '') {
    throw new HttpProblem(400, `${FIELD_REQUIRED_TEXT}(password)`);
  }
}

export interface TokenLoginOptions {
  meta: ClientMeta;
  deviceId: string | null;
  /** In maintenance nothing is written (no login history). */
  maintenance: boolean;
}

export async function tokenLogin(
  ctx: AppContext,
  input: LoginInput,
  options: TokenLoginOptions,
): Promise<TokenLogin> {
  validate(input);
  const user = await limitSignIn(ctx, { login: input.login, address: options.meta.ip ?? '' }, () =>
    authenticate(ctx, input),
  );
  const now = ctx.now();
  // Like the reference, database sync services (User-Agent "DB-sync") leave no login history.
  const sync = options.meta.userAgent?.includes('DB-sync') ?? false;
  if (!options.maintenance && !sync) {
    await recordLogin(ctx.database.db, {
      userId: user.id,
      at: now,
      userAgent: options.meta.userAgent,
      ip: options.meta.ip,
      deviceId: options.deviceId,
    });
  }
  await recordAudit(ctx, ctx.database.db, {
    action: 'auth.sign_in',
    actor: actorOf(user),
    target: { type: 'user', id: user.id, name: user.username },
    details: { client: 'token' },
  });
  const { token, expire } = makeBearerToken(ctx.config.secretKey, user, now);
  return {
    id: user.id,
    username: user.username,
    email: user.email,
    first_name: user.firstName,
    last_name: user.lastName,
    name: displayName(user),
    receive_notifications: user.receiveNotifications,
    verified_email: user.verifiedEmail,
    tier: 'free',
    registration_date: isoZ(user.registrationDate),
    storage: null,
    storage_limit: null,
    disk_usage: null,
    has_project: false,
    session: { token, expire: expire.toISOString() },
  };
}
