/**
 * Issue 29 (critical): nobody takes over someone else's invitation by typing the invited
 * address into their own profile. A new email is only pending until the link mailed to it is
 * followed; until then the account's address stays what it was for everything (sign-in,
 * resets, invitations), the profile names the pending address, and it tells nothing about
 * which addresses are invited. Invitations are taken by whoever holds the link, or without it
 * only by the user whose verified email is the invited address.
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashPassword } from '../../server/src/auth/passwords';
import { insertUser } from '../../server/src/db/queries/users';
import { insertWorkspace, setWorkspaceMember } from '../../server/src/db/queries/workspaces';
import {
  rateLimitHits,
  users,
  workspaceInvitations,
  workspaceMembers,
  type User,
} from '../../server/src/db/schema';
import {
  createTestApp,
  lastMailedLink,
  problem,
  type TestApp,
  type TestClient,
} from './support/test-app';

const PASSWORD = 'Field-Surv3y!';
let t: TestApp;
let counter = 0;

async function newUser(prefix: string, values: Partial<typeof users.$inferInsert> = {}) {
  const username = `${prefix}${++counter}`;
  return insertUser(t.database.db, {
    username,
    email: `${username}@example.com`,
    passwordHash: await hashPassword(PASSWORD),
    verifiedEmail: true,
    ...values,
  });
}

async function web(login: string, password = PASSWORD): Promise<TestClient> {
  const client = t.client();
  await client.login(login, password);
  return client;
}

async function userRow(id: number): Promise<User> {
  const [row] = await t.database.db.select().from(users).where(eq(users.id, id));
  return row!;
}

/** The last link of a kind (`/confirm-email/`, `/invitations/`) mailed to `to`. */
const lastLinkTo = (to: string, kind = '/confirm-email/') => lastMailedLink(t, to, kind);

const tokenOf = (link: string) => link.split('/').at(-1)!;

/** A workspace whose owner invites `email` as owner; returns the ids and the link's token. */
async function invitedWorkspace(email: string) {
  const owner = await newUser('owner');
  const workspace = await insertWorkspace(t.database.db, {
    name: `secret${++counter}`,
    storage: 1e6,
  });
  await setWorkspaceMember(t.database.db, workspace.id, owner.id, 'owner');
  const invited = await (
    await web(owner.username)
  ).post(`/v2/workspaces/${workspace.id}/invitations`, { email, role: 'owner' });
  expect(invited.statusCode, invited.body).toBe(201);
  const [row] = await t.database.db
    .select()
    .from(workspaceInvitations)
    .where(eq(workspaceInvitations.workspaceId, workspace.id));
  return {
    workspace,
    owner,
    uuid: row!.uuid,
    token: tokenOf(await lastLinkTo(email, '/invitations/')),
  };
}

async function memberRole(workspaceId: number, userId: number) {
  const rows = await t.database.db
    .select({ role: workspaceMembers.role, userId: workspaceMembers.userId })
    .from(workspaceMembers)
    .where(eq(workspaceMembers.workspaceId, workspaceId));
  return rows.find((row) => row.userId === userId)?.role ?? null;
}

beforeAll(async () => {
  t = await createTestApp({ env: { BASE_URL: 'http://maps.example.org' } });
});

afterAll(async () => {
  await t?.close();
});

