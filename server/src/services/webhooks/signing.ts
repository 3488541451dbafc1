/**
 * Standard Webhooks signing (https://www.standardwebhooks.com): the message id, the Unix time
 * in seconds and the body, joined by dots, are signed with HMAC-SHA256 under the secret's
 * bytes (the base64 after `whsec_`); `webhook-signature` is `v1,<base64 signature>`.
 */
import { createHmac, randomBytes } from 'node:crypto';

const SECRET_PREFIX = 'whsec_';
/** Bytes of a generated secret (Standard Webhooks: 24 to 64). */
const SECRET_BYTES = 32;

export function generateWebhookSecret(): string {
  return `${SECRET_PREFIX}${randomBytes(SECRET_BYTES).toString('base64')}`;
}

/** A message id: `msg_` and 26 characters of base64url. */
export function newMessageId(): string {
  return `msg_${randomBytes(20).toString('base64url').slice(0, 26)}`;
}

function secretBytes(secret: string): Buffer {
  return Buffer.from(
    secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret,
    'base64',
  );
}

export function webhookSignature(
  secret: string,
  messageId: string,
  timestamp: number,
  body: string,
): string {
  const mac = createHmac('sha256', secretBytes(secret))
    .update(`${messageId}.${timestamp}.${body}`)
    .digest('base64');
  return `v1,${mac}`;
}

/** The three headers of a message sent at `at`. */
export function webhookHeaders(
  secret: string,
  messageId: string,
  at: Date,
  body: string,
): Record<string, string> {
  const timestamp = Math.floor(at.getTime() / 1000);
  return {
    'webhook-id': messageId,
    'webhook-timestamp': String(timestamp),
    'webhook-signature': webhookSignature(secret, messageId, timestamp, body),
  };
}
