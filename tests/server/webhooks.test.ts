/**
 * Webhooks (issue 33): managed by workspace admins and project owners, queued with the change
 * they report, signed per Standard Webhooks (checked by the reference verifier in the
 * receiver, support/webhook-receiver.ts), retried with backoff, logged, and never sent to the
 * server's own network unless WEBHOOK_ALLOW_PRIVATE (checked again after DNS resolution at
 * delivery). Two instances on PostgreSQL send each message once.
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { insertWebhook } from '../../server/src/db/queries/webhooks';
import { setWorkspaceMember } from '../../server/src/db/queries/workspaces';
import { upsertProjectMembers } from '../../server/src/db/queries/projects';
import { projects, webhookDeliveries, type Project, type User } from '../../server/src/db/schema';
import {
  WEBHOOK_PRIVATE_ADDRESS,
  WEBHOOK_URL_INVALID,
  type Webhook,
  type WebhookDeliveryList,
} from '../../server/src/schemas/webhooks';
import { isPrivateAddress } from '../../server/src/services/webhooks/address-guard';
import {
  nextAttemptAfter,
  RETRY_DELAYS_MS,
  RETRY_FOR_MS,
} from '../../server/src/services/webhooks/dispatcher';
import { webhookSignature } from '../../server/src/services/webhooks/signing';
import { startInstance, type Instance } from './support/instances';
import { finishPush, plan, sendChunk, startPush } from './support/push-client';
import { commit, createProject, signedInUser } from './support/seed';
import { testDatabaseKind } from './support/test-db';
import { createTestApp, type TestApp, type TestClient } from './support/test-app';
import { startReceiver, TEST_SECRET, type WebhookReceiver } from './support/webhook-receiver';

const NS = 'waymark';
let counter = 0;

describe('signing and addresses (units)', () => {
  it('signs as the Standard Webhooks specification example does', () => {
    // The specification's published example (standard-webhooks/spec, "Signature scheme").
    const secret = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
    const body = '{"test": 2432232314}';
    expect(webhookSignature(secret, 'msg_p5jXN8AQM9LWM0D4loKWxJek', 1614265330, body)).toBe(
      'v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=',
    );
  });

  it('knows the private ranges', () => {
    for (const address of [
      '127.0.0.1',
      '10.1.2.3',
      '172.16.0.1',
      '192.168.1.1',
      '169.254.169.254',
      '100.64.0.1',
      '0.0.0.0',
      '::1',
      '::',
      'fe80::1',
      'fd00::1',
      '::ffff:127.0.0.1',
      '::ffff:7f00:1',
      '224.0.0.1',
    ]) {
      expect(isPrivateAddress(address), address).toBe(true);
    }
    for (const address of ['93.184.215.14', '8.8.8.8', '2606:4700::1111']) {
      expect(isPrivateAddress(address), address).toBe(false);
    }
  });

  it('retries with backoff for a day, then gives up', () => {
    const createdAt = new Date('2026-01-01T00:00:00Z');
    let at = createdAt;
    const attempts: Date[] = [at];
    for (let attempt = 1; ; attempt++) {
      const next = nextAttemptAfter({ attempts: attempt, createdAt }, at);
      if (!next) break;
      at = next;
      attempts.push(at);
    }
    expect(attempts[1]!.getTime() - createdAt.getTime()).toBe(RETRY_DELAYS_MS[0]);
    expect(at.getTime() - createdAt.getTime()).toBe(RETRY_FOR_MS);
    expect(attempts.length).toBeGreaterThanOrEqual(7);
  });
});

describe('webhooks', () => {
  let t: TestApp;
  let receiver: WebhookReceiver;
  let admin: TestClient;
  let owner: { user: User; client: TestClient };
  let writer: { user: User; client: TestClient };
  let project: Project;

  beforeAll(async () => {
    t = await createTestApp({ env: { WEBHOOK_ALLOW_PRIVATE: 'true' } });
    receiver = await startReceiver(TEST_SECRET);
    admin = t.client();
    await admin.login('admin', 'Admin-Password-1');
    owner = await signedInUser(t, 'olive');
    writer = await signedInUser(t, 'walter');
    await setWorkspaceMember(t.database.db, t.setup.workspaceId, owner.user.id, 'reader');
    await setWorkspaceMember(t.database.db, t.setup.workspaceId, writer.user.id, 'writer');
    project = await createProject(t, { name: 'hooked', creatorId: owner.user.id });
    await upsertProjectMembers(t.database.db, project.id, [
      { userId: owner.user.id, role: 'owner' },
      { userId: writer.user.id, role: 'writer' },
    ]);
  });

  afterAll(async () => {
    await receiver?.close();
    await t?.close();
  });

  beforeEach(() => {
    receiver.answer = () => 204;
  });

  async function projectHook(events: string[], client = owner.client): Promise<Webhook> {
    const response = await client.post(`/app/project/webhooks/${NS}/${project.name}`, {
      url: receiver.url,
      events,
      secret: TEST_SECRET,
      description: `hook ${++counter}`,
    });
    expect(response.statusCode, response.body).toBe(201);
    return response.json();
  }

  async function deliveries(id: number): Promise<WebhookDeliveryList['deliveries']> {
    const response = await owner.client.get(`/app/webhooks/${id}/deliveries`);
    expect(response.statusCode, response.body).toBe(200);
    return (response.json() as WebhookDeliveryList).deliveries;
  }

  /** Sends what is due and waits until `count` messages of `type` arrived. */
  async function received(type: string, count = 1) {
    await t.app.webhooks.runOnce();
    const of = () => receiver.messages.filter((m) => m.payload?.type === type);
    await receiver.waitFor(() => of().length >= count, 30_000, type);
    return of();
  }

  it('lets project owners and workspace admins manage webhooks; others are refused', async () => {
    const hook = await projectHook(['version.created']);
    expect(hook).toMatchObject({
      scope: 'project',
      url: receiver.url,
      events: ['version.created'],
      active: true,
      secret: TEST_SECRET,
      created_by: 'olive',
      last_status: null,
    });
    const refused = await writer.client.post(`/app/project/webhooks/${NS}/${project.name}`, {
      url: receiver.url,
      events: ['version.created'],
    });
    expect(refused.statusCode).toBe(403);
    // Someone else's webhook does not exist for them.
    expect((await writer.client.get(`/app/webhooks/${hook.id}/deliveries`)).statusCode).toBe(404);
    expect(
      (
        await writer.client.request('PATCH', `/app/webhooks/${hook.id}`, {
          json: { active: false },
        })
      ).statusCode,
    ).toBe(404);

    const workspace = await admin.post(`/app/workspaces/${t.setup.workspaceId}/webhooks`, {
      url: receiver.url,
      events: ['member.changed'],
    });
    expect(workspace.statusCode, workspace.body).toBe(201);
    expect(workspace.json().secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(
      (await owner.client.get(`/app/workspaces/${t.setup.workspaceId}/webhooks`)).statusCode,
    ).toBe(403);

    // Bad input: a clear 400.
    for (const body of [
      { url: 'ftp://example.org/x', events: ['version.created'] },
      { url: 'not a url', events: ['version.created'] },
    ]) {
      const bad = await owner.client.post(`/app/project/webhooks/${NS}/${project.name}`, body);
      expect(bad.statusCode).toBe(400);
      expect(bad.json().detail).toBe(WEBHOOK_URL_INVALID);
    }
    for (const body of [
      { url: receiver.url, events: [] },
      { url: receiver.url, events: ['nothing.happened'] },
      { url: receiver.url, events: ['version.created'], secret: 'plain' },
    ]) {
      const bad = await owner.client.post(`/app/project/webhooks/${NS}/${project.name}`, body);
      expect(bad.statusCode).toBe(400);
    }
    await owner.client.delete(`/app/webhooks/${hook.id}`);
    await admin.delete(`/app/webhooks/${workspace.json().id}`);
  });

  it('sends a signed version.created when a version is pushed, and logs it', async () => {
    const hook = await projectHook(['version.created']);
    const files = plan({ 'notes.txt': 'first survey' });
    const started = await startPush(writer.client, `${NS}/${project.name}`, 'v0', {
      added: files.list,
    });
    expect(started.statusCode, started.body).toBe(200);
    const { transaction } = started.json() as { transaction: string };
    for (const [id, bytes] of files.chunks) {
      expect((await sendChunk(writer.client, transaction, id, bytes)).statusCode).toBe(200);
    }
    expect((await finishPush(writer.client, transaction)).statusCode).toBe(200);

    const [message] = await received('version.created');
    expect(message!.verified, message!.verifyError ?? '').toBe(true);
    expect(message!.headers['content-type']).toBe('application/json');
    expect(message!.id).toMatch(/^msg_/);
    expect(message!.payload!.data).toMatchObject({
      project: { id: project.id, namespace: NS, name: project.name },
      actor: 'walter',
      version: 'v1',
      changes: { added: 1, updated: 0, removed: 0 },
    });
    const log = await deliveries(hook.id);
    expect(log).toHaveLength(1);
    expect(log[0]).toMatchObject({
      id: message!.id,
      event: 'version.created',
      status: 'delivered',
      attempts: 1,
      response_code: 204,
      error: null,
    });
    expect(log[0]!.last_attempt_at).not.toBeNull();
    await owner.client.delete(`/app/webhooks/${hook.id}`);
  });

  it("'Send test event' sends one signed webhook.test", async () => {
    const hook = await projectHook(['project.deleted']);
    const sent = await owner.client.post(`/app/webhooks/${hook.id}/test`);
    expect(sent.statusCode, sent.body).toBe(202);
    expect(sent.json()).toMatchObject({ event: 'webhook.test', status: 'pending' });
    const messages = await received('webhook.test');
    const mine = messages.filter((m) => m.id === sent.json().id);
    expect(mine).toHaveLength(1);
    expect(mine[0]!.verified).toBe(true);
    expect(mine[0]!.payload!.data).toMatchObject({ webhook: { id: hook.id }, sent_by: 'olive' });
    await owner.client.delete(`/app/webhooks/${hook.id}`);
  });

  it('retries a failed message after the backoff, with the answer logged', async () => {
    const hook = await projectHook(['version.created']);
    receiver.answer = () => 500;
    const before = receiver.messages.length;
    await commit(t, project.id, { added: { [`retry-${++counter}.txt`]: 'x' } });
    await t.app.webhooks.runOnce();
    await receiver.waitFor(() => receiver.messages.length > before);
    let [entry] = await deliveries(hook.id);
    expect(entry).toMatchObject({ status: 'pending', attempts: 1, response_code: 500 });
    expect(entry!.error).toBe('Answered 500');
    expect(new Date(entry!.next_attempt_at!).getTime() - t.clock.now().getTime()).toBe(
      RETRY_DELAYS_MS[0],
    );

    // Not due yet: nothing is sent.
    expect(await t.app.webhooks.runOnce()).toBe(0);
    receiver.answer = () => 200;
    t.clock.advance(RETRY_DELAYS_MS[0]!);
    expect(await t.app.webhooks.runOnce()).toBe(1);
    [entry] = await deliveries(hook.id);
    expect(entry).toMatchObject({ status: 'delivered', attempts: 2, response_code: 200 });
    const copies = receiver.messages.filter((m) => m.id === entry!.id);
    expect(copies.map((m) => m.answered)).toEqual([500, 200]);
    expect(copies.every((m) => m.verified)).toBe(true);
    await owner.client.delete(`/app/webhooks/${hook.id}`);
  });

  it('reports a push that failed on the server side as upload.failed, signed', async () => {
    const hook = await projectHook(['upload.failed']);
    const files = plan({ [`lost-${++counter}.txt`]: 'the server could not store this' });
    const version = `v${(await t.database.db.select().from(projects).where(eq(projects.id, project.id)))[0]!.latestVersion}`;
    const started = await startPush(writer.client, `${NS}/${project.name}`, version, {
      added: files.list,
    });
    expect(started.statusCode, started.body).toBe(200);
    const { transaction } = started.json() as { transaction: string };
    for (const [id, bytes] of files.chunks) {
      expect((await sendChunk(writer.client, transaction, id, bytes)).statusCode).toBe(200);
    }
    // The blob store fails while the finish stores the file (a full or broken disk).
    const store = t.app.ctx.blobStore;
    const failure = new Error('EIO: the disk went away');
    const spies = [
      vi.spyOn(store, 'put').mockRejectedValue(failure),
      vi.spyOn(store, 'adopt').mockRejectedValue(failure),
    ];
    let finished;
    try {
      finished = await finishPush(writer.client, transaction);
    } finally {
      for (const spy of spies) spy.mockRestore();
    }
    expect(finished.statusCode, finished.body).toBeGreaterThanOrEqual(500);

    const [message] = await received('upload.failed');
    expect(message!.verified, message!.verifyError ?? '').toBe(true);
    expect(message!.payload!.data).toMatchObject({
      project: { id: project.id, namespace: NS, name: project.name },
      actor: 'walter',
      base_version: version,
      files: [files.list[0]!.path],
      error: 'The server could not store the upload; the client may retry it',
    });
    const log = await deliveries(hook.id);
    expect(log.map((d) => [d.event, d.status])).toEqual([['upload.failed', 'delivered']]);

    // A push refused for what the client sent (a 4xx) is no server failure: nothing is sent.
    const refused = await startPush(writer.client, `${NS}/${project.name}`, 'v999', {
      added: files.list,
    });
    expect(refused.statusCode).toBeGreaterThanOrEqual(400);
    expect(refused.statusCode).toBeLessThan(500);
    await t.app.webhooks.runOnce();
    expect(await deliveries(hook.id)).toHaveLength(1);
    await owner.client.delete(`/app/webhooks/${hook.id}`);
  });

  it('reports member changes, conflicts and a deleted project', async () => {
    const hook = await projectHook(['member.changed', 'conflict.recorded', 'project.deleted']);
    const workspaceHook = await admin.post(`/app/workspaces/${t.setup.workspaceId}/webhooks`, {
      url: receiver.url,
      events: ['member.changed', 'project.deleted'],
      secret: TEST_SECRET,
    });
    expect(workspaceHook.statusCode).toBe(201);

    // A project member's role changed (v2 collaborators): the project's and the workspace's
    // webhooks each get it, with one message id.
    const changed = await owner.client.request(
      'PATCH',
      `/v2/projects/${project.id}/collaborators/${writer.user.id}`,
      { json: { role: 'reader' } },
    );
    expect(changed.statusCode, changed.body).toBe(200);
    const members = await received('member.changed', 2);
    expect(new Set(members.map((m) => m.id)).size).toBe(1);
    expect(members.every((m) => m.verified)).toBe(true);
    expect(members[0]!.payload!.data).toMatchObject({
      change: 'role_changed',
      user: { username: 'walter' },
      role: 'reader',
      actor: 'olive',
    });

    // A workspace role changed: the workspace's webhook only.
    const role = await admin.request(
      'PATCH',
      `/v2/workspaces/${t.setup.workspaceId}/members/${writer.user.id}`,
      { json: { workspace_role: 'reader' } },
    );
    expect(role.statusCode, role.body).toBe(200);
    const all = await received('member.changed', 3);
    expect(all[2]!.verified, all[2]!.verifyError ?? '').toBe(true);
    expect(all[2]!.payload!.data).toMatchObject({
      workspace: { id: t.setup.workspaceId },
      change: 'role_changed',
      role: 'reader',
      previous_role: 'writer',
    });

    // A conflicted copy pushed.
    await commit(t, project.id, {
      added: { [`data (conflicted copy, walter v1).txt`]: 'theirs' },
    });
    const [conflict] = await received('conflict.recorded');
    expect(conflict!.verified, conflict!.verifyError ?? '').toBe(true);
    expect(conflict!.payload!.data).toMatchObject({
      files: ['data (conflicted copy, walter v1).txt'],
    });

    // The project deleted: both webhooks get it, though the project's own goes with it.
    const removed = await owner.client.delete(`/v1/project/${NS}/${project.name}`);
    expect(removed.statusCode, removed.body).toBeLessThan(300);
    const deleted = await received('project.deleted', 2);
    expect(deleted.every((m) => m.verified)).toBe(true);
    expect(deleted[0]!.payload!.data).toMatchObject({
      project: { id: project.id, name: project.name },
    });
    await admin.delete(`/app/webhooks/${workspaceHook.json().id}`);
    void hook;
  });
});

