/**
 * Sign-in rate limits (auth/sign-in-limits.ts): per account and address (5 free failures,
 * then a doubling wait), per account (100 failures an hour; 80 from addresses the user never
 * signed in from), 429 with Retry-After, kept in the database.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LightMyRequestResponse } from 'fastify';
import { hashPassword } from '../../server/src/auth/passwords';
import {
  ACCOUNT_MAX_FAILURES,
  ACCOUNT_MAX_FAILURES_NEW_ADDRESS,
  PAIR_FREE_FAILURES,
  TOO_MANY_SIGN_INS,
  pairDelaySeconds,
} from '../../server/src/auth/sign-in-limits';
import { insertUser } from '../../server/src/db/queries/users';
import { signInFailures } from '../../server/src/db/schema';
import {
  createTestApp,
  postFrom,
  problem,
  withSecondInstance,
  type TestApp,
} from './support/test-app';

const PASSWORD = 'Limit-Password-1';
let t: TestApp;
let passwordHash: string;
let counter = 0;

beforeAll(async () => {
  t = await createTestApp();
  passwordHash = await hashPassword(PASSWORD);
});
afterAll(async () => t.close());

async function newUser(): Promise<string> {
  const username = `limited-${++counter}`;
  await insertUser(t.database.db, {
    username,
    email: `${username}@example.com`,
    passwordHash,
    verifiedEmail: true,
  });
  return username;
}

/** A sign-in from `address`, on `app`. */
function attempt(login: string, password: string, address = '192.0.2.1', app = t.app) {
  return postFrom(app, address, '/app/auth/login', { login, password });
}

function expectTooMany(response: LightMyRequestResponse, retryAfter: number) {
  expect(response.statusCode, response.body).toBe(429);
  expect(problem(response).detail).toBe(TOO_MANY_SIGN_INS);
  expect(Number(response.headers['retry-after'])).toBe(retryAfter);
}

describe('per account and address', () => {
  it('doubles the wait after five failures; the right password waits too', async () => {
    const user = await newUser();
    for (let i = 0; i < PAIR_FREE_FAILURES; i++) {
      expect((await attempt(user, 'wrong')).statusCode).toBe(401);
    }
    expectTooMany(await attempt(user, 'wrong'), 1);
    // Refused attempts check nothing, not even the right password.
    expectTooMany(await attempt(user, PASSWORD), 1);
    t.clock.advance(1000);
    expect((await attempt(user, 'wrong')).statusCode).toBe(401);
    expectTooMany(await attempt(user, 'wrong'), 2);
    t.clock.advance(2000);
    expect((await attempt(user, 'wrong')).statusCode).toBe(401);
    expectTooMany(await attempt(user, PASSWORD), 4);
    t.clock.advance(4000);
    // Success forgets this address's failures: five free failures again.
    expect((await attempt(user, PASSWORD)).statusCode).toBe(200);
    for (let i = 0; i < PAIR_FREE_FAILURES; i++) {
      expect((await attempt(user, 'wrong')).statusCode).toBe(401);
    }
    expectTooMany(await attempt(user, 'wrong'), 1);
  });

  it('does not hold back the same account from another address', async () => {
    const user = await newUser();
    for (let i = 0; i < PAIR_FREE_FAILURES + 1; i++) await attempt(user, 'wrong', '192.0.2.7');
    expect((await attempt(user, 'wrong', '192.0.2.7')).statusCode).toBe(429);
    expect((await attempt(user, PASSWORD, '198.51.100.3')).statusCode).toBe(200);
  });

  it('counts the username and the email as one account, and unknown logins too', async () => {
    const user = await newUser();
    for (let i = 0; i < 3; i++) await attempt(user, 'wrong', '192.0.2.8');
    for (let i = 0; i < 2; i++) await attempt(`${user}@EXAMPLE.com`, 'wrong', '192.0.2.8');
    expect((await attempt(user.toUpperCase(), PASSWORD, '192.0.2.8')).statusCode).toBe(429);
    for (let i = 0; i < PAIR_FREE_FAILURES; i++) {
      expect((await attempt('nobody-here', 'wrong', '192.0.2.8')).statusCode).toBe(401);
    }
    expect((await attempt('Nobody-Here', 'wrong', '192.0.2.8')).statusCode).toBe(429);
  });

  it('lets no more than the free failures through when guesses arrive at once', async () => {
    const user = await newUser();
    const responses = await Promise.all(
      Array.from({ length: 12 }, () => attempt(user, 'wrong', '192.0.2.55')),
    );
    // At most the free failures are checked. How many of them are depends on how the 12
    // reservations interleave: on a loaded PostgreSQL all 12 may be recorded before any is
    // checked, and then every one is refused, which is as safe.
    const checked = responses.filter((r) => r.statusCode === 401).length;
    expect(checked).toBeLessThanOrEqual(PAIR_FREE_FAILURES);
    expect(responses.every((r) => r.statusCode === 401 || r.statusCode === 429)).toBe(true);
  });

  it('waits at most 15 minutes', () => {
    expect([4, 5, 6, 7, 14, 15, 40].map(pairDelaySeconds)).toEqual([0, 1, 2, 4, 512, 900, 900]);
  });

  it('does not count form errors (empty fields)', async () => {
    const user = await newUser();
    for (let i = 0; i < PAIR_FREE_FAILURES + 2; i++) {
      expect((await attempt(user, '')).statusCode).toBe(401);
    }
    expect((await attempt(user, PASSWORD)).statusCode).toBe(200);
  });
});

