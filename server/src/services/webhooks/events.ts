/**
 * Queues webhook messages for an event, in the caller's transaction: the message is in the
 * database exactly when the change it reports is (a crash after the commit still delivers
 * it; a rolled-back change sends nothing). One message id per event, shared by every webhook
 * it goes to: the workspace's webhooks and the project's own, active and subscribed to it.
 */
import type { Executor } from '../../db/database';
import {
  insertDeliveries,
  projectOfEvent,
  webhooksFor,
  type NewDelivery,
} from '../../db/queries/webhooks';
import type { Webhook } from '../../db/schema';
import { findUserById } from '../../db/queries/users';
import type { WebhookEvent } from '../../schemas/webhook-events';
import { newMessageId } from './signing';

async function usernameOf(db: Executor, id: number | null | undefined): Promise<string | null> {
  if (id === null || id === undefined) return null;
  return (await findUserById(db, id))?.username ?? null;
}

/** The JSON body of a message (Standard Webhooks' payload shape). */
export function messageBody(type: string, at: Date, data: Record<string, unknown>): string {
  return JSON.stringify({ type, timestamp: at.toISOString(), data });
}

export function deliveryOf(
  hook: Pick<Webhook, 'id' | 'url' | 'secret'>,
  messageId: string,
  type: string,
  payload: string,
  at: Date,
): NewDelivery {
  return {
    messageId,
    webhookId: hook.id,
    url: hook.url,
    secret: hook.secret,
    eventType: type,
    payload,
    createdAt: at,
  };
}

/** Queues one message (one id) of `event` to each of `hooks`; resolves how many. */
async function queueMessage(
  db: Executor,
  hooks: readonly Pick<Webhook, 'id' | 'url' | 'secret'>[],
  event: { type: WebhookEvent; at: Date },
  payload: string,
): Promise<number> {
  const messageId = newMessageId();
  const rows = await insertDeliveries(
    db,
    hooks.map((hook) => deliveryOf(hook, messageId, event.type, payload, event.at)),
  );
  return rows.length;
}

export interface ProjectEvent {
  type: WebhookEvent;
  projectId: string;
  at: Date;
  /** Who did it (their username is added as `actor`), if anyone. */
  actorId?: number | null;
  /** What happened (the project's id, workspace and name are added). */
  data: Record<string, unknown>;
  /** The project's names when the caller read them in this transaction (else read here). */
  project?: { id: string; name: string; workspaceId: number; workspace: string };
  /**
   * The webhooks the event goes to, when the caller read them in this transaction
   * (db/queries/webhooks.ts projectWebhooksJson, subscribedTo); else read here.
   */
  hooks?: readonly Pick<Webhook, 'id' | 'url' | 'secret'>[];
}

/** Queues `event` of a project; resolves the number of messages queued. */
export async function queueProjectEvent(db: Executor, event: ProjectEvent): Promise<number> {
  const project = event.project ?? (await projectOfEvent(db, event.projectId));
  if (!project) return 0;
  const hooks =
    event.hooks ??
    (await webhooksFor(
      db,
      { workspaceId: project.workspaceId, projectId: project.id },
      event.type,
    ));
  if (hooks.length === 0) return 0;
  const payload = messageBody(event.type, event.at, {
    project: { id: project.id, namespace: project.workspace, name: project.name },
    actor: await usernameOf(db, event.actorId),
    ...event.data,
  });
  return queueMessage(db, hooks, event, payload);
}

export interface WorkspaceEvent {
  type: WebhookEvent;
  workspace: { id: number; name: string };
  at: Date;
  actorId?: number | null;
  data: Record<string, unknown>;
}

/** Queues `event` of a workspace (its webhooks only). */
export async function queueWorkspaceEvent(db: Executor, event: WorkspaceEvent): Promise<number> {
  const hooks = await webhooksFor(
    db,
    { workspaceId: event.workspace.id, projectId: null },
    event.type,
  );
  if (hooks.length === 0) return 0;
  const payload = messageBody(event.type, event.at, {
    workspace: { id: event.workspace.id, name: event.workspace.name },
    actor: await usernameOf(db, event.actorId),
    ...event.data,
  });
  return queueMessage(db, hooks, event, payload);
}
