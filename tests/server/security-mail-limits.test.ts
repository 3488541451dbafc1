/**
 * Issue 29: mail the server sends on request is limited per recipient and per sender, as
 * password-reset mails are (auth/rate-limits.ts): invitations (30 to one address were 30
 * mails, 100 to distinct addresses 100 mails) and email confirmations (30 'resend' calls were
 * 30 mails). Invitation links that name no invitation are limited per client address and over
 * everybody (169 guesses a second were answered). Refusals are a 429 with Retry-After and a
 * short text.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { LightMyRequestResponse } from 'fastify';
import { hashPassword } from '../../server/src/auth/passwords';
import {
  CONFIRMATION_MAILS,
  INVITATION_GUESSES,
  INVITATION_MAILS,
  TOO_MANY_CONFIRMATIONS,
  TOO_MANY_INVITATION_GUESSES,
  TOO_MANY_INVITATIONS,
} from '../../server/src/auth/rate-limits';
import { insertUser } from '../../server/src/db/queries/users';
import { insertWorkspace, setWorkspaceMember } from '../../server/src/db/queries/workspaces';
import type { users } from '../../server/src/db/schema';
import { rateLimitHits, type User } from '../../server/src/db/schema';
import {
  createTestApp,
  problem,
  withSecondInstance,
  type TestApp,
  type TestClient,
} from './support/test-app';

const PASSWORD = 'Field-Surv3y!';
let t: TestApp;
let counter = 0;

async function newUser(values: Partial<typeof users.$inferInsert> = {}): Promise<User> {
  const username = `mailer-${++counter}`;
  return insertUser(t.database.db, {
    username,
    email: `${username}@example.com`,
    passwordHash: await hashPassword(PASSWORD),
    verifiedEmail: true,
    ...values,
  });
}

async function signedIn(user: User): Promise<TestClient> {
  const client = t.client();
  await client.login(user.username, PASSWORD);
  return client;
}

/** A workspace `owner` owns (with a client signed in as them). */
async function ownedWorkspace() {
  const owner = await newUser();
  const workspace = await insertWorkspace(t.database.db, {
    name: `mail-ws-${++counter}`,
    storage: 1e6,
  });
  await setWorkspaceMember(t.database.db, workspace.id, owner.id, 'owner');
  return { owner, workspace, client: await signedIn(owner) };
}

async function mailsTo(to: string): Promise<number> {
  return (await t.outbox()).filter((m) => m.to === to).length;
}

function expectRefused(response: LightMyRequestResponse, detail: string) {
  expect(response.statusCode, response.body).toBe(429);
  expect(problem(response).detail).toBe(detail);
  expect(Number(response.headers['retry-after'])).toBeGreaterThan(0);
  expect(Number(response.headers['retry-after'])).toBeLessThanOrEqual(3600);
}

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t.close());
beforeEach(async () => {
  // Each case starts with nothing counted (the clock moves only where a case moves it).
  await t.database.db.delete(rateLimitHits);
});

describe('invitation mails', () => {
  it(`30 invitations to one address send ${INVITATION_MAILS.perSubject}, over all workspaces`, async () => {
    const email = `flooded-${++counter}@example.org`;
    const first = await ownedWorkspace();
    const second = await ownedWorkspace();
    const answers: number[] = [];
    for (let i = 0; i < 30; i++) {
      const { client, workspace } = i % 2 === 0 ? first : second;
      const response = await client.post(`/v2/workspaces/${workspace.id}/invitations`, {
        email: i % 3 === 0 ? email.toUpperCase() : email,
        role: 'reader',
      });
      answers.push(response.statusCode);
      if (response.statusCode === 429) expectRefused(response, TOO_MANY_INVITATIONS);
    }
    const max = INVITATION_MAILS.perSubject!;
    expect(answers.slice(0, max)).toEqual(Array(max).fill(201));
    expect(answers.slice(max).every((status) => status === 429)).toBe(true);
    expect((await t.outbox()).filter((m) => m.to.toLowerCase() === email).length).toBe(max);
    // An hour later the address may be invited again.
    t.clock.advance(INVITATION_MAILS.windowMs);
    const later = await first.client.post(`/v2/workspaces/${first.workspace.id}/invitations`, {
      email,
      role: 'reader',
    });
    expect(later.statusCode).toBe(201);
  });

  it(`100 invitations to distinct addresses send ${INVITATION_MAILS.perSource} from one sender`, async () => {
    const { client, workspace } = await ownedWorkspace();
    const answers: number[] = [];
    const before = (await t.outbox()).length;
    for (let i = 0; i < 100; i++) {
      const response = await client.post(`/v2/workspaces/${workspace.id}/invitations`, {
        email: `spread-${counter}-${i}@example.org`,
        role: 'reader',
      });
      answers.push(response.statusCode);
    }
    const max = INVITATION_MAILS.perSource!;
    expect(answers.filter((s) => s === 201)).toHaveLength(max);
    expect(answers.slice(max).every((s) => s === 429)).toBe(true);
    expect((await t.outbox()).length - before).toBe(max);
    // Another admin still invites.
    const other = await ownedWorkspace();
    const response = await other.client.post(`/v2/workspaces/${other.workspace.id}/invitations`, {
      email: `other-${counter}@example.org`,
      role: 'reader',
    });
    expect(response.statusCode).toBe(201);
  });

  it('a refused invitation (already a member) does not count; a throttled one changes nothing', async () => {
    const { client, workspace } = await ownedWorkspace();
    const member = await newUser();
    await setWorkspaceMember(t.database.db, workspace.id, member.id, 'reader');
    for (let i = 0; i < 10; i++) {
      const response = await client.post(`/v2/workspaces/${workspace.id}/invitations`, {
        email: member.email,
        role: 'writer',
      });
      expect(response.statusCode).toBe(409);
    }
    const email = `kept-${++counter}@example.org`;
    for (let i = 0; i < INVITATION_MAILS.perSubject!; i++) {
      await client.post(`/v2/workspaces/${workspace.id}/invitations`, { email, role: 'reader' });
    }
    const listed = async () =>
      (await client.get(`/v2/workspaces/${workspace.id}/invitations`)).json() as {
        role: string;
      }[];
    expect((await listed()).map((row) => row.role)).toEqual(['reader']);
    const refused = await client.post(`/v2/workspaces/${workspace.id}/invitations`, {
      email,
      role: 'admin',
    });
    expectRefused(refused, TOO_MANY_INVITATIONS);
    expect((await listed()).map((row) => row.role)).toEqual(['reader']);
  });

  it('keeps its counts in the database: another instance sees them', async () => {
    const { client, workspace } = await ownedWorkspace();
    const email = `shared-${++counter}@example.org`;
    for (let i = 0; i < INVITATION_MAILS.perSubject!; i++) {
      await client.post(`/v2/workspaces/${workspace.id}/invitations`, { email, role: 'reader' });
    }
    await withSecondInstance(t, async (other) => {
      const response = await other.inject({
        method: 'POST',
        url: `/v2/workspaces/${workspace.id}/invitations`,
        headers: {
          cookie: client.cookieHeader(),
          'x-csrf-token': client.csrfToken!,
          'content-type': 'application/json',
        },
        payload: JSON.stringify({ email, role: 'reader' }),
      });
      expectRefused(response, TOO_MANY_INVITATIONS);
    });
  });
});

