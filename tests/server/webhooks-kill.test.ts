/**
 * A real server process (main.ts) killed with SIGKILL between an event and its delivery:
 * the message is in the database with the event, so the next server sends it, once. The
 * receiver holds the first attempt unanswered until the kill (the worst moment: the message
 * left, no answer came back); the restarted server takes it again when the dead one's lease
 * has run out, with the same `webhook-id`, and it is acknowledged exactly once. The restarted
 * server's clock runs a lease ahead (tests/clock-offset.mjs): past the lease without waiting
 * 30 s for it.
 */
import type { ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WebhookDeliveryList } from '../../server/src/schemas/webhooks';
import { LEASE_MS } from '../../server/src/services/webhooks/dispatcher';
import { freePort } from './support/processes';
import { HttpSession, isRunning, killServer, startServer } from './support/server-process';
import { createTestDataDir, type TestDataDir } from './support/test-db';
import { startReceiver, TEST_SECRET, type WebhookReceiver } from './support/webhook-receiver';

const ADMIN_PASSWORD = 'Admin-Password-1';
/** Two server starts: slow on a busy machine. */
const KILL_TEST_TIMEOUT_MS = 240_000;

let data: TestDataDir;
let env: Record<string, string>;
let child: ChildProcess | null = null;
let receiver: WebhookReceiver;

beforeAll(async () => {
  data = await createTestDataDir();
  receiver = await startReceiver(TEST_SECRET);
  env = {
    ...data.env,
    ADMIN_PASSWORD,
    HOST: '127.0.0.1',
    PORT: String(await freePort()),
    LOG_LEVEL: 'silent',
    WEBHOOK_ALLOW_PRIVATE: 'true',
  };
});

afterAll(async () => {
  if (isRunning(child)) child.kill('SIGKILL');
  await receiver?.close();
  await data?.cleanup();
});

describe('a server killed between an event and its delivery', () => {
  it(
    'delivers the message once after a restart',
    async () => {
      const base = `http://127.0.0.1:${env.PORT}`;
      child = await startServer(env);
      let http = await new HttpSession(base).signIn('admin', ADMIN_PASSWORD);
      const workspaces = (await (await http.request('GET', '/v1/workspaces')).json()) as {
        id: number;
      }[];
      const created = await http.request('POST', `/app/workspaces/${workspaces[0]!.id}/webhooks`, {
        url: receiver.url,
        events: ['project.deleted'],
        secret: TEST_SECRET,
      });
      expect(created.status, await created.clone().text()).toBe(201);
      const hook = (await created.json()) as { id: number };

      // The first attempt arrives and is held unanswered; the server dies meanwhile.
      receiver.answer = () => 'hold';
      const sent = await http.request('POST', `/app/webhooks/${hook.id}/test`);
      expect(sent.status).toBe(202);
      const { id: messageId } = (await sent.json()) as { id: string };
      await receiver.waitFor(() => receiver.messages.length === 1, 60_000, 'the first attempt');
      expect(receiver.messages[0]!.id).toBe(messageId);
      await killServer(child);
      receiver.release();
      expect(receiver.acknowledged()).toHaveLength(0);

      // A new server takes the message once the dead one's lease has run out: its clock is a
      // lease ahead.
      receiver.answer = () => 204;
      child = await startServer(env, { clockOffsetMs: LEASE_MS });
      http = await new HttpSession(base).signIn('admin', ADMIN_PASSWORD);
      // From when the new server serves (its start may take long on a busy machine).
      const restartedAt = Date.now();
      await receiver.waitFor(
        () => receiver.acknowledged().length === 1,
        LEASE_MS + 60_000,
        'the delivery after the restart',
      );
      const acknowledged = receiver.acknowledged();
      expect(acknowledged[0]!.id).toBe(messageId);
      expect(acknowledged[0]!.verified, acknowledged[0]!.verifyError ?? '').toBe(true);
      expect(Date.now() - restartedAt).toBeLessThan(LEASE_MS + 60_000);

      // Logged as delivered on the second attempt; no further copy was sent. The server writes
      // the outcome after the receiver's answer has reached it, so the log may still show the
      // attempt in flight for a moment.
      const deliveries = async () =>
        (
          (await (
            await http.request('GET', `/app/webhooks/${hook.id}/deliveries`)
          ).json()) as WebhookDeliveryList
        ).deliveries;
      await expect.poll(async () => (await deliveries())[0]?.status).toBe('delivered');
      const logged = await deliveries();
      expect(logged).toHaveLength(1);
      expect(logged[0]).toMatchObject({
        id: messageId,
        status: 'delivered',
        attempts: 2,
        response_code: 204,
      });
      expect(receiver.messages.filter((m) => m.id === messageId)).toHaveLength(2);
      expect(receiver.acknowledged().filter((m) => m.id === messageId)).toHaveLength(1);
    },
    KILL_TEST_TIMEOUT_MS,
  );
});
