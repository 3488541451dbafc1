/** What the webhook screens show (the server's contract: server/src/schemas/webhooks.ts). */
import {
  WEBHOOK_EVENTS,
  WEBHOOK_EVENT_LABELS,
  WEBHOOK_TEST_EVENT,
  type WebhookEvent,
} from '@contract/webhook-events';
import type { WebhookDelivery } from '@contract/webhooks';

/** Whose webhooks: a workspace's (its admins) or a project's (its owners). */
export type WebhookScope =
  { kind: 'workspace'; id: number } | { kind: 'project'; namespace: string; name: string };

/** The events, in the order the form offers them (the server's WEBHOOK_EVENTS). */
export const WEBHOOK_EVENT_OPTIONS: { value: WebhookEvent; label: string }[] = WEBHOOK_EVENTS.map(
  (value) => ({ value, label: WEBHOOK_EVENT_LABELS[value] }),
);

export const WEBHOOKS_TITLE = 'Webhooks';
export const ADD_WEBHOOK = 'Add webhook';
export const SEND_TEST_EVENT = 'Send test event';
export const NO_WEBHOOKS = 'No webhooks yet';
export const NO_DELIVERIES = 'Nothing sent yet';
export const TEST_EVENT_QUEUED = 'Test event queued';

export function eventLabel(event: string): string {
  if (event === WEBHOOK_TEST_EVENT) return 'Test event';
  return WEBHOOK_EVENT_OPTIONS.find((option) => option.value === event)?.label ?? event;
}

export const DELIVERY_STATUS_COLOURS: Record<WebhookDelivery['status'], string> = {
  pending: 'yellow',
  delivered: 'green',
  failed: 'red',
};

/** 'Delivered', 'Failed', 'Retrying' (pending after a failed attempt) or 'Queued'. */
export function deliveryStatusText(delivery: Pick<WebhookDelivery, 'status' | 'attempts'>) {
  if (delivery.status === 'delivered') return 'Delivered';
  if (delivery.status === 'failed') return 'Failed';
  return delivery.attempts > 0 ? 'Retrying' : 'Queued';
}
