/**
 * Personal access tokens (issue 33; contract schemas/personal-tokens.ts, token shape
 * auth/personal-tokens.ts): made, listed and revoked by their user; read by the auth plugin
 * for every request that sends one. Making and revoking are audited.
 */
import { hashTokenSecret, makePersonalToken, personalTokenSecret } from '../auth/personal-tokens';
import type { AppContext } from '../context';
import type { Executor } from '../db/database';
import {
  countLiveTokens,
  findLiveToken,
  findUserToken,
  insertPersonalToken,
  listPersonalTokens,
  revokePersonalToken,
  touchPersonalToken,
} from '../db/queries/personal-tokens';
import type { PersonalToken, User } from '../db/schema';
import { FormError, notFound } from '../errors';
import {
  TOKEN_LIMIT_REACHED,
  TOKEN_NAME_REQUIRED,
  MAX_LIVE_TOKENS,
  type CreatedPersonalToken,
  type CreatePersonalToken,
  type PersonalToken as PersonalTokenView,
  type PersonalTokenList,
} from '../schemas/personal-tokens';
import { recordAudit } from './audit';

const DAY = 24 * 3600 * 1000;
/** A token's last use is written at most this often. */
export const TOKEN_TOUCH_INTERVAL_MS = 60 * 1000;

function view(token: PersonalToken, now: Date): PersonalTokenView {
  return {
    id: token.id,
    name: token.name,
    scope: token.scope,
    hint: token.hint,
    status: token.revokedAt
      ? 'revoked'
      : token.expiresAt.getTime() <= now.getTime()
        ? 'expired'
        : 'active',
    created_at: token.createdAt.toISOString(),
    expires_at: token.expiresAt.toISOString(),
    last_used_at: token.lastUsedAt?.toISOString() ?? null,
    last_used_ip: token.lastUsedIp,
    revoked_at: token.revokedAt?.toISOString() ?? null,
  };
}

export async function listTokens(ctx: AppContext, user: User): Promise<PersonalTokenList> {
  const now = ctx.now();
  const tokens = await listPersonalTokens(ctx.database.db, user.id);
  return { tokens: tokens.map((token) => view(token, now)) };
}

export async function createToken(
  ctx: AppContext,
  user: User,
  input: CreatePersonalToken,
): Promise<CreatedPersonalToken> {
  const name = input.name.trim();
  if (name === '') throw new FormError(400, { name: [TOKEN_NAME_REQUIRED] });
  const now = ctx.now();
  const expiresAt = new Date(now.getTime() + input.expires_in_days * DAY);
  const made = makePersonalToken(user.username, expiresAt);
  const row = await ctx.database.db.transaction(async (tx) => {
    if ((await countLiveTokens(tx, user.id, now)) >= MAX_LIVE_TOKENS) {
      throw new FormError(400, { name: [TOKEN_LIMIT_REACHED] });
    }
    const token = await insertPersonalToken(tx, {
      userId: user.id,
      name,
      scope: input.scope,
      secretHash: made.secretHash,
      hint: made.hint,
      createdAt: now,
      expiresAt,
    });
    await recordAudit(ctx, tx, {
      action: 'token.created',
      target: { type: 'token', id: token.id, name },
      details: { scope: input.scope, expires_at: expiresAt.toISOString() },
    });
    return token;
  });
  return { ...view(row, now), token: made.token };
}

/** Revokes one of the user's tokens; revoking again changes nothing; another's: 404. */
export async function revokeToken(ctx: AppContext, user: User, id: number): Promise<void> {
  const now = ctx.now();
  await ctx.database.db.transaction(async (tx) => {
    const token = await findUserToken(tx, user.id, id);
    if (!token) throw notFound();
    if (!(await revokePersonalToken(tx, id, now))) return;
    await recordAudit(ctx, tx, {
      action: 'token.revoked',
      target: { type: 'token', id: token.id, name: token.name },
    });
  });
}

export interface TokenCaller {
  user: User;
  token: PersonalToken;
}

/**
 * The live token a request sends, with its active user; null for an unknown, revoked or
 * expired token, or one of a closed account. Records the use (throttled).
 */
export async function resolvePersonalToken(
  deps: { db: Executor },
  token: string,
  at: Date,
  ip: string | null,
): Promise<TokenCaller | null> {
  const secret = personalTokenSecret(token);
  if (!secret) return null;
  const found = await findLiveToken(deps.db, hashTokenSecret(secret), at);
  if (!found || !found.user.active) return null;
  await touchPersonalToken(deps.db, found.token.id, at, ip, TOKEN_TOUCH_INTERVAL_MS).catch(
    () => {},
  );
  return found;
}
