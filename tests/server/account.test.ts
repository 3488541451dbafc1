import fs from 'node:fs';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashPassword } from '../../server/src/auth/passwords';
import { createSession } from '../../server/src/auth/sessions';
import { insertUser } from '../../server/src/db/queries/users';
import {
  accessRequests,
  projectMembers,
  projects,
  sessions,
  users,
} from '../../server/src/db/schema';
import { AdminError, createUser } from '../../server/src/services/accounts-admin';
import {
  captureLogs,
  createTestApp,
  problem,
  type TestApp,
  type TestClient,
} from './support/test-app';

const PASSWORD = 'Jane-Password-1';
const HOUR = 3600 * 1000;
let t: TestApp;
const logs = captureLogs();
let passwordHash: string;

async function addUser(username: string, values: Partial<typeof users.$inferInsert> = {}) {
  return insertUser(t.database.db, {
    username,
    email: `${username}@example.com`,
    passwordHash,
    verifiedEmail: true,
    ...values,
  });
}

async function signedIn(login: string, password = PASSWORD): Promise<TestClient> {
  const client = t.client();
  await client.login(login, password);
  return client;
}

async function anonymous(): Promise<TestClient> {
  const client = t.client();
  await client.init();
  return client;
}

/** The last mail sent to `to`, and its one link. */
async function lastMailTo(to: string) {
  const mail = (await t.outbox()).filter((m) => m.to === to).at(-1);
  if (!mail) throw new Error(`no mail to ${to}`);
  return { mail, link: mail.links[0]! };
}

function tokenOf(link: string): string {
  return link.split('/').at(-1)!;
}

async function userRow(username: string) {
  const [row] = await t.database.db.select().from(users).where(eq(users.username, username));
  return row!;
}

beforeAll(async () => {
  t = await createTestApp({ env: { BASE_URL: 'http://maps.example.org' }, logger: logs.logger });
  passwordHash = await hashPassword(PASSWORD);
});

afterAll(async () => {
  await t?.close();
});