describe('confirmation mails', () => {
  it(`30 'Send confirmation email' calls send ${CONFIRMATION_MAILS.perSubject}`, async () => {
    const user = await newUser({ verifiedEmail: false });
    const client = await signedIn(user);
    const answers: number[] = [];
    for (let i = 0; i < 30; i++) {
      const response = await client.get('/app/auth/resend-confirm-email');
      answers.push(response.statusCode);
      if (response.statusCode === 429) expectRefused(response, TOO_MANY_CONFIRMATIONS);
    }
    const max = CONFIRMATION_MAILS.perSubject!;
    expect(answers.slice(0, max)).toEqual(Array(max).fill(200));
    expect(answers.slice(max).every((s) => s === 429)).toBe(true);
    expect(await mailsTo(user.email!)).toBe(max);
  });

  it(`email changes to distinct addresses send ${CONFIRMATION_MAILS.perSource} an hour per user`, async () => {
    const user = await newUser();
    const client = await signedIn(user);
    const before = (await t.outbox()).length;
    const answers: number[] = [];
    for (let i = 0; i < 20; i++) {
      const response = await client.post('/app/auth/user/profile', {
        email: `stranger-${counter}-${i}@example.org`,
      });
      answers.push(response.statusCode);
    }
    const max = CONFIRMATION_MAILS.perSource!;
    expect(answers.filter((s) => s === 200)).toHaveLength(max);
    expect((await t.outbox()).length - before).toBe(max);
  });
});

describe('invitation link guesses', () => {
  const guess = (address: string, path = '') =>
    t.app.inject({
      url: `/app/invitations/guess-${++counter}${path}`,
      remoteAddress: address,
    });

  it(`answers ${INVITATION_GUESSES.perSource} wrong links an hour from one address, then 429`, async () => {
    const address = '198.51.100.7';
    for (let i = 0; i < INVITATION_GUESSES.perSource!; i++) {
      expect((await guess(address)).statusCode).toBe(404);
    }
    expectRefused(await guess(address), TOO_MANY_INVITATION_GUESSES);
    // Accepting and registering by guessed links count and are refused alike.
    const visitor = t.client();
    await visitor.init();
    const register = await t.app.inject({
      method: 'POST',
      url: `/app/invitations/guess-${++counter}/register`,
      remoteAddress: address,
      headers: {
        cookie: visitor.cookieHeader(),
        'x-csrf-token': visitor.csrfToken!,
        'content-type': 'application/json',
      },
      payload: JSON.stringify({ username: 'guesser', password: PASSWORD }),
    });
    expectRefused(register, TOO_MANY_INVITATION_GUESSES);
    // Other clients are not held back.
    expect((await guess('198.51.100.8')).statusCode).toBe(404);
    t.clock.advance(INVITATION_GUESSES.windowMs);
    expect((await guess(address)).statusCode).toBe(404);
  });

  it('does not count a right link', async () => {
    const { client, workspace } = await ownedWorkspace();
    const email = `right-${++counter}@example.org`;
    await client.post(`/v2/workspaces/${workspace.id}/invitations`, { email, role: 'reader' });
    const link = (await t.outbox()).filter((m) => m.to === email).at(-1)!.links[0]!;
    const token = link.split('/invitations/')[1]!;
    for (let i = 0; i < INVITATION_GUESSES.perSource! + 5; i++) {
      const response = await t.app.inject({
        url: `/app/invitations/${token}`,
        remoteAddress: '198.51.100.9',
      });
      expect(response.statusCode).toBe(200);
    }
  });

  it(`stops everybody past ${INVITATION_GUESSES.overall} wrong links an hour`, async () => {
    // Spread over many addresses (rows written directly: the count is what matters).
    const now = t.clock.now();
    await t.database.db.insert(rateLimitHits).values(
      Array.from({ length: INVITATION_GUESSES.overall! }, (_, i) => ({
        kind: INVITATION_GUESSES.kind,
        subject: null,
        source: `203.0.113.${i % 250}-${Math.floor(i / 250)}`,
        at: now,
      })),
    );
    expectRefused(await guess('198.51.100.10'), TOO_MANY_INVITATION_GUESSES);
  });
});
