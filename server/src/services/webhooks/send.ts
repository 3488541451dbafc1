/**
 * Sends one signed message: a POST of the JSON body with the Standard Webhooks headers,
 * through the address guard (address-guard.ts), within SEND_TIMEOUT_MS, redirects not
 * followed (a 3xx is a failure). Resolves the answer's status, or an error text when none
 * came; never throws.
 */
import type dns from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import { guardedLookup, isPrivateAddress, PrivateAddressError } from './address-guard';

/** How long one attempt may take, connection to the end of the answer. */
export const SEND_TIMEOUT_MS = 10_000;
/** Most bytes of an answer read (the rest is dropped). */
const MAX_ANSWER_BYTES = 64 * 1024;

export type SendResult = { status: number } | { error: string };

export function sendWebhook(
  target: string,
  headers: Record<string, string>,
  body: string,
  options: { allowPrivate: boolean; userAgent: string },
): Promise<SendResult> {
  let url: URL;
  try {
    url = new URL(target);
  } catch {
    return Promise.resolve({ error: 'Invalid address' });
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    return Promise.resolve({ error: 'Invalid address' });
  }
  const literal = url.hostname.replace(/^\[|\]$/g, '');
  if (net.isIP(literal) && !options.allowPrivate && isPrivateAddress(literal)) {
    return Promise.resolve({ error: new PrivateAddressError(literal).message });
  }
  const transport = url.protocol === 'https:' ? https : http;
  return new Promise((resolve) => {
    let settled = false;
    const done = (result: SendResult) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(result);
    };
    const request = transport.request(
      url,
      {
        method: 'POST',
        headers: {
          ...headers,
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(body),
          'user-agent': options.userAgent,
        },
        lookup: guardedLookup(options.allowPrivate) as unknown as typeof dns.lookup,
        agent: false,
      },
      (response) => {
        let read = 0;
        response.on('data', (chunk: Buffer) => {
          read += chunk.length;
          if (read > MAX_ANSWER_BYTES) response.destroy();
        });
        response.on('end', () => done({ status: response.statusCode ?? 0 }));
        response.on('close', () => done({ status: response.statusCode ?? 0 }));
        response.on('error', () => done({ status: response.statusCode ?? 0 }));
      },
    );
    const timer = setTimeout(() => {
      request.destroy(new Error(`No answer within ${SEND_TIMEOUT_MS / 1000} s`));
    }, SEND_TIMEOUT_MS);
    request.on('error', (error) => done({ error: error.message || 'Connection failed' }));
    request.end(body);
  });
}