describe('private addresses', () => {
  let t: TestApp;
  let receiver: WebhookReceiver;
  let admin: TestClient;

  beforeAll(async () => {
    t = await createTestApp();
    receiver = await startReceiver(TEST_SECRET);
    admin = t.client();
    await admin.login('admin', 'Admin-Password-1');
  });

  afterAll(async () => {
    await receiver?.close();
    await t?.close();
  });

  it('refuses loopback, private and link-local addresses, by IP or by name', async () => {
    for (const url of [
      receiver.url,
      'http://localhost:8080/hook',
      'http://10.0.0.7/hook',
      'http://192.168.1.10/hook',
      'http://169.254.169.254/latest/meta-data',
      'http://[::1]:8080/hook',
      'http://[fd12::1]/hook',
    ]) {
      const response = await admin.post(`/app/workspaces/${t.setup.workspaceId}/webhooks`, {
        url,
        events: ['version.created'],
      });
      expect(response.statusCode, url).toBe(400);
      expect(response.json().detail, url).toBe(WEBHOOK_PRIVATE_ADDRESS);
    }
    const publicHook = await admin.post(`/app/workspaces/${t.setup.workspaceId}/webhooks`, {
      url: 'https://93.184.215.14/hook',
      events: ['version.created'],
    });
    expect(publicHook.statusCode).toBe(201);
  });

  it('refuses at delivery a name that resolves to a private address (DNS rebinding)', async () => {
    // Saved while allowed or while the name pointed elsewhere: now `localhost` is loopback.
    const hook = await insertWebhook(t.database.db, {
      scope: { workspaceId: t.setup.workspaceId },
      url: `http://localhost:${receiver.port}/hooks`,
      secret: TEST_SECRET,
      events: ['version.created'],
      description: '',
      createdBy: 1,
      createdAt: t.clock.now(),
    });
    const sent = await admin.post(`/app/webhooks/${hook.id}/test`);
    expect(sent.statusCode).toBe(202);
    expect(await t.app.webhooks.runOnce()).toBe(1);
    const [row] = await t.database.db
      .select()
      .from(webhookDeliveries)
      .where(eq(webhookDeliveries.webhookId, hook.id));
    expect(row).toMatchObject({ status: 'pending', attempts: 1, responseCode: null });
    expect(row!.lastError).toMatch(/loopback, private or link-local/);
    expect(receiver.messages).toHaveLength(0);
  });
});

