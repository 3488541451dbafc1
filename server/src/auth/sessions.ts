/**
 * Browser sessions: a random 128-bit id in an HttpOnly cookie; the database keeps only its
 * SHA-256, so a leaked database cannot be replayed as cookies. Sessions slide: each use
 * (recorded at most once a minute) pushes the expiry 14 days ahead. Logout deletes the row.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { CookieSerializeOptions } from '@fastify/cookie';
import type { Config } from '../config';
import type { Executor } from '../db/database';
import type { ReadCache } from '../db/read-cache';
import {
  deleteSession,
  findLiveSession,
  insertSession,
  touchSession,
} from '../db/queries/sessions';
import type { Session, User } from '../db/schema';

export const SESSION_TTL_MS = 14 * 24 * 60 * 60 * 1000;
export const SESSION_TOUCH_INTERVAL_MS = 60 * 1000;

const SESSION_ID_RE = /^[A-Za-z0-9_-]{22}$/;

export function sessionCookieName(config: Pick<Config, 'secureCookies'>): string {
  return config.secureCookies ? '__Host-session' : 'session';
}

export function sessionCookieOptions(
  config: Pick<Config, 'secureCookies'>,
  expiresAt: Date,
  now: Date,
): CookieSerializeOptions {
  return {
    httpOnly: true,
    sameSite: 'lax',
    path: '/',
    secure: config.secureCookies,
    maxAge: Math.max(0, Math.floor((expiresAt.getTime() - now.getTime()) / 1000)),
  };
}

export function hashSessionId(id: string): string {
  return createHash('sha256').update(id).digest('hex');
}

export interface ClientMeta {
  userAgent: string | null;
  ip: string | null;
}

/** Creates a session row and returns the raw id for the cookie. */
export async function createSession(
  db: Executor,
  userId: number,
  meta: ClientMeta,
  now: Date,
): Promise<{ id: string; idHash: string; expiresAt: Date }> {
  const id = randomBytes(16).toString('base64url');
  const idHash = hashSessionId(id);
  const expiresAt = new Date(now.getTime() + SESSION_TTL_MS);
  await insertSession(db, {
    idHash,
    userId,
    createdAt: now,
    lastSeenAt: now,
    expiresAt,
    userAgent: meta.userAgent,
    ip: meta.ip,
  });
  return { id, idHash, expiresAt };
}

export interface ResolvedSession {
  session: Session;
  user: User;
  /** Set when the expiry moved forward: the cookie should be re-sent. */
  renewedUntil: Date | null;
  /** The database snapshot the session was read under (db/read-cache.ts). */
  snapshot: string;
}

/**
 * The live session for a raw cookie value, or null (unknown, expired, or user inactive).
 * A password change deletes the user's sessions (deleteUserSessions), so no time
 * comparison between clocks is needed here.
 *
 * With a read cache: one trivial statement reads the database snapshot; while it is the one
 * the session and its user were last read under (no commit since, on any instance: logout,
 * password change, deactivation all commit), they are taken from the cache, and only the
 * clock is checked again (expiry, and whether the last-seen time is due to be recorded, which
 * goes the full way). Otherwise they are read (with the snapshot) and kept.
 */
export async function resolveSession(
  db: Executor,
  rawId: string,
  now: Date,
  cache?: ReadCache,
): Promise<ResolvedSession | null> {
  if (!SESSION_ID_RE.test(rawId)) return null;
  const idHash = hashSessionId(rawId);
  const key = `session ${idHash}`;
  // Without an entry worth checking, the session's read below answers the snapshot itself.
  if (cache?.worthProbing(key)) {
    const snapshot = await cache.snapshot();
    const hit = cache.get<{ session: Session; user: User }>(key, snapshot);
    if (
      hit &&
      hit.user.active &&
      hit.session.expiresAt.getTime() > now.getTime() &&
      now.getTime() - hit.session.lastSeenAt.getTime() < SESSION_TOUCH_INTERVAL_MS
    ) {
      return { session: hit.session, user: hit.user, renewedUntil: null, snapshot };
    }
  }
  const found = await findLiveSession(db, idHash, now);
  if (!found) return null;
  const { session, user, snapshot } = found;
  if (!user.active) {
    await deleteSession(db, idHash);
    return null;
  }
  let renewedUntil: Date | null = null;
  if (now.getTime() - session.lastSeenAt.getTime() >= SESSION_TOUCH_INTERVAL_MS) {
    renewedUntil = new Date(now.getTime() + SESSION_TTL_MS);
    await touchSession(db, idHash, now, renewedUntil);
  } else {
    cache?.set(key, snapshot, { session, user });
  }
  return { session, user, renewedUntil, snapshot };
}