describe('typing an invited address into your own profile', () => {
  it('neither shows nor hands over the invitation; the address stays pending', async () => {
    const victimEmail = `victim${++counter}@example.org`;
    const { workspace, uuid } = await invitedWorkspace(victimEmail);
    const attacker = await newUser('attacker');
    const client = await web(attacker.username);

    const changed = await client.post('/app/auth/user/profile', { email: victimEmail });
    expect(changed.statusCode, changed.body).toBe(200);
    const profile = (await client.get('/v1/user/profile')).json();
    expect(profile).toMatchObject({
      email: attacker.email,
      verified_email: true,
      pending_email: victimEmail,
      invitations: [],
    });

    // Knowing the invitation's uuid does not help either.
    const accept = await client.post(`/app/user/invitations/${uuid}/accept`);
    expect(accept.statusCode).toBe(404);
    expect(problem(accept).detail).toBe('Invitation not found');
    expect((await client.delete(`/app/user/invitations/${uuid}`)).statusCode).toBe(404);
    expect(await memberRole(workspace.id, attacker.id)).toBeNull();
    const pending = await t.database.db
      .select()
      .from(workspaceInvitations)
      .where(eq(workspaceInvitations.uuid, uuid));
    expect(pending).toHaveLength(1);

    // The pending address is no login and gets no reset link.
    const signIn = t.client();
    await signIn.init();
    const byPending = await signIn.post('/app/auth/login', {
      login: victimEmail,
      password: PASSWORD,
    });
    expect(byPending.statusCode).toBe(401);
    const reset = await signIn.post('/app/auth/reset-password', { email: victimEmail });
    expect(reset.statusCode).toBe(404);
    expect((await web(attacker.email!)).cookies.has('session')).toBe(true);

    // The victim's mailbox got a confirmation link the attacker does not have.
    const links = (await t.outbox()).filter((m) => m.to === victimEmail).flatMap((m) => m.links);
    expect(links.some((link) => link.includes('/confirm-email/'))).toBe(true);
  });

  it('lists no invitation for an unverified email either (no address reveals its invitations)', async () => {
    const email = `unverified${++counter}@example.org`;
    const { uuid, workspace } = await invitedWorkspace(email);
    // As POST /v2/users makes accounts: the address was never confirmed.
    const holder = await newUser('holder', { email, verifiedEmail: false });
    const client = await web(holder.username);
    expect((await client.get('/v1/user/profile')).json().invitations).toEqual([]);
    expect((await client.post(`/app/user/invitations/${uuid}/accept`)).statusCode).toBe(404);
    expect(await memberRole(workspace.id, holder.id)).toBeNull();
  });

  it('the link mailed to the invited address still works, and proves the mailbox', async () => {
    const email = `linkholder${++counter}@example.org`;
    const { token, workspace } = await invitedWorkspace(email);
    const holder = await newUser('linkholder', { email, verifiedEmail: false });
    const client = await web(holder.username);
    const accept = await client.post(`/app/invitations/${token}/accept`);
    expect(accept.statusCode, accept.body).toBe(200);
    expect(await memberRole(workspace.id, holder.id)).toBe('owner');
    expect((await userRow(holder.id)).verifiedEmail).toBe(true);
  });

  it('the link does not let another account join', async () => {
    const email = `elsewhere${++counter}@example.org`;
    const { token, workspace } = await invitedWorkspace(email);
    const other = await newUser('other');
    const client = await web(other.username);
    // Even with the invited address pending on it.
    await client.post('/app/auth/user/profile', { email });
    const accept = await client.post(`/app/invitations/${token}/accept`);
    expect(accept.statusCode).toBe(403);
    expect(problem(accept).detail).toBe('This invitation was sent to another email address');
    expect(await memberRole(workspace.id, other.id)).toBeNull();
  });
});

