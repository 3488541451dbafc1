/**
 * Password-reset mail limits, kept in the database (table password_reset_requests) so they
 * hold across instances (docs/decisions: "Input hardening"):
 * - per email: at most RESET_MAX_PER_EMAIL requests in any RESET_WINDOW_MS, so nobody can
 *   flood a mailbox with reset mails;
 * - per client address: at most RESET_MAX_PER_ADDRESS requests in any RESET_WINDOW_MS, over
 *   all emails, so one client cannot mail many people or probe many addresses.
 * Requests are counted by the email as typed (lower-cased) before any account is looked up,
 * so a refusal (429, Retry-After, TOO_MANY_RESETS) is the same whether or not an account has
 * that email: it tells nothing about accounts. Refused requests do not count.
 */
import type { AppContext } from '../context';
import {
  deleteResetRequest,
  deleteResetRequestsBefore,
  insertResetRequest,
  resetRequestTimes,
} from '../db/queries/password-reset-requests';
import { HttpProblem } from '../errors';
import { retryAfterSeconds, windowWaitMs } from './rolling-window';

export const RESET_WINDOW_MS = 60 * 60 * 1000;
export const RESET_MAX_PER_EMAIL = 3;
export const RESET_MAX_PER_ADDRESS = 10;

export const TOO_MANY_RESETS = 'Too many password reset requests. Please try again later.';

/**
 * Counts a reset request for `email` from `address`, or throws 429 when either limit is
 * reached. The row is written before counting, so simultaneous requests cannot pass.
 */
export async function limitPasswordReset(
  ctx: AppContext,
  request: { email: string; address: string | null | undefined },
): Promise<void> {
  const db = ctx.database.db;
  const now = ctx.now();
  const since = new Date(now.getTime() - RESET_WINDOW_MS);
  const email = request.email.toLowerCase();
  const address = request.address || 'unknown';
  await deleteResetRequestsBefore(db, since);
  const id = await insertResetRequest(db, { email, address, requestedAt: now });
  const wait = Math.max(
    windowWaitMs(
      await resetRequestTimes(db, { email }, since),
      RESET_MAX_PER_EMAIL,
      RESET_WINDOW_MS,
      now,
    ) ?? 0,
    windowWaitMs(
      await resetRequestTimes(db, { address }, since),
      RESET_MAX_PER_ADDRESS,
      RESET_WINDOW_MS,
      now,
    ) ?? 0,
  );
  if (wait > 0) {
    await deleteResetRequest(db, id);
    throw new HttpProblem(429, TOO_MANY_RESETS, {
      headers: { 'retry-after': retryAfterSeconds(wait) },
    });
  }
}
