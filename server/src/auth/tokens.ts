/**
 * Signed, expiring tokens for links sent by email (reference §4.5): password reset (1 hour)
 * and email confirmation (12 hours).
 *
 * Format: base64url(JSON payload) "." base64url(HMAC-SHA256(key, payload)), where the key
 * is derived from SECRET_KEY and the purpose, so a token of one kind never passes as the
 * other. The payload names the purpose, the user id and email the link was sent for, and the
 * issue time. Reset tokens also carry a keyed fingerprint of the password hash they were
 * issued against: once the password changes (argon2 hashes are salted, so every change
 * changes the hash) the link is spent. The payload is readable, so it holds no secret.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

export type TokenPurpose = 'reset-password' | 'confirm-email';

export const TOKEN_TTL_SECONDS: Readonly<Record<TokenPurpose, number>> = {
  'reset-password': 60 * 60,
  'confirm-email': 12 * 60 * 60,
};

/** Tokens dated this far in the future (clock skew between instances) are still accepted. */
const FUTURE_SKEW_SECONDS = 5 * 60;

export interface TokenSubject {
  userId: number;
  email: string;
  /** Reset tokens only: the password hash the token is valid against. */
  passwordHash?: string | null;
}

interface Payload {
  p: TokenPurpose;
  u: number;
  e: string;
  t: number;
  h?: string;
}

function key(secretKey: string, purpose: TokenPurpose): Buffer {
  return createHmac('sha256', secretKey).update(`waymark/token/${purpose}`).digest();
}

function sign(secretKey: string, purpose: TokenPurpose, payload: string): string {
  return createHmac('sha256', key(secretKey, purpose)).update(payload).digest('base64url');
}

/** A keyed digest of the password hash (the hash itself must not travel in a URL). */
export function passwordFingerprint(secretKey: string, passwordHash: string | null): string {
  return createHmac('sha256', secretKey)
    .update('waymark/token/password\0')
    .update(passwordHash ?? '')
    .digest('base64url')
    .slice(0, 22);
}

export function makeToken(
  secretKey: string,
  purpose: TokenPurpose,
  subject: TokenSubject,
  now: Date,
): string {
  const payload: Payload = {
    p: purpose,
    u: subject.userId,
    e: subject.email,
    t: Math.floor(now.getTime() / 1000),
  };
  if (purpose === 'reset-password') {
    payload.h = passwordFingerprint(secretKey, subject.passwordHash ?? null);
  }
  const encoded = Buffer.from(JSON.stringify(payload)).toString('base64url');
  return `${encoded}.${sign(secretKey, purpose, encoded)}`;
}

export interface VerifiedToken {
  userId: number;
  email: string;
  /** Reset tokens: the fingerprint to compare with passwordFingerprint(current hash). */
  passwordFingerprint: string | null;
}

/** The token's subject, or null when it is malformed, forged, of another kind, or expired. */
export function readToken(
  secretKey: string,
  purpose: TokenPurpose,
  token: string,
  now: Date,
): VerifiedToken | null {
  const parts = token.split('.');
  if (parts.length !== 2) return null;
  const [encoded, signature] = parts as [string, string];
  const expected = Buffer.from(sign(secretKey, purpose, encoded));
  const given = Buffer.from(signature);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return null;
  let payload: Payload;
  try {
    payload = JSON.parse(Buffer.from(encoded, 'base64url').toString('utf8')) as Payload;
  } catch {
    return null;
  }
  if (
    payload.p !== purpose ||
    !Number.isSafeInteger(payload.u) ||
    typeof payload.e !== 'string' ||
    !Number.isSafeInteger(payload.t)
  ) {
    return null;
  }
  const age = Math.floor(now.getTime() / 1000) - payload.t;
  if (age < -FUTURE_SKEW_SECONDS || age > TOKEN_TTL_SECONDS[purpose]) return null;
  return {
    userId: payload.u,
    email: payload.e,
    passwordFingerprint: typeof payload.h === 'string' ? payload.h : null,
  };
}