describe('POST /app/auth/reset-password', () => {
  beforeAll(async () => {
    await addUser('reset.me', { email: 'Reset.Me@Example.com' });
    await addUser('closed', { active: false });
    await addUser('ssouser', { passwordHash: null });
  });

  it.each([
    [{}, 400, { email: ['This field is required.'] }],
    [{ email: '   ' }, 400, { email: ['This field is required.'] }],
    [{ email: null }, 400, { email: ['This field is required.'] }],
    [{ email: 'not-an-email' }, 400, { email: ['Invalid email address.'] }],
    [
      { email: 'jane@exa_mple.com' },
      400,
      { email: ["Email address 'jane@exa_mple.com' is invalid."] },
    ],
    [{ email: 'nobody@example.com' }, 404, { email: ['Account with given email does not exist'] }],
    [{ email: 'closed@example.com' }, 400, { email: ['Account is not active'] }],
  ])('answers %j with %d form errors', async (body, status, errors) => {
    const response = await (await anonymous()).post('/app/auth/reset-password', body);
    expect(response.statusCode).toBe(status);
    expect(response.headers['content-type']).toBe('application/json');
    expect(response.json()).toEqual(errors);
  });

  it('refuses accounts without a password with 403', async () => {
    const response = await (
      await anonymous()
    ).post('/app/auth/reset-password', {
      email: 'ssouser@example.com',
    });
    expect(response.statusCode).toBe(403);
    expect(problem(response).detail).toBe('You cannot edit profile of this user');
  });

  it('needs a CSRF token', async () => {
    const response = await (
      await anonymous()
    ).post('/app/auth/reset-password', { email: 'reset.me@example.com' }, { csrf: false });
    expect(problem(response).detail).toBe('The CSRF token is missing.');
  });

  it('mails a link to the outbox (email matched case-insensitively, trimmed)', async () => {
    const before = (await t.outbox()).length;
    const response = await (
      await anonymous()
    ).post('/app/auth/reset-password', {
      email: '  reset.me@EXAMPLE.com ',
    });
    expect(response.statusCode).toBe(200);
    expect(response.body).toBe('');
    const mails = await t.outbox();
    expect(mails).toHaveLength(before + 1);
    const mail = mails.at(-1)!;
    expect(mail).toEqual({
      to: 'Reset.Me@Example.com',
      subject: 'Reset your Waymark password',
      text: expect.stringContaining('Hello reset.me,'),
      html: expect.any(String),
      links: [
        expect.stringMatching(/^http:\/\/maps\.example\.org\/change-password\/[\w-]+\.[\w-]+$/),
      ],
      sentAt: new Date(t.clock.ms).toISOString(),
    });
    const files = fs.readdirSync(t.outboxDir).filter((f) => f.endsWith('.json'));
    expect(
      files.every((f) => /^\d{4}-\d\d-\d\dT\d\d-\d\d-\d\d\.\d{3}Z-[0-9a-f]{8}\.json$/.test(f)),
    ).toBe(true);
    expect(logs.lines).toContainEqual(
      expect.objectContaining({
        level: 30,
        msg: `Mail to Reset.Me@Example.com: Reset your Waymark password ${mail.links[0]}`,
      }),
    );
  });

  it('answers 200 and logs the failure when the mail cannot be sent', async () => {
    const before = await t.outbox();
    fs.renameSync(t.outboxDir, `${t.outboxDir}.away`);
    fs.writeFileSync(t.outboxDir, 'not a folder');
    try {
      const response = await (
        await anonymous()
      ).post('/app/auth/reset-password', {
        email: 'reset.me@example.com',
      });
      expect(response.statusCode).toBe(200);
      expect(logs.lines).toContainEqual(
        expect.objectContaining({
          level: 50,
          msg: 'Could not send mail to Reset.Me@Example.com: Reset your Waymark password',
        }),
      );
    } finally {
      fs.rmSync(t.outboxDir);
      fs.renameSync(`${t.outboxDir}.away`, t.outboxDir);
    }
    expect(await t.outbox()).toEqual(before);
  });
});

