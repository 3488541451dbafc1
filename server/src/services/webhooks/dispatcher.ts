/**
 * Sends the queued messages (db/queries/webhooks.ts): every instance polls the queue and
 * claims due messages with a lease under FOR UPDATE SKIP LOCKED, so each message is sent by
 * one instance; one whose instance died mid-send is taken again when its lease runs out.
 * A failed attempt (no 2xx answer) is retried after RETRY_DELAYS_MS, for a day from the
 * event; then the message is marked failed. The delivery log is the queue itself.
 *
 * buildApp makes one per app (not started: tests call runOnce); main.ts starts polling;
 * services that queue a message call kickWebhooks(ctx) to send it without waiting a poll.
 */
import type { AppContext } from '../../context';
import { claimDueDeliveries, finishAttempt } from '../../db/queries/webhooks';
import type { WebhookDelivery } from '../../db/schema';
import { SERVICE_NAME, VERSION } from '../../version';
import { sendWebhook, SEND_TIMEOUT_MS, type SendResult } from './send';
import { webhookHeaders } from './signing';
import { nextTurn } from '../../lib/next-turn';

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;

/** Waits before the 2nd, 3rd, ... attempt (Standard Webhooks' suggested schedule). */
export const RETRY_DELAYS_MS = [
  5 * SECOND,
  5 * MINUTE,
  30 * MINUTE,
  2 * HOUR,
  5 * HOUR,
  10 * HOUR,
  10 * HOUR,
];
/** A message is retried for this long after its event, then marked failed. */
export const RETRY_FOR_MS = 24 * HOUR;
/** A claimed message is another instance's to take after this (longer than one attempt). */
export const LEASE_MS = SEND_TIMEOUT_MS + 20 * SECOND;
/** Messages claimed at once. */
const BATCH = 10;
/** How often a running server looks for due messages. */
export const WEBHOOK_POLL_MS = 2000;

/** When the next attempt after a failed `attempts`-th one is due; null: give up. */
export function nextAttemptAfter(
  delivery: Pick<WebhookDelivery, 'attempts' | 'createdAt'>,
  now: Date,
): Date | null {
  const giveUpAt = delivery.createdAt.getTime() + RETRY_FOR_MS;
  const delay = RETRY_DELAYS_MS[delivery.attempts - 1];
  if (delay === undefined || now.getTime() >= giveUpAt) return null;
  return new Date(Math.min(now.getTime() + delay, giveUpAt));
}

function errorText(result: SendResult): string | null {
  if ('error' in result) return result.error.slice(0, 500);
  if (result.status >= 200 && result.status < 300) return null;
  return `Answered ${result.status}`;
}

const dispatchers = new WeakMap<AppContext, WebhookDispatcher>();

/** Sends newly queued messages soon (no-op for an app whose dispatcher is not started). */
export function kickWebhooks(ctx: AppContext): void {
  dispatchers.get(ctx)?.kick();
}

export class WebhookDispatcher {
  private timer: NodeJS.Timeout | null = null;
  private current: Promise<number> | null = null;
  private again = false;
  private stopped = false;

  constructor(private readonly ctx: AppContext) {
    dispatchers.set(ctx, this);
  }

  /** Polls every `pollMs` and when kicked. */
  start(pollMs = WEBHOOK_POLL_MS): void {
    if (this.timer) return;
    this.stopped = false;
    this.timer = setInterval(() => this.kick(), pollMs);
    this.timer.unref();
    this.kick();
  }

  kick(): void {
    if (!this.timer || this.stopped) return;
    if (this.current) {
      this.again = true;
      return;
    }
    this.runOnce().catch((error: unknown) => {
      this.ctx.log.error({ err: error }, 'Webhook messages could not be sent');
    });
  }

  /** Sends every due message (claimed here); resolves how many attempts were made. */
  runOnce(): Promise<number> {
    this.current ??= this.drain().finally(() => {
      this.current = null;
      if (this.again && !this.stopped) {
        this.again = false;
        this.kick();
      }
    });
    return this.current;
  }

  private async drain(): Promise<number> {
    await nextTurn();
    let attempts = 0;
    while (!this.stopped) {
      const now = this.ctx.now();
      const claimed = await claimDueDeliveries(
        this.ctx.database.db,
        now,
        new Date(now.getTime() + LEASE_MS),
        BATCH,
      );
      if (claimed.length === 0) break;
      await Promise.all(claimed.map((delivery) => this.attempt(delivery)));
      attempts += claimed.length;
    }
    return attempts;
  }

  private async attempt(delivery: WebhookDelivery): Promise<void> {
    const { ctx } = this;
    const sentAt = ctx.now();
    const result = await sendWebhook(
      delivery.url,
      webhookHeaders(delivery.secret, delivery.messageId, sentAt, delivery.payload),
      delivery.payload,
      {
        allowPrivate: ctx.config.webhookAllowPrivate,
        userAgent: `${SERVICE_NAME}-Webhooks/${VERSION}`,
      },
    );
    const error = errorText(result);
    const at = ctx.now();
    const next = error === null ? null : nextAttemptAfter(delivery, at);
    const recorded = await finishAttempt(ctx.database.db, delivery, {
      status: error === null ? 'delivered' : next ? 'pending' : 'failed',
      at,
      responseCode: 'status' in result ? result.status : null,
      error,
      nextAttemptAt: next ?? at,
    });
    if (!recorded) {
      ctx.log.warn({ message: delivery.messageId }, 'A webhook message outlived its lease');
    } else if (error !== null && !next) {
      ctx.log.warn(
        { message: delivery.messageId, url: delivery.url },
        `Webhook message given up after ${delivery.attempts} attempts: ${error}`,
      );
    }
  }

  /** Stops polling and waits for the running pass. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.current?.catch(() => {});
  }
}
