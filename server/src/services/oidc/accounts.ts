/**
 * The Waymark user an OpenID Connect sign-in is: the user linked to the provider's subject;
 * else the user whose email the provider has verified (then linked); else, when
 * OIDC_CREATE_USERS, a new user without a password in OIDC_WORKSPACE with OIDC_ROLE.
 * Email domains (OIDC_EMAIL_DOMAINS) are checked first.
 */
import type { OidcConfig } from '../../config';
import type { AppContext } from '../../context';
import type { Executor } from '../../db/database';
import { findUserByEmail, findUserByUsername, insertUser } from '../../db/queries/users';
import { findLinkedUser, linkIdentity, touchIdentity } from '../../db/queries/user-identities';
import { findWorkspaceByName, setWorkspaceMember } from '../../db/queries/workspaces';
import type { User } from '../../db/schema';
import { usernameError } from '../../lib/validation';
import type { OidcErrorCode } from '../../schemas/oidc-errors';
import { reservedUsernameError } from '../templates';

export class OidcSignInError extends Error {
  constructor(
    readonly code: OidcErrorCode,
    detail?: string,
  ) {
    super(detail ?? code);
  }
}

export interface OidcClaims {
  sub: string;
  email?: unknown;
  email_verified?: unknown;
  [claim: string]: unknown;
}

/** A free username from the claim: the allowed characters, 4-50 long, a number added if taken. */
async function freeUsername(db: Executor, wanted: string, email: string): Promise<string> {
  let base = wanted
    .normalize('NFKC')
    .replace(/[^\p{L}\p{N} _.-]/gu, '')
    .replace(/^[\s.]+/, '')
    .trim()
    .slice(0, 44);
  if (base.length < 4 || usernameError(base) || reservedUsernameError(base)) {
    base = email
      .split('@')[0]!
      .replace(/[^A-Za-z0-9_.-]/g, '')
      .replace(/^\.+/, '')
      .slice(0, 44);
  }
  if (base.length < 4) base = `${base}user`.slice(0, 44);
  for (let n = 0; n < 1000; n++) {
    const candidate = n === 0 ? base : `${base}${n + 1}`;
    if (usernameError(candidate) || reservedUsernameError(candidate)) continue;
    if (!(await findUserByUsername(db, candidate))) return candidate;
  }
  throw new OidcSignInError('no_account', 'no free username');
}

export async function userForClaims(
  ctx: AppContext,
  oidc: OidcConfig,
  claims: OidcClaims,
): Promise<User> {
  const db = ctx.database.db;
  const now = ctx.now();
  const email = typeof claims.email === 'string' ? claims.email.trim() : '';
  const verified = claims.email_verified === true;
  if (oidc.emailDomains.length > 0) {
    const domain = email.split('@')[1]?.toLowerCase() ?? '';
    if (!oidc.emailDomains.includes(domain)) throw new OidcSignInError('domain');
  }

  const known = await findLinkedUser(db, oidc.issuer, claims.sub);
  if (known) {
    if (!known.active) throw new OidcSignInError('inactive');
    await touchIdentity(db, oidc.issuer, claims.sub, now);
    return known;
  }
  if (!email) throw new OidcSignInError('no_email');

  const existing = await findUserByEmail(db, email);
  if (existing) {
    if (!verified) throw new OidcSignInError('unverified');
    if (!existing.active) throw new OidcSignInError('inactive');
    await linkIdentity(db, existing.id, oidc.issuer, claims.sub, now);
    return existing;
  }

  if (!oidc.createUsers) throw new OidcSignInError('no_account');
  const workspace = await findWorkspaceByName(db, oidc.workspace);
  return db.transaction(async (tx) => {
    const claim = claims[oidc.usernameClaim];
    const username = await freeUsername(tx, typeof claim === 'string' ? claim : '', email);
    const user = await insertUser(tx, {
      username,
      email,
      // No password until they set one (the reset link on the sign-in screen).
      passwordHash: null,
      verifiedEmail: verified,
      firstName: typeof claims.given_name === 'string' ? claims.given_name.slice(0, 256) : null,
      lastName: typeof claims.family_name === 'string' ? claims.family_name.slice(0, 256) : null,
      registrationDate: now,
      preferredWorkspaceId: workspace?.id ?? null,
    });
    if (workspace) await setWorkspaceMember(tx, workspace.id, user.id, oidc.role);
    await linkIdentity(tx, user.id, oidc.issuer, claims.sub, now);
    return user;
  });
}