describe('POST /app/auth/reset-password/:token', () => {
  async function freshLink(email: string): Promise<string> {
    const response = await (await anonymous()).post('/app/auth/reset-password', { email });
    expect(response.statusCode).toBe(200);
    return (await lastMailTo(email)).link;
  }

  function reset(client: TestClient, link: string, body: unknown) {
    return client.post(`/app/auth/reset-password/${tokenOf(link)}`, body);
  }

  beforeAll(async () => {
    await addUser('forgetful');
  });

  it('checks the new password with field errors', async () => {
    const link = await freshLink('forgetful@example.com');
    const client = await anonymous();
    const cases: [unknown, Record<string, string[]>][] = [
      [{}, { password: ['This field is required.'], confirm: ['This field is required.'] }],
      [
        { password: 'Short-1', confirm: 'Short-1' },
        { password: ['Passwords must be at least 8 characters long.'] },
      ],
      [
        { password: 'alllowercase', confirm: 'alllowercase' },
        { password: ['Password is not strong enough'] },
      ],
      [
        { password: 'New-Password-2', confirm: 'New-Password-3' },
        { confirm: ['Passwords must match'] },
      ],
    ];
    for (const [body, errors] of cases) {
      const response = await reset(client, link, body);
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
      expect(response.json()).toEqual(errors);
    }
  });

  it('sets the password, ends all sessions, and the link works only once', async () => {
    const session = await signedIn('forgetful');
    const link = await freshLink('forgetful@example.com');
    t.clock.advance(1000);
    const client = await anonymous();
    const response = await reset(client, link, {
      password: 'New-Password-2',
      confirm: 'New-Password-2',
    });
    expect(response.statusCode).toBe(200);
    expect(response.body).toBe('');

    expect((await session.get('/v1/user/profile')).statusCode).toBe(401);
    const after = await userRow('forgetful');
    expect(after.passwordChangedAt.getTime()).toBe(t.clock.ms);
    await signedIn('forgetful', 'New-Password-2');
    await expect(signedIn('forgetful', PASSWORD)).rejects.toThrow(/401/);

    const again = await reset(client, link, {
      password: 'Other-Password-3',
      confirm: 'Other-Password-3',
    });
    expect(again.statusCode).toBe(400);
    expect(problem(again).detail).toBe('Invalid token');
  });

  it('expires after one hour', async () => {
    const link = await freshLink('forgetful@example.com');
    const client = await anonymous();
    t.clock.advance(HOUR - 1000);
    // Still valid: the form is checked.
    expect((await reset(client, link, {})).json()).toHaveProperty('password');
    t.clock.advance(2000);
    await client.init(); // a fresh CSRF token for the later clock
    const response = await reset(client, link, {
      password: 'New-Password-4',
      confirm: 'New-Password-4',
    });
    expect(response.statusCode).toBe(400);
    expect(problem(response).detail).toBe('Invalid token');
  });

  it('refuses malformed tokens and confirmation tokens', async () => {
    const client = await anonymous();
    const body = { password: 'New-Password-5', confirm: 'New-Password-5' };
    for (const token of ['garbage', 'a.b', 'x'.repeat(300)]) {
      const response = await client.post(`/app/auth/reset-password/${token}`, body);
      expect(response.statusCode).toBe(400);
      expect(problem(response).detail).toBe('Invalid token');
    }
    const session = await signedIn('forgetful', 'New-Password-2');
    // Only an unverified (or pending) address gets a confirmation link.
    await t.database.db
      .update(users)
      .set({ verifiedEmail: false })
      .where(eq(users.username, 'forgetful'));
    await session.get('/app/auth/resend-confirm-email');
    const { link } = await lastMailTo('forgetful@example.com');
    expect(link).toContain('/confirm-email/');
    const crossed = await client.post(`/app/auth/reset-password/${tokenOf(link)}`, body);
    expect(problem(crossed).detail).toBe('Invalid token');
  });

  it('answers 404 when the address no longer belongs to the account, 400 when inactive', async () => {
    const user = await addUser('mover');
    const link = await freshLink('mover@example.com');
    await t.database.db
      .update(users)
      .set({ email: 'moved@example.com' })
      .where(eq(users.id, user.id));
    const client = await anonymous();
    const body = { password: 'New-Password-6', confirm: 'New-Password-6' };
    const moved = await reset(client, link, body);
    expect(moved.statusCode).toBe(404);
    expect(problem(moved).detail).toMatch(/^The requested URL was not found/);

    const other = await addUser('sleeper');
    const link2 = await freshLink('sleeper@example.com');
    await t.database.db.update(users).set({ active: false }).where(eq(users.id, other.id));
    const inactive = await reset(client, link2, body);
    expect(inactive.statusCode).toBe(400);
    expect(problem(inactive).detail).toBe('Account is not active');
  });
});

