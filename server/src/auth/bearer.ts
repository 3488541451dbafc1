/**
 * Bearer tokens for the desktop and mobile clients (api-reference A.3, client-compat §2).
 *
 * The clients decode the token themselves: they require `Bearer .`, take the text up to the
 * next `.`, base64url-decode and zlib-inflate it, and read `username` and `expire` (an ISO
 * time with a zone). So a token is the itsdangerous shape:
 *
 *   "." base64url(zlib(JSON payload)) "." base64url(HMAC-SHA256(key, "." + payload text))
 *
 * with the key derived from SECRET_KEY for this purpose only. An uncompressed payload
 * (no leading dot) is accepted too. The payload names the user (id, username, email), the
 * expiry (12 hours after login) and a keyed fingerprint of the password hash the token was
 * issued against: every password change makes a new (salted) hash, so the token ends with
 * it, whatever the clocks say. Closing the account (inactive), or a change of username or
 * email, ends it as well. The payload is readable, so it holds no secret.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { deflateSync, inflateSync } from 'node:zlib';
import type { User } from '../db/schema';
import { passwordFingerprint } from './tokens';

/** Lifetime of a bearer token (BEARER_TOKEN_EXPIRATION): 12 hours. */
export const BEARER_TTL_MS = 12 * 60 * 60 * 1000;

/** Largest token considered (characters); longer ones are refused unread. */
const MAX_TOKEN_LENGTH = 4096;
/** Largest inflated payload (bytes). */
const MAX_PAYLOAD_BYTES = 4096;

export interface BearerPayload {
  user_id: number;
  username: string;
  email: string | null;
  /** ISO 8601 with a zone, e.g. `2024-05-05T02:21:56.695Z`. */
  expire: string;
  /** Fingerprint of the password hash (auth/tokens.ts passwordFingerprint). */
  pwd: string;
}

function bearerKey(secretKey: string): Buffer {
  return createHmac('sha256', secretKey).update('waymark/token/bearer').digest();
}

function sign(secretKey: string, signed: string): string {
  return createHmac('sha256', bearerKey(secretKey)).update(signed).digest('base64url');
}

/** A new token for `user`, valid BEARER_TTL_MS from `now`; also returns its expiry. */
export function makeBearerToken(
  secretKey: string,
  user: Pick<User, 'id' | 'username' | 'email' | 'passwordHash'>,
  now: Date,
): { token: string; expire: Date } {
  const expire = new Date(now.getTime() + BEARER_TTL_MS);
  const payload: BearerPayload = {
    user_id: user.id,
    username: user.username,
    email: user.email,
    expire: expire.toISOString(),
    pwd: passwordFingerprint(secretKey, user.passwordHash),
  };
  const body = `.${deflateSync(Buffer.from(JSON.stringify(payload))).toString('base64url')}`;
  return { token: `${body}.${sign(secretKey, body)}`, expire };
}

/** The text after `Bearer ` in an Authorization header, or null. */
export function bearerTokenOf(header: string | string[] | undefined): string | null {
  const value = Array.isArray(header) ? header[0] : header;
  if (!value) return null;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(value);
  return match ? match[1]! : null;
}

/**
 * The payload of a well-signed, unexpired token, or null. The caller still checks it
 * against the user (bearerUserMatches).
 */
export function readBearerToken(secretKey: string, token: string, now: Date): BearerPayload | null {
  if (token.length > MAX_TOKEN_LENGTH) return null;
  const compressed = token.startsWith('.');
  const parts = (compressed ? token.slice(1) : token).split('.');
  if (parts.length !== 2) return null;
  const [encoded, signature] = parts as [string, string];
  const signed = compressed ? `.${encoded}` : encoded;
  const expected = Buffer.from(sign(secretKey, signed));
  const given = Buffer.from(signature);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return null;
  let payload: Partial<BearerPayload>;
  try {
    const raw = Buffer.from(encoded, 'base64url');
    const json = compressed ? inflateSync(raw, { maxOutputLength: MAX_PAYLOAD_BYTES }) : raw;
    payload = JSON.parse(json.toString('utf8')) as Partial<BearerPayload>;
  } catch {
    return null;
  }
  if (
    typeof payload !== 'object' ||
    payload === null ||
    !Number.isSafeInteger(payload.user_id) ||
    typeof payload.username !== 'string' ||
    (payload.email !== null && typeof payload.email !== 'string') ||
    typeof payload.expire !== 'string' ||
    typeof payload.pwd !== 'string'
  ) {
    return null;
  }
  const expire = Date.parse(payload.expire);
  if (Number.isNaN(expire) || expire <= now.getTime()) return null;
  return payload as BearerPayload;
}

/** Whether the token still describes this user: active, same names, same password. */
export function bearerUserMatches(
  secretKey: string,
  payload: BearerPayload,
  user: Pick<User, 'id' | 'username' | 'email' | 'passwordHash' | 'active'>,
): boolean {
  if (!user.active || user.id !== payload.user_id) return false;
  if (user.username !== payload.username || user.email !== payload.email) return false;
  if (user.passwordHash === null) return false;
  const expected = Buffer.from(passwordFingerprint(secretKey, user.passwordHash));
  const given = Buffer.from(payload.pwd);
  return expected.length === given.length && timingSafeEqual(expected, given);
}
