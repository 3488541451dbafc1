/**
 * Request limits kept in the database (issue 22, Hardening): password-reset mails per email
 * and per client address, refused the same way whether or not an account has the email;
 * sign-in failures per client address across accounts (issue 29: past the first bar only
 * accounts that failed from the address wait, past a far higher one every attempt does).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { hashPassword } from '../../server/src/auth/passwords';
import { RESET_MAILS, TOO_MANY_RESETS } from '../../server/src/auth/rate-limits';
import {
  ADDRESS_MAX_FAILURES,
  ADDRESS_MAX_FAILURES_ANY,
  ADDRESS_WINDOW_MS,
  PAIR_FREE_FAILURES,
  TOO_MANY_SIGN_INS,
} from '../../server/src/auth/sign-in-limits';
import { ConfigError, loadConfig } from '../../server/src/config';
import { insertUser } from '../../server/src/db/queries/users';
import { signInFailures } from '../../server/src/db/schema';
import {
  createTestApp,
  postFrom,
  problem,
  withSecondInstance,
  type TestApp,
} from './support/test-app';

const RESET_MAX_PER_EMAIL = RESET_MAILS.perSubject!;
const RESET_MAX_PER_ADDRESS = RESET_MAILS.perSource!;
const RESET_WINDOW_MS = RESET_MAILS.windowMs;

const PASSWORD = 'Limit-Password-1';
let t: TestApp;
let passwordHash: string;
let counter = 0;

beforeAll(async () => {
  t = await createTestApp();
  passwordHash = await hashPassword(PASSWORD);
});
afterAll(async () => t.close());

async function newUser(): Promise<{ username: string; email: string }> {
  const username = `limits-${++counter}`;
  const email = `${username}@example.com`;
  await insertUser(t.database.db, { username, email, passwordHash, verifiedEmail: true });
  return { username, email };
}

const reset = (email: string, address: string, app: FastifyInstance = t.app) =>
  postFrom(app, address, '/app/auth/reset-password', { email });

const mailsTo = async (email: string) =>
  (await t.outbox()).filter((mail) => JSON.stringify(mail).includes(email)).length;

function expectRefused(response: LightMyRequestResponse, detail: string) {
  expect(response.statusCode, response.body).toBe(429);
  expect(problem(response).detail).toBe(detail);
  expect(Number(response.headers['retry-after'])).toBeGreaterThan(0);
}

describe('password-reset mails', () => {
  it(`sends at most ${RESET_MAX_PER_EMAIL} an hour to one address (30 requests from many clients)`, async () => {
    const { email } = await newUser();
    const answers: number[] = [];
    for (let i = 0; i < 30; i++) {
      answers.push((await reset(email, `198.51.100.${i + 1}`)).statusCode);
    }
    expect(answers.slice(0, RESET_MAX_PER_EMAIL)).toEqual(Array(RESET_MAX_PER_EMAIL).fill(200));
    expect(answers.slice(RESET_MAX_PER_EMAIL).every((s) => s === 429)).toBe(true);
    expect(await mailsTo(email)).toBe(RESET_MAX_PER_EMAIL);
    expectRefused(await reset(email.toUpperCase(), '198.51.100.99'), TOO_MANY_RESETS);
    // An hour after the first request, one more is allowed.
    t.clock.advance(RESET_WINDOW_MS);
    expect((await reset(email, '198.51.100.100')).statusCode).toBe(200);
    expect(await mailsTo(email)).toBe(RESET_MAX_PER_EMAIL + 1);
  });

  it('refuses the same way whether or not an account has the email', async () => {
    const { email } = await newUser();
    const unknown = `nobody-${counter}@example.com`;
    for (let i = 0; i < RESET_MAX_PER_EMAIL; i++) {
      expect((await reset(email, `203.0.113.${i + 1}`)).statusCode).toBe(200);
      expect((await reset(unknown, `203.0.113.${i + 1}`)).statusCode).toBe(404);
    }
    const known = await reset(email, '203.0.113.50');
    const missing = await reset(unknown, '203.0.113.50');
    expectRefused(known, TOO_MANY_RESETS);
    expect(missing.statusCode).toBe(known.statusCode);
    expect(missing.body).toBe(known.body);
    expect(missing.headers['retry-after']).toBe(known.headers['retry-after']);
  });

  it(`takes at most ${RESET_MAX_PER_ADDRESS} requests an hour from one client, over all emails`, async () => {
    const client = '192.0.2.200';
    for (let i = 0; i < RESET_MAX_PER_ADDRESS; i++) {
      const { email } = await newUser();
      expect((await reset(i % 2 ? email : `x${i}-${email}`, client)).statusCode).not.toBe(429);
    }
    const { email } = await newUser();
    expectRefused(await reset(email, client), TOO_MANY_RESETS);
    expect(await mailsTo(email)).toBe(0);
    // Other clients are not held back.
    expect((await reset(email, '192.0.2.201')).statusCode).toBe(200);
  });

  it('does not count form errors', async () => {
    const client = '192.0.2.210';
    for (let i = 0; i < RESET_MAX_PER_ADDRESS + 5; i++) {
      expect((await reset('not an email', client)).statusCode).toBe(400);
    }
    expect((await reset((await newUser()).email, client)).statusCode).toBe(200);
  });

  it('keeps its counts in the database: another instance sees them', async () => {
    const { email } = await newUser();
    for (let i = 0; i < RESET_MAX_PER_EMAIL; i++) await reset(email, `192.0.2.${220 + i}`);
    await withSecondInstance(t, async (other) => {
      expectRefused(await reset(email, '192.0.2.230', other), TOO_MANY_RESETS);
    });
  });
});

describe('sign-in failures per client address', () => {
  const login = (username: string, password: string, address: string) =>
    postFrom(t.app, address, '/app/auth/login', { login: username, password });

  it(`past ${ADDRESS_MAX_FAILURES} failures an hour, only accounts that have not failed from the address go on`, async () => {
    const client = '192.0.2.240';
    // One wrong password on each of many accounts: each stays under its own limits.
    const failed: string[] = [];
    for (let i = 0; i < ADDRESS_MAX_FAILURES; i++) {
      const { username } = await newUser();
      expect((await login(username, 'wrong', client)).statusCode).toBe(401);
      failed.push(username);
    }
    expect(ADDRESS_MAX_FAILURES).toBeGreaterThan(PAIR_FREE_FAILURES);
    // Everybody behind one address (a proxy without TRUST_PROXY): the others still sign in
    // with their right passwords (issue 29).
    const { username: colleague } = await newUser();
    expect((await login(colleague, PASSWORD, client)).statusCode).toBe(200);
    // A guess on a fresh account is checked once; after that failure the account waits too.
    const { username: guessed } = await newUser();
    expect((await login(guessed, 'wrong', client)).statusCode).toBe(401);
    const refused = await login(guessed, PASSWORD, client);
    expectRefused(refused, TOO_MANY_SIGN_INS);
    expect(Number(refused.headers['retry-after'])).toBeLessThanOrEqual(ADDRESS_WINDOW_MS / 1000);
    // So does an account that failed from here before, even with its right password ...
    expectRefused(await login(failed[0]!, PASSWORD, client), TOO_MANY_SIGN_INS);
    // ... which works from another client,
    expect((await login(failed[0]!, PASSWORD, '192.0.2.241')).statusCode).toBe(200);
    // and from this one an hour later.
    t.clock.advance(ADDRESS_WINDOW_MS + 1000);
    expect((await login(failed[1]!, PASSWORD, client)).statusCode).toBe(200);
  });

  it(`past ${ADDRESS_MAX_FAILURES_ANY} failures an hour, every attempt from the address waits`, async () => {
    const client = '192.0.2.242';
    // The failures of many accounts (rows written directly: their count is what matters).
    const now = t.clock.now();
    await t.database.db.insert(signInFailures).values(
      Array.from({ length: ADDRESS_MAX_FAILURES_ANY }, (_, i) => ({
        account: `login:sprayed-${i}`,
        address: client,
        failedAt: now,
      })),
    );
    const { username } = await newUser();
    expectRefused(await login(username, PASSWORD, client), TOO_MANY_SIGN_INS);
    expect((await login(username, PASSWORD, '192.0.2.243')).statusCode).toBe(200);
  });
});

describe('behind a reverse proxy (TRUST_PROXY)', () => {
  it('reads TRUST_PROXY: false by default, true, or addresses/CIDRs', () => {
    const env = { DATA_DIR: t.config.dataDir, SECRET_KEY: t.config.secretKey };
    expect(loadConfig(env).trustProxy).toBe(false);
    expect(loadConfig({ ...env, TRUST_PROXY: 'true' }).trustProxy).toBe(true);
    expect(loadConfig({ ...env, TRUST_PROXY: '10.0.0.0/8, ::1' }).trustProxy).toBe(
      '10.0.0.0/8,::1',
    );
    expect(() => loadConfig({ ...env, TRUST_PROXY: '10.0.0.0/33' })).toThrow(ConfigError);
    expect(() => loadConfig({ ...env, TRUST_PROXY: 'proxy.local' })).toThrow(ConfigError);
  });

  it('counts each forwarded client apart, not the proxy', async () => {
    const proxied = await createTestApp({ env: { TRUST_PROXY: '127.0.0.1' } });
    try {
      // The proxy at 127.0.0.1 (app.inject's address) forwards for `client`.
      const fromClient = (client: string, email: string) =>
        postFrom(
          proxied.app,
          '127.0.0.1',
          '/app/auth/reset-password',
          { email },
          {
            'x-forwarded-for': client,
          },
        );
      for (let i = 0; i < RESET_MAX_PER_ADDRESS; i++) {
        expect((await fromClient('198.51.100.1', `a${i}@example.com`)).statusCode).toBe(404);
      }
      expect((await fromClient('198.51.100.1', 'b@example.com')).statusCode).toBe(429);
      expect((await fromClient('198.51.100.2', 'b@example.com')).statusCode).toBe(404);
    } finally {
      await proxied.close();
    }
  });
});