describe('per account', () => {
  it(
    'stops at 80 failures an hour from new addresses, 100 from known ones, then frees up',
    { timeout: 120_000 },
    async () => {
      const user = await newUser();
      // The real user signed in from five addresses before.
      const known = [50, 51, 52, 53, 54].map((n) => `203.0.113.${n}`);
      for (const address of known) {
        expect((await attempt(user, PASSWORD, address)).statusCode).toBe(200);
      }
      const started = t.clock.now().getTime();
      // Guesses spread over many addresses, never more than the free five from each.
      for (let i = 0; i < ACCOUNT_MAX_FAILURES_NEW_ADDRESS; i++) {
        const address = `10.0.${Math.floor(i / PAIR_FREE_FAILURES)}.1`;
        expect((await attempt(user, 'wrong', address)).statusCode).toBe(401);
        t.clock.advance(1000);
      }
      // Freed when the oldest failure is an hour old.
      expectTooMany(await attempt(user, PASSWORD, '10.9.9.9'), 3600 - 80);
      // Known addresses still get in, and their failures fill the rest of the 100.
      expect((await attempt(user, PASSWORD, known[0])).statusCode).toBe(200);
      const rest = ACCOUNT_MAX_FAILURES - ACCOUNT_MAX_FAILURES_NEW_ADDRESS;
      for (let i = 0; i < rest; i++) {
        const address = known[i % 4]!;
        expect((await attempt(user, 'wrong', address)).statusCode, `failure ${i}`).toBe(401);
      }
      expectTooMany(await attempt(user, PASSWORD, known[4]), 3600 - 80);
      const rows = await t.database.db.select().from(signInFailures).orderBy(signInFailures.id);
      expect(rows.filter((row) => row.account === rows.at(-1)!.account)).toHaveLength(
        ACCOUNT_MAX_FAILURES,
      );
      // An hour after the first failure it has aged out: a known address gets in; a new
      // address waits until enough have (80 failures left in the hour, own attempt aside).
      t.clock.ms = started + 3600_000 + 1;
      expectTooMany(await attempt(user, PASSWORD, '10.9.9.9'), 20);
      expect((await attempt(user, PASSWORD, known[4])).statusCode).toBe(200);
      t.clock.ms = started + 3620_000 + 1;
      expect((await attempt(user, PASSWORD, '10.9.9.9')).statusCode).toBe(200);
    },
  );

  it('keeps its state in the database: another instance on it sees it', async () => {
    const user = await newUser();
    for (let i = 0; i < PAIR_FREE_FAILURES; i++) await attempt(user, 'wrong', '192.0.2.99');
    await withSecondInstance(t, async (other) => {
      expect((await attempt(user, PASSWORD, '192.0.2.99', other)).statusCode).toBe(429);
    });
  });
});

describe('token login (/v1/auth/login)', () => {
  async function tokenAttempt(login: string, password: string, address = '192.0.2.40') {
    return t.app.inject({
      method: 'POST',
      url: '/v1/auth/login',
      remoteAddress: address,
      payload: { login, password },
    });
  }

  it('shares the limits with the web sign-in: failures on either count for both', async () => {
    const user = await newUser();
    for (let i = 0; i < PAIR_FREE_FAILURES - 1; i++) {
      expect((await tokenAttempt(user, 'wrong')).statusCode).toBe(401);
    }
    expect((await attempt(user, 'wrong', '192.0.2.40')).statusCode).toBe(401);
    expectTooMany(await tokenAttempt(user, PASSWORD), 1);
    t.clock.advance(1000);
    const ok = await tokenAttempt(user, PASSWORD);
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json().session.token).toMatch(/^\./);
  });
});