describe('POST /app/auth/change-password', () => {
  it('needs a signed-in user', async () => {
    const response = await (await anonymous()).post('/app/auth/change-password', {});
    expect(response.statusCode).toBe(401);
    expect(response.json()).toBe('Authentication information is missing or invalid.');
  });

  it('answers field errors, then checks the old password', async () => {
    await addUser('changer');
    const client = await signedIn('changer');
    const empty = await client.post('/app/auth/change-password', {});
    expect(empty.statusCode).toBe(400);
    expect(empty.json()).toEqual({
      old_password: ['This field is required.'],
      password: ['This field is required.'],
      confirm: ['This field is required.'],
    });
    const weak = await client.post('/app/auth/change-password', {
      old_password: 'wrong',
      password: 'weakweak',
      confirm: 'weakweak',
    });
    expect(weak.json()).toEqual({ password: ['Password is not strong enough'] });
    const wrong = await client.post('/app/auth/change-password', {
      old_password: 'Wrong-Password-1',
      password: 'New-Password-7',
      confirm: 'New-Password-7',
    });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json()).toEqual({ old_password: ['The old password is incorrect'] });
  });

  it('changes the password and ends every other session of the user', async () => {
    await addUser('rotator');
    const current = await signedIn('rotator');
    const laptop = await signedIn('rotator');
    const phone = await signedIn('rotator');
    const before = await userRow('rotator');
    t.clock.advance(1000);
    const response = await current.post('/app/auth/change-password', {
      old_password: PASSWORD,
      password: 'New-Password-8',
      confirm: 'New-Password-8',
    });
    expect(response.statusCode).toBe(200);
    expect(response.body).toBe('');
    expect((await current.get('/v1/user/profile')).statusCode).toBe(200);
    expect((await laptop.get('/v1/user/profile')).statusCode).toBe(401);
    expect((await phone.get('/v1/user/profile')).statusCode).toBe(401);
    const rows = await t.database.db.select().from(sessions).where(eq(sessions.userId, before.id));
    expect(rows).toHaveLength(1);
    expect((await userRow('rotator')).passwordChangedAt.getTime()).toBe(t.clock.ms);
    await signedIn('rotator', 'New-Password-8');
  });

  it('answers 403 with a JSON string for accounts without a password', async () => {
    const sso = await addUser('sso.session', { passwordHash: null });
    const { id } = await createSession(
      t.database.db,
      sso.id,
      { ip: null, userAgent: null },
      t.clock.now(),
    );
    const client = t.client();
    client.cookies.set('session', id);
    // The CSRF token is bound to the session cookie: the page's start gets one for it.
    await client.init();
    const response = await client.post('/app/auth/change-password', {
      old_password: 'x',
      password: 'New-Password-9',
      confirm: 'New-Password-9',
    });
    expect(response.statusCode).toBe(403);
    expect(response.headers['content-type']).toBe('application/json');
    expect(response.json()).toBe('You cannot edit profile of this user');
    const profile = await client.post('/app/auth/user/profile', {
      email: 'sso.session@example.com',
    });
    expect(profile.statusCode).toBe(403);
    expect((await client.get('/app/auth/resend-confirm-email')).statusCode).toBe(403);
  });
});

describe('email confirmation', () => {
  it('resend needs a signed-in user', async () => {
    const response = await t.client().get('/app/auth/resend-confirm-email');
    expect(response.statusCode).toBe(401);
  });

  it('mails a link that verifies the address (12 hours)', async () => {
    await addUser('unverified', { verifiedEmail: false });
    const client = await signedIn('unverified');
    const response = await client.get('/app/auth/resend-confirm-email');
    expect(response.statusCode).toBe(200);
    expect(response.body).toBe('');
    const { mail, link } = await lastMailTo('unverified@example.com');
    expect(mail.subject).toBe('Confirm your Waymark email address');
    expect(link).toMatch(/^http:\/\/maps\.example\.org\/confirm-email\/[\w-]+\.[\w-]+$/);

    t.clock.advance(12 * HOUR - 1000);
    const visitor = await anonymous();
    const confirmed = await visitor.post(`/app/auth/confirm-email/${tokenOf(link)}`);
    expect(confirmed.statusCode).toBe(200);
    expect(confirmed.body).toBe('');
    expect((await client.get('/v1/user/profile')).json()).toMatchObject({ verified_email: true });
    // Already verified: still 200.
    expect((await visitor.post(`/app/auth/confirm-email/${tokenOf(link)}`)).statusCode).toBe(200);
  });

  it('refuses expired, malformed and reset tokens with Invalid token', async () => {
    await addUser('late', { verifiedEmail: false });
    const client = await signedIn('late');
    await client.get('/app/auth/resend-confirm-email');
    const { link } = await lastMailTo('late@example.com');
    t.clock.advance(12 * HOUR + 1000);
    const visitor = await anonymous();
    for (const token of [tokenOf(link), 'garbage']) {
      const response = await visitor.post(`/app/auth/confirm-email/${token}`);
      expect(response.statusCode).toBe(400);
      expect(problem(response).detail).toBe('Invalid token');
    }
    await visitor.post('/app/auth/reset-password', { email: 'late@example.com' });
    const reset = await lastMailTo('late@example.com');
    const crossed = await visitor.post(`/app/auth/confirm-email/${tokenOf(reset.link)}`);
    expect(problem(crossed).detail).toBe('Invalid token');
    expect((await userRow('late')).verifiedEmail).toBe(false);
  });
});