describe.runIf(testDatabaseKind() === 'postgres')('two instances on PostgreSQL', () => {
  let t: TestApp;
  let b: Instance;
  let receiver: WebhookReceiver;

  beforeAll(async () => {
    t = await createTestApp({ env: { WEBHOOK_ALLOW_PRIVATE: 'true' } });
    b = await startInstance(t);
    receiver = await startReceiver(TEST_SECRET);
  });

  afterAll(async () => {
    await receiver?.close();
    await b?.close();
    await t?.close();
  });

  it('send each message once', async () => {
    const project = await createProject(t, { name: 'twice' });
    await insertWebhook(t.database.db, {
      scope: { projectId: project.id },
      url: receiver.url,
      secret: TEST_SECRET,
      events: ['version.created'],
      description: '',
      createdBy: 1,
      createdAt: t.clock.now(),
    });
    const COUNT = 40;
    for (let i = 0; i < COUNT; i++) {
      await commit(t, project.id, { added: { [`f${i}.txt`]: String(i) } });
    }
    // Both instances drain the queue at the same time, as their pollers would.
    const [onA, onB] = await Promise.all([t.app.webhooks.runOnce(), b.app.webhooks.runOnce()]);
    expect(onA + onB).toBe(COUNT);
    await receiver.waitFor(() => receiver.messages.length >= COUNT);
    const ids = receiver.messages.map((m) => m.id);
    expect(new Set(ids).size).toBe(COUNT);
    expect(ids).toHaveLength(COUNT);
    expect(receiver.messages.every((m) => m.verified)).toBe(true);
    const versions = receiver.messages.map((m) => m.payload!.data.version).sort();
    expect(new Set(versions).size).toBe(COUNT);
    const rows = await t.database.db.select().from(webhookDeliveries);
    expect(rows.every((row) => row.status === 'delivered' && row.attempts === 1)).toBe(true);
  });
});
