/**
 * A webhook receiver for tests: an HTTP server on 127.0.0.1 that checks every message with
 * the Standard Webhooks reference library (`standardwebhooks`, the specification's own
 * verifier) and records it. `answer` decides each reply: a status, or 'hold' (no answer
 * until release(), as a receiver mid-request when the sender dies).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';

export interface ReceivedMessage {
  id: string;
  /** The signature checked out (the reference verifier accepted the message). */
  verified: boolean;
  verifyError: string | null;
  headers: http.IncomingHttpHeaders;
  body: string;
  payload: { type: string; timestamp: string; data: Record<string, unknown> } | null;
  /** The status answered; null while held or when the connection closed first. */
  answered: number | null;
}

export type Answer = number | 'hold';

export interface WebhookReceiver {
  url: string;
  port: number;
  messages: ReceivedMessage[];
  /** The messages answered with a 2xx (each is a delivery the sender saw succeed). */
  acknowledged(): ReceivedMessage[];
  answer: (message: ReceivedMessage) => Answer;
  /** Answers every held request with `status`. */
  release(status?: number): void;
  /** Resolves once `predicate` holds (checked on every message), within `timeoutMs`. */
  waitFor(predicate: () => boolean, timeoutMs?: number, what?: string): Promise<void>;
  close(): Promise<void>;
}

export async function startReceiver(secret: string, port = 0): Promise<WebhookReceiver> {
  const verifier = new Webhook(secret);
  const held: { message: ReceivedMessage; response: http.ServerResponse }[] = [];
  const waiters = new Set<() => void>();
  const notify = () => {
    for (const waiter of [...waiters]) waiter();
  };

  const receiver: WebhookReceiver = {
    url: '',
    port: 0,
    messages: [],
    acknowledged: () =>
      receiver.messages.filter((m) => m.answered !== null && m.answered < 300 && m.answered >= 200),
    answer: () => 204,
    release(status = 204) {
      for (const { message, response } of held.splice(0)) {
        if (response.destroyed || response.socket?.destroyed) continue;
        message.answered = status;
        response.writeHead(status).end();
      }
      notify();
    },
    waitFor(predicate, timeoutMs = 30_000, what = 'the webhook messages') {
      if (predicate()) return Promise.resolve();
      return new Promise((resolve, reject) => {
        const check = () => {
          if (!predicate()) return;
          clearTimeout(timer);
          waiters.delete(check);
          resolve();
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`Timed out waiting for ${what}; received ${receiver.messages.length}`));
        }, timeoutMs);
        waiters.add(check);
      });
    },
    close: () =>
      new Promise((resolve) => {
        receiver.release(503);
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };

  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const headers = request.headers;
      const message: ReceivedMessage = {
        id: String(headers['webhook-id'] ?? ''),
        verified: false,
        verifyError: null,
        headers,
        body,
        payload: null,
        answered: null,
      };
      try {
        message.payload = verifier.verify(body, {
          'webhook-id': String(headers['webhook-id'] ?? ''),
          'webhook-timestamp': String(headers['webhook-timestamp'] ?? ''),
          'webhook-signature': String(headers['webhook-signature'] ?? ''),
        }) as ReceivedMessage['payload'];
        message.verified = true;
      } catch (error) {
        message.verifyError = (error as Error).message;
      }
      receiver.messages.push(message);
      const answer = receiver.answer(message);
      if (answer === 'hold') {
        held.push({ message, response });
      } else {
        message.answered = answer;
        response.writeHead(answer).end();
      }
      notify();
    });
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  receiver.port = (server.address() as AddressInfo).port;
  receiver.url = `http://127.0.0.1:${receiver.port}/hooks`;
  return receiver;
}

/** A fixed secret for tests: `whsec_` and 32 bytes. */
export const TEST_SECRET = `whsec_${Buffer.alloc(32, 7).toString('base64')}`;