describe('POST /app/auth/user/profile', () => {
  beforeAll(async () => {
    await addUser('editor', { firstName: 'Ed', lastName: 'Itor' });
    await addUser('taken', { email: 'Taken@Example.com' });
  });

  it('answers field errors; email is required', async () => {
    const client = await signedIn('editor');
    const cases: [unknown, Record<string, string[]>][] = [
      [{ first_name: 'Ed' }, { email: ['This field is required.'] }],
      [{ email: '  ' }, { email: ['This field is required.'] }],
      [{ email: 'nope' }, { email: ['Invalid email address.'] }],
      [{ email: 'ed@exa_mple.com' }, { email: ["Email address 'ed@exa_mple.com' is invalid."] }],
      [{ email: 'taken@example.COM' }, { email: ['Email already exists'] }],
      [
        { email: 'editor@example.com', first_name: 'x'.repeat(257) },
        { first_name: ['Field cannot be longer than 256 characters.'] },
      ],
    ];
    for (const [body, errors] of cases) {
      const response = await client.post('/app/auth/user/profile', body);
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
      expect(response.headers['content-type']).toBe('application/json');
      expect(response.json()).toEqual(errors);
    }
    const wrongType = await client.post('/app/auth/user/profile', {
      email: 'editor@example.com',
      receive_notifications: 'maybe',
    });
    expect(wrongType.statusCode).toBe(400);
    expect(problem(wrongType).detail).toMatch(/is not of type 'boolean'/);
  });

  it('updates only the given fields, trimmed; same email keeps it verified', async () => {
    const client = await signedIn('editor');
    const before = (await t.outbox()).length;
    const response = await client.post('/app/auth/user/profile', {
      email: ' EDITOR@example.com ',
      first_name: '  Edith ',
      receive_notifications: false,
    });
    expect(response.statusCode).toBe(200);
    expect(response.body).toBe('');
    expect((await client.get('/v1/user/profile')).json()).toMatchObject({
      email: 'EDITOR@example.com',
      verified_email: true,
      first_name: 'Edith',
      last_name: 'Itor',
      name: 'Edith Itor',
      receive_notifications: false,
    });
    expect(await t.outbox()).toHaveLength(before);
    await client.post('/app/auth/user/profile', { email: 'editor@example.com', last_name: '' });
    expect((await client.get('/v1/user/profile')).json()).toMatchObject({
      last_name: null,
      name: 'Edith',
    });
  });

  it('a new email is pending, with a confirmation mail, until its link is followed', async () => {
    const client = await signedIn('editor');
    const response = await client.post('/app/auth/user/profile', { email: 'edith@example.net' });
    expect(response.statusCode).toBe(200);
    expect((await client.get('/v1/user/profile')).json()).toMatchObject({
      email: 'editor@example.com',
      verified_email: true,
      pending_email: 'edith@example.net',
    });
    const { link } = await lastMailTo('edith@example.net');
    expect(link).toContain('/confirm-email/');
    expect(
      (await (await anonymous()).post(`/app/auth/confirm-email/${tokenOf(link)}`)).statusCode,
    ).toBe(200);
    expect(await userRow('editor')).toMatchObject({
      email: 'edith@example.net',
      verifiedEmail: true,
      pendingEmail: null,
    });
  });
});