describe('a confirmed change', () => {
  it('becomes the address for everything once the link is followed', async () => {
    const mover = await newUser('mover');
    const client = await web(mover.username);
    const newEmail = `moved${++counter}@example.org`;
    expect((await client.post('/app/auth/user/profile', { email: newEmail })).statusCode).toBe(200);
    const { workspace, uuid } = await invitedWorkspace(newEmail);
    expect((await client.get('/v1/user/profile')).json().invitations).toEqual([]);

    const visitor = t.client();
    await visitor.init();
    const confirmed = await visitor.post(
      `/app/auth/confirm-email/${tokenOf(await lastLinkTo(newEmail))}`,
    );
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    expect(await userRow(mover.id)).toMatchObject({
      email: newEmail,
      verifiedEmail: true,
      pendingEmail: null,
    });
    const profile = (await client.get('/v1/user/profile')).json();
    expect(profile).toMatchObject({ email: newEmail, verified_email: true, pending_email: null });
    expect(profile.invitations).toEqual([{ uuid, workspace: workspace.name, role: 'owner' }]);
    // Signs in with the new address, not the old one.
    expect((await web(newEmail)).cookies.has('session')).toBe(true);
    const old = await visitor.post('/app/auth/login', { login: mover.email, password: PASSWORD });
    expect(old.statusCode).toBe(401);
    // Following the link again changes nothing.
    expect(
      (await visitor.post(`/app/auth/confirm-email/${tokenOf(await lastLinkTo(newEmail))}`))
        .statusCode,
    ).toBe(200);
  });

  it('spends the link of a replaced or cancelled pending address', async () => {
    const user = await newUser('changer');
    const client = await web(user.username);
    const first = `first${++counter}@example.org`;
    const second = `second${counter}@example.org`;
    await client.post('/app/auth/user/profile', { email: first });
    const firstLink = await lastLinkTo(first);
    await client.post('/app/auth/user/profile', { email: second });
    const secondLink = await lastLinkTo(second);

    const visitor = t.client();
    await visitor.init();
    const stale = await visitor.post(`/app/auth/confirm-email/${tokenOf(firstLink)}`);
    expect(stale.statusCode).toBe(400);
    expect(problem(stale).detail).toBe('Invalid token');

    // The account's own address in the form keeps the change pending (names are edited so).
    await client.post('/app/auth/user/profile', { email: user.email, first_name: 'Chan' });
    expect((await userRow(user.id)).pendingEmail).toBe(second);

    const cancel = await client.delete('/app/auth/user/pending-email');
    expect(cancel.statusCode).toBe(204);
    expect((await client.get('/v1/user/profile')).json().pending_email).toBeNull();
    const cancelled = await visitor.post(`/app/auth/confirm-email/${tokenOf(secondLink)}`);
    expect(cancelled.statusCode).toBe(400);
    expect(await userRow(user.id)).toMatchObject({ email: user.email, verifiedEmail: true });
  });

  it('resends the link to the pending address', async () => {
    const user = await newUser('resender');
    const client = await web(user.username);
    const pending = `pending${++counter}@example.org`;
    await client.post('/app/auth/user/profile', { email: pending });
    const before = (await t.outbox()).filter((m) => m.to === pending).length;
    expect((await client.get('/app/auth/resend-confirm-email')).statusCode).toBe(200);
    const mails = (await t.outbox()).filter((m) => m.to === pending);
    expect(mails).toHaveLength(before + 1);
    expect((await t.outbox()).filter((m) => m.to === user.email)).toHaveLength(0);
  });

  it('refuses an address another account has, when asked and when confirmed', async () => {
    const user = await newUser('racer');
    const other = await newUser('holder');
    const client = await web(user.username);
    const taken = await client.post('/app/auth/user/profile', { email: other.email });
    expect(taken.statusCode).toBe(400);
    expect(taken.json()).toEqual({ email: ['Email already exists'] });

    const wanted = `wanted${++counter}@example.org`;
    await client.post('/app/auth/user/profile', { email: wanted });
    const link = await lastLinkTo(wanted);
    // Meanwhile someone else's account got that address.
    await t.database.db.update(users).set({ email: wanted }).where(eq(users.id, other.id));
    const visitor = t.client();
    await visitor.init();
    const late = await visitor.post(`/app/auth/confirm-email/${tokenOf(link)}`);
    expect(late.statusCode).toBe(400);
    expect(problem(late).detail).toBe('Email already exists');
    expect((await userRow(user.id)).email).toBe(user.email);
  });

  it('a change refused by the mail limit changes nothing', async () => {
    const user = await newUser('limited');
    const client = await web(user.username);
    await t.database.db.delete(rateLimitHits);
    const answers: number[] = [];
    for (let i = 0; i < 8; i++) {
      const response = await client.post('/app/auth/user/profile', {
        email: `try${i}-${counter}@example.org`,
      });
      answers.push(response.statusCode);
    }
    expect(answers.filter((s) => s === 200).length).toBeLessThan(8);
    const refusedAt = answers.indexOf(429);
    expect(refusedAt).toBeGreaterThan(0);
    expect((await userRow(user.id)).pendingEmail).toBe(
      `try${refusedAt - 1}-${counter}@example.org`,
    );
  });
});
