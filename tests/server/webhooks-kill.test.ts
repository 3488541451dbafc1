/**
 * A real server process (main.ts) killed with SIGKILL between an event and its delivery:
 * the message is in the database with the event, so the next server sends it, once. The
 * receiver holds the first attempt unanswered until the kill (the worst moment: the message
 * left, no answer came back); the restarted server takes it again when the dead one's lease
 * runs out, with the same `webhook-id`, and it is acknowledged exactly once.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WebhookDeliveryList } from '../../server/src/schemas/webhooks';
import { LEASE_MS } from '../../server/src/services/webhooks/dispatcher';
import { freePort, REPO_ROOT } from './support/processes';
import { createTestDataDir, type TestDataDir } from './support/test-db';
import { startReceiver, TEST_SECRET, type WebhookReceiver } from './support/webhook-receiver';

const ADMIN_PASSWORD = 'Admin-Password-1';
/** Two server starts and a lease to run out: slow on a busy machine. */
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
  if (child && child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  await receiver?.close();
  await data?.cleanup();
});

/** Starts main.ts and resolves once it listens. */
function startChild(): Promise<ChildProcess> {
  return new Promise((resolve, reject) => {
    // Node itself (not the tsx wrapper), so SIGKILL reaches the server.
    const proc = spawn(
      process.execPath,
      ['--import', 'tsx', path.join(REPO_ROOT, 'server/src/main.ts')],
      {
        cwd: REPO_ROOT,
        env: {
          PATH: process.env.PATH ?? '/usr/bin:/bin',
          HOME: process.env.HOME ?? '/tmp',
          ...env,
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let output = '';
    proc.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('Waymark is running')) resolve(proc);
    });
    proc.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    proc.on('exit', (code, signal) => {
      if (!output.includes('Waymark is running')) {
        reject(new Error(`The server exited (${code ?? signal}): ${output}`));
      }
    });
  });
}

/** A signed-in cookie session over real HTTP. */
async function session(base: string) {
  const cookies = new Map<string, string>();
  let csrf: string | null = null;
  const request = async (method: string, url: string, body?: object) => {
    const headers: Record<string, string> = {};
    if (cookies.size > 0) headers.cookie = [...cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    if (csrf) headers['x-csrf-token'] = csrf;
    if (body) headers['content-type'] = 'application/json';
    const response = await fetch(`${base}${url}`, {
      method,
      headers,
      body: body ? JSON.stringify(body) : undefined,
    });
    for (const cookie of response.headers.getSetCookie()) {
      const [pair] = cookie.split(';');
      const at = pair!.indexOf('=');
      cookies.set(pair!.slice(0, at), pair!.slice(at + 1));
    }
    csrf = response.headers.get('x-csrf-token') ?? csrf;
    return response;
  };
  expect((await request('GET', '/app/init')).status).toBe(200);
  const login = await request('POST', '/app/auth/login', {
    login: 'admin',
    password: ADMIN_PASSWORD,
  });
  expect(login.status).toBe(200);
  return request;
}

describe('a server killed between an event and its delivery', () => {
  it(
    'delivers the message once after a restart',
    async () => {
      const base = `http://127.0.0.1:${env.PORT}`;
      child = await startChild();
      let request = await session(base);
      const workspaces = (await (await request('GET', '/v1/workspaces')).json()) as {
        id: number;
      }[];
      const created = await request('POST', `/app/workspaces/${workspaces[0]!.id}/webhooks`, {
        url: receiver.url,
        events: ['project.deleted'],
        secret: TEST_SECRET,
      });
      expect(created.status, await created.clone().text()).toBe(201);
      const hook = (await created.json()) as { id: number };

      // The first attempt arrives and is held unanswered; the server dies meanwhile.
      receiver.answer = () => 'hold';
      const sent = await request('POST', `/app/webhooks/${hook.id}/test`);
      expect(sent.status).toBe(202);
      const { id: messageId } = (await sent.json()) as { id: string };
      await receiver.waitFor(() => receiver.messages.length === 1, 60_000, 'the first attempt');
      expect(receiver.messages[0]!.id).toBe(messageId);
      const exited = new Promise((resolve) => child!.once('exit', resolve));
      child.kill('SIGKILL');
      await exited;
      receiver.release();
      expect(receiver.acknowledged()).toHaveLength(0);

      // A new server takes the message once the dead one's lease has run out.
      receiver.answer = () => 204;
      const restartedAt = Date.now();
      child = await startChild();
      request = await session(base);
      await receiver.waitFor(
        () => receiver.acknowledged().length === 1,
        LEASE_MS + 60_000,
        'the delivery after the restart',
      );
      const acknowledged = receiver.acknowledged();
      expect(acknowledged[0]!.id).toBe(messageId);
      expect(acknowledged[0]!.verified, acknowledged[0]!.verifyError ?? '').toBe(true);
      expect(Date.now() - restartedAt).toBeLessThan(LEASE_MS + 60_000);

      // Logged as delivered on the second attempt; no further copy was sent.
      const log = (await (
        await request('GET', `/app/webhooks/${hook.id}/deliveries`)
      ).json()) as WebhookDeliveryList;
      expect(log.deliveries).toHaveLength(1);
      expect(log.deliveries[0]).toMatchObject({
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