describe('DELETE /v1/user', () => {
  it('needs a signed-in user and a CSRF token with the session cookie', async () => {
    expect((await t.client().delete('/v1/user')).statusCode).toBe(401);
    await addUser('careful');
    const client = await signedIn('careful');
    const response = await client.delete('/v1/user', { csrf: false });
    expect(problem(response).detail).toBe('The CSRF token is missing.');
    expect((await userRow('careful')).active).toBe(true);
  });

  it('closes the account: memberships, pending requests, all sessions; names stay taken', async () => {
    const leaver = await addUser('leaver');
    const other = await addUser('stayer');
    const db = t.database.db;
    const [mine, theirs] = await db
      .insert(projects)
      .values([
        { workspaceId: t.setup.workspaceId, name: 'leaver-member' },
        { workspaceId: t.setup.workspaceId, name: 'leaver-requested' },
      ])
      .returning();
    await db.insert(projectMembers).values([
      { projectId: mine!.id, userId: leaver.id, role: 'writer' },
      { projectId: mine!.id, userId: other.id, role: 'owner' },
    ]);
    const expiresAt = new Date(t.clock.ms + 7 * 24 * HOUR);
    await db.insert(accessRequests).values([
      { projectId: theirs!.id, requestedBy: leaver.id, expiresAt },
      { projectId: theirs!.id, requestedBy: other.id, expiresAt },
    ]);

    const client = await signedIn('leaver');
    const second = await signedIn('leaver');
    const response = await client.delete('/v1/user');
    expect(response.statusCode).toBe(204);
    expect(response.body).toBe('');
    expect(response.cookies.find((c) => c.name === 'session')?.value).toBe('');

    const row = await userRow('leaver');
    expect(row.active).toBe(false);
    expect(row.inactiveSince?.getTime()).toBe(t.clock.ms);
    expect(await db.select().from(sessions).where(eq(sessions.userId, leaver.id))).toEqual([]);
    expect((await second.get('/v1/user/profile')).statusCode).toBe(401);
    expect(await second.init()).toEqual({ authenticated: false, superuser: false });

    const members = await db
      .select()
      .from(projectMembers)
      .where(eq(projectMembers.projectId, mine!.id));
    expect(members.map((m) => m.userId)).toEqual([other.id]);
    const requests = await db
      .select()
      .from(accessRequests)
      .where(eq(accessRequests.projectId, theirs!.id));
    expect(requests.map((r) => [r.requestedBy, r.status])).toEqual(
      expect.arrayContaining([
        [leaver.id, 'declined'],
        [other.id, null],
      ]),
    );

    const login = await (
      await anonymous()
    ).post('/app/auth/login', { login: 'leaver', password: PASSWORD });
    expect(login.statusCode).toBe(401);
    expect(problem(login).detail).toBe('Invalid username or password');
    const resetRequest = await (
      await anonymous()
    ).post('/app/auth/reset-password', {
      email: 'leaver@example.com',
    });
    expect(resetRequest.json()).toEqual({ email: ['Account is not active'] });

    await expect(
      createUser(t.database, t.config, {
        username: 'Leaver',
        email: 'x@example.com',
        password: 'Whatever-Pass-1',
        superuser: false,
      }),
    ).rejects.toThrow(new AdminError('User with this username already exists'));
    await expect(
      createUser(t.database, t.config, {
        username: 'newcomer',
        email: 'LEAVER@example.com',
        password: 'Whatever-Pass-1',
        superuser: false,
      }),
    ).rejects.toThrow(new AdminError('User with this email already exists'));
  });
});
