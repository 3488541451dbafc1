/**
 * Rolling-window request limits kept in the database (table rate_limit_hits), so they hold
 * across instances: mails the server sends on request (password reset, email confirmation,
 * workspace invitations) and guessed invitation links. Sign-in has its own rules
 * (sign-in-limits.ts).
 *
 * A limit counts requests of one `kind` in any `windowMs`:
 * - per subject (what is protected: the recipient's address, lower-cased), at most `perSubject`;
 * - per source (who asks: a client address, or `user:<id>`), at most `perSource`;
 * - over everybody, at most `overall`.
 * `takeRateLimit` writes the request's row before counting, so simultaneous requests cannot
 * pass together; a refusal (429, Retry-After, the limit's text) removes it again, and so does
 * the returned `release` for a request that turns out not to count (a mail that is not sent, a
 * link that was right). Rows older than the window go on the next request of that kind.
 */
import type { AppContext } from '../context';
import {
  deleteRateLimitHit,
  deleteRateLimitHitsBefore,
  insertRateLimitHit,
  rateLimitHitTimes,
} from '../db/queries/rate-limit-hits';
import { HttpProblem } from '../errors';
import { retryAfterSeconds, windowWaitMs } from './rolling-window';

export interface RateLimit {
  kind: string;
  windowMs: number;
  perSubject?: number;
  perSource?: number;
  overall?: number;
  /** The 429's detail. */
  refusal: string;
}

const HOUR_MS = 60 * 60 * 1000;

export const TOO_MANY_RESETS = 'Too many password reset requests. Please try again later.';
export const TOO_MANY_CONFIRMATIONS = 'Too many confirmation emails. Please try again later.';
export const TOO_MANY_INVITATIONS = 'Too many invitations. Please try again later.';
export const TOO_MANY_INVITATION_GUESSES =
  'Too many invalid invitation links. Please try again later.';

/**
 * Password-reset mails: per email as typed (whether or not an account has it), per client
 * address over all emails, so nobody floods a mailbox or probes many addresses.
 */
export const RESET_MAILS: RateLimit = {
  kind: 'mail:reset',
  windowMs: HOUR_MS,
  perSubject: 3,
  perSource: 10,
  refusal: TOO_MANY_RESETS,
};

/** Email confirmation mails (resend, and the mail to a new address): per address, per user. */
export const CONFIRMATION_MAILS: RateLimit = {
  kind: 'mail:confirm',
  windowMs: HOUR_MS,
  perSubject: 3,
  perSource: 5,
  refusal: TOO_MANY_CONFIRMATIONS,
};

/**
 * Invitation mails: per invited address over all workspaces and senders, per inviting user
 * over all addresses (room for a team of 30 an hour).
 */
export const INVITATION_MAILS: RateLimit = {
  kind: 'mail:invitation',
  windowMs: HOUR_MS,
  perSubject: 5,
  perSource: 30,
  refusal: TOO_MANY_INVITATIONS,
};

/**
 * Invitation links that name no invitation: per client address, and over everybody (a
 * link's token is 192 random bits, so this only keeps guessing from costing the server).
 */
export const INVITATION_GUESSES: RateLimit = {
  kind: 'guess:invitation',
  windowMs: HOUR_MS,
  perSource: 20,
  overall: 2000,
  refusal: TOO_MANY_INVITATION_GUESSES,
};

export interface RateLimitKey {
  /** What is protected (lower-cased here); null when the limit has no per-subject count. */
  subject?: string | null;
  /** Who asks; null/empty counts as 'unknown'. */
  source: string | null | undefined;
}

/** Un-counts a request that was taken (idempotent). */
export type Release = () => Promise<void>;

/**
 * Counts one request under `limit`, or throws its 429 when a count is over. Returns the
 * function that removes the request's row again (a request that turned out not to count).
 */
export async function takeRateLimit(
  ctx: AppContext,
  limit: RateLimit,
  key: RateLimitKey,
): Promise<Release> {
  const db = ctx.database.db;
  const now = ctx.now();
  const since = new Date(now.getTime() - limit.windowMs);
  const subject = key.subject ? key.subject.toLowerCase() : null;
  const source = key.source || 'unknown';
  await deleteRateLimitHitsBefore(db, limit.kind, since);
  const id = await insertRateLimitHit(db, { kind: limit.kind, subject, source, at: now });
  const waits: (number | null)[] = [];
  const over = async (by: Parameters<typeof rateLimitHitTimes>[2], max: number | undefined) => {
    if (max === undefined) return;
    const times = await rateLimitHitTimes(db, limit.kind, by, since);
    waits.push(windowWaitMs(times, max, limit.windowMs, now));
  };
  if (subject !== null) await over({ subject }, limit.perSubject);
  await over({ source }, limit.perSource);
  await over('all', limit.overall);
  const wait = Math.max(0, ...waits.map((w) => w ?? 0));
  if (wait > 0) {
    await deleteRateLimitHit(db, id);
    throw new HttpProblem(429, limit.refusal, {
      headers: { 'retry-after': retryAfterSeconds(wait) },
    });
  }
  let released = false;
  return async () => {
    if (released) return;
    released = true;
    await deleteRateLimitHit(db, id);
  };
}

/**
 * Runs `send` (which mails something) as one request under `limit`: a 429 before it runs when
 * a count is over; when it throws (nothing was sent) the request does not count.
 */
export async function limitMail<T>(
  ctx: AppContext,
  limit: RateLimit,
  key: RateLimitKey,
  send: () => Promise<T>,
): Promise<T> {
  const release = await takeRateLimit(ctx, limit, key);
  try {
    return await send();
  } catch (error) {
    await release();
    throw error;
  }
}
