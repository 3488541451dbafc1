/**
 * CSRF protection (reference §4.2 semantics and texts).
 *
 * A random secret lives in its own signed HttpOnly cookie (`csrf`, `__Host-csrf` under https).
 * A token is bound to that secret and to the session cookie it was issued for:
 *   base64url(sha256(secret)) "." unix-seconds "." session tag "." base64url(HMAC-SHA256(key,
 *   the three))
 * where the session tag is a keyed digest of the session id's hash (`anon` without a
 * session). It is valid for 24 hours, and only with the same secret cookie and the same
 * session cookie, so a token (and secret cookie) of another client, planted next to a
 * victim's session cookie, does not pass. Mutating requests send it in X-CSRF-Token or
 * X-CSRFToken; answers that change the session (sign-in, sign-out, a new session id) carry
 * the token for the new one in the X-CSRF-Token header.
 */
import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Config } from '../config';
import { CSRF_REFUSALS } from '../schemas/protocol';

export const CSRF_TTL_SECONDS = 24 * 60 * 60;
/** Tokens dated this far in the future (clock skew between instances) are still accepted. */
const CSRF_FUTURE_SKEW_SECONDS = 5 * 60;

export const CSRF_MISSING = CSRF_REFUSALS.missing;
export const CSRF_SESSION_MISSING = CSRF_REFUSALS.sessionMissing;
export const CSRF_EXPIRED = CSRF_REFUSALS.expired;
export const CSRF_INVALID = CSRF_REFUSALS.invalid;
export const CSRF_MISMATCH = CSRF_REFUSALS.mismatch;

export const CSRF_HEADERS = ['x-csrf-token', 'x-csrftoken'] as const;

export function csrfCookieName(config: Pick<Config, 'secureCookies'>): string {
  return config.secureCookies ? '__Host-csrf' : 'csrf';
}

export function newCsrfSecret(): string {
  return randomBytes(32).toString('base64url');
}

/** Derives the HMAC key for CSRF tokens from SECRET_KEY (domain-separated from cookies). */
export function csrfKey(secretKey: string): Buffer {
  return createHmac('sha256', secretKey).update('waymark/csrf-token').digest();
}

function secretDigest(secret: string): string {
  return createHash('sha256').update(secret).digest('base64url');
}

function sign(key: Buffer, payload: string): string {
  return createHmac('sha256', key).update(payload).digest('base64url');
}

function safeEqual(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/** The token's tag of a session (by the SHA-256 of its id), or `anon` without one. */
export function sessionTag(key: Buffer, sessionIdHash: string | null): string {
  if (!sessionIdHash) return 'anon';
  return createHmac('sha256', key)
    .update(`session\0${sessionIdHash}`)
    .digest('base64url')
    .slice(0, 22);
}

export function makeCsrfToken(
  key: Buffer,
  secret: string,
  nowSeconds: number,
  sessionIdHash: string | null,
): string {
  const payload = `${secretDigest(secret)}.${Math.floor(nowSeconds)}.${sessionTag(key, sessionIdHash)}`;
  return `${payload}.${sign(key, payload)}`;
}

/**
 * Checks a token against the cookie secret and the session cookie sent with it (the SHA-256
 * of its value, null without one). Returns null when valid, else the error detail. Order as
 * in Flask-WTF: missing token, missing secret, signature, age, match (secret, then session).
 */
export function checkCsrfToken(
  key: Buffer,
  token: string | undefined,
  secret: string | null,
  nowSeconds: number,
  sessionIdHash: string | null,
): string | null {
  if (!token) return CSRF_MISSING;
  if (!secret) return CSRF_SESSION_MISSING;
  const parts = token.split('.');
  if (parts.length !== 4) return CSRF_INVALID;
  const [digest, issued, tag, signature] = parts as [string, string, string, string];
  if (!/^\d{1,12}$/.test(issued)) return CSRF_INVALID;
  if (!safeEqual(sign(key, `${digest}.${issued}.${tag}`), signature)) return CSRF_INVALID;
  const age = nowSeconds - Number(issued);
  if (age < -CSRF_FUTURE_SKEW_SECONDS) return CSRF_INVALID;
  if (age > CSRF_TTL_SECONDS) return CSRF_EXPIRED;
  if (!safeEqual(digest, secretDigest(secret))) return CSRF_MISMATCH;
  if (!safeEqual(tag, sessionTag(key, sessionIdHash))) return CSRF_MISMATCH;
  return null;
}
