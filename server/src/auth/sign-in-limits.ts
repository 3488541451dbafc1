/**
 * Sign-in rate limits, kept in the database (table sign_in_failures) so they hold across
 * instances. Call `limitSignIn` around the password check of every sign-in route
 * (/app/auth/login, /v1/auth/login).
 *
 * Three limits (docs/decisions/0072-sign-in-limits.md, and the hardening record for the
 * per-address one):
 * - Per account and address: the first PAIR_FREE_FAILURES failures within PAIR_WINDOW_MS are
 *   free; after that each attempt waits 1 s, 2 s, 4 s, … (doubling per further failure, at
 *   most PAIR_MAX_DELAY_S) after the latest failure. A successful sign-in from the address
 *   forgets its failures.
 * - Per account: at most ACCOUNT_MAX_FAILURES failures in any ACCOUNT_WINDOW_MS, whatever
 *   the address. Addresses the user has not signed in from within KNOWN_ADDRESS_MS stop at
 *   ACCOUNT_MAX_FAILURES_NEW_ADDRESS, so an attacker spreading guesses over many addresses
 *   leaves the real user headroom to sign in from a known address.
 * - Per address, any account: past ADDRESS_MAX_FAILURES failures in any ADDRESS_WINDOW_MS,
 *   only accounts without a failure from that address in the window may still try (so one
 *   client cannot try a few passwords on every account, and a guesser sharing the address,
 *   e.g. a proxy without TRUST_PROXY, does not lock out the others' correct passwords); past
 *   ADDRESS_MAX_FAILURES_ANY every attempt from the address waits.
 * Refusals are 429 with Retry-After (seconds) and TOO_MANY_SIGN_INS; nothing is checked.
 *
 * The attempt row is written before the password is checked and counted with everybody
 * else's, so concurrent guesses (several instances included) cannot pass the limit.
 */
import type { AppContext } from '../context';
import { recordAudit } from '../services/audit';
import {
  failureTimes,
  deleteFailuresBefore,
  deletePairFailures,
  deleteSignInAttempt,
  insertSignInAttempt,
  pairFailures,
  signedInFrom,
} from '../db/queries/sign-in-failures';
import { findUserByEmail, findUserByUsername } from '../db/queries/users';
import { FormError, HttpProblem } from '../errors';
import { retryAfterSeconds, windowWaitMs } from './rolling-window';

export const PAIR_FREE_FAILURES = 5;
export const PAIR_WINDOW_MS = 24 * 60 * 60 * 1000;
export const PAIR_MAX_DELAY_S = 15 * 60;
export const ACCOUNT_WINDOW_MS = 60 * 60 * 1000;
export const ACCOUNT_MAX_FAILURES = 100;
export const ACCOUNT_MAX_FAILURES_NEW_ADDRESS = 80;
export const KNOWN_ADDRESS_MS = 30 * 24 * 60 * 60 * 1000;
export const ADDRESS_WINDOW_MS = 60 * 60 * 1000;
export const ADDRESS_MAX_FAILURES = 30;
export const ADDRESS_MAX_FAILURES_ANY = 300;

export const TOO_MANY_SIGN_INS = 'Too many failed sign-in attempts. Please try again later.';

export interface SignInAttempt {
  /** The username or email as typed. */
  login: string | null | undefined;
  /** The client address (request.ip: honours the trusted proxy setting only). */
  address: string | null | undefined;
}

/** The delay after `failures` earlier failures of one account from one address (seconds). */
export function pairDelaySeconds(failures: number): number {
  if (failures < PAIR_FREE_FAILURES) return 0;
  return Math.min(PAIR_MAX_DELAY_S, 2 ** (failures - PAIR_FREE_FAILURES));
}

function tooMany(retryAfterMs: number): HttpProblem {
  return new HttpProblem(429, TOO_MANY_SIGN_INS, {
    headers: { 'retry-after': retryAfterSeconds(retryAfterMs) },
  });
}

/** Whether an authentication error is a wrong password / unknown user (a failure). */
function isFailure(error: unknown): boolean {
  if (error instanceof FormError) return false;
  return error instanceof HttpProblem && error.status === 401;
}

/**
 * Runs `authenticate` (which throws a 401 HttpProblem on bad credentials) under the sign-in
 * limits: throws 429 without calling it when a limit is reached, records a failure when it
 * throws 401, forgets this address's failures when it succeeds. Returns what it returns.
 */
export async function limitSignIn<T>(
  ctx: AppContext,
  attempt: SignInAttempt,
  authenticate: () => Promise<T>,
): Promise<T> {
  const login = (attempt.login ?? '').trim();
  // An empty login is a form error; nothing to guess, nothing to count.
  if (login === '') return authenticate();
  const db = ctx.database.db;
  const user = login.includes('@')
    ? await findUserByEmail(db, login)
    : await findUserByUsername(db, login);
  const account = user ? `user:${user.id}` : `login:${login.toLowerCase()}`;
  const address = attempt.address || 'unknown';
  const now = ctx.now();
  const id = await insertSignInAttempt(db, { account, address, failedAt: now });

  const refuse = async (retryAfterMs: number): Promise<never> => {
    await deleteSignInAttempt(db, id);
    throw tooMany(retryAfterMs);
  };

  // Failures from this address over all accounts (the new row included, as for accounts).
  const addressSince = new Date(now.getTime() - ADDRESS_WINDOW_MS);
  const fromAddress = await failureTimes(db, { address }, addressSince);
  const addressWait = windowWaitMs(fromAddress, ADDRESS_MAX_FAILURES, ADDRESS_WINDOW_MS, now);
  if (addressWait !== null) {
    const hardWait = windowWaitMs(fromAddress, ADDRESS_MAX_FAILURES_ANY, ADDRESS_WINDOW_MS, now);
    if (hardWait !== null) await refuse(hardWait);
    // Over the first bar, an account that failed from here in the window waits with it.
    const failedHere = await pairFailures(db, account, address, addressSince, id);
    if (failedHere.count > 0) await refuse(addressWait);
  }

  const times = await failureTimes(db, { account }, new Date(now.getTime() - ACCOUNT_WINDOW_MS));
  const known =
    user !== null &&
    (await signedInFrom(db, user.id, address, new Date(now.getTime() - KNOWN_ADDRESS_MS)));
  const limit = known ? ACCOUNT_MAX_FAILURES : ACCOUNT_MAX_FAILURES_NEW_ADDRESS;
  const accountWait = windowWaitMs(times, limit, ACCOUNT_WINDOW_MS, now);
  if (accountWait !== null) await refuse(accountWait);
  const pair = await pairFailures(
    db,
    account,
    address,
    new Date(now.getTime() - PAIR_WINDOW_MS),
    id,
  );
  const delay = pairDelaySeconds(pair.count);
  if (delay > 0 && pair.latest) {
    const next = pair.latest.getTime() + delay * 1000;
    if (now.getTime() < next) await refuse(next - now.getTime());
  }

  let result: T;
  try {
    result = await authenticate();
  } catch (error) {
    if (isFailure(error)) {
      // Keep the row: it is a failure now. Old rows of every account go at the same time.
      await deleteFailuresBefore(db, new Date(now.getTime() - PAIR_WINDOW_MS));
      await recordAudit(ctx, db, {
        action: 'auth.sign_in_failed',
        actor: null,
        target: { type: 'user', id: user?.id ?? null, name: user?.username ?? login.slice(0, 120) },
      });
    } else {
      await deleteSignInAttempt(db, id);
    }
    throw error;
  }
  await deleteSignInAttempt(db, id);
  await deletePairFailures(db, account, address);
  return result;
}
