/**
 * The events a webhook is sent, and how the screens name them (schemas/webhooks.ts). Plain
 * constants, no TypeBox: the web app imports them at run time
 * (tests/lint/contract-runtime-imports.test.ts).
 */

/** The events a webhook can be sent (the message's `type`). */
export const WEBHOOK_EVENTS = [
  'version.created',
  'conflict.recorded',
  'member.changed',
  'project.deleted',
  'upload.failed',
] as const;
export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number];
/** The type of the message 'Send test event' sends. */
export const WEBHOOK_TEST_EVENT = 'webhook.test';

/** How the screens name the events. */
export const WEBHOOK_EVENT_LABELS: Record<WebhookEvent, string> = {
  'version.created': 'Version created',
  'conflict.recorded': 'Conflict recorded',
  'member.changed': 'Member or role changed',
  'project.deleted': 'Project deleted',
  'upload.failed': 'Upload failed on the server',
};
