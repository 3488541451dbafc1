/**
 * Webhooks of workspaces and projects (issue 33; contract schemas/webhooks.ts, routes
 * routes/webhooks.ts). A workspace's admins manage its webhooks, a project's owners the
 * project's own. Events are queued in the changing transaction (events.ts) and sent by the
 * dispatcher (dispatcher.ts), signed per Standard Webhooks (signing.ts), never to the
 * server's own network unless WEBHOOK_ALLOW_PRIVATE (address-guard.ts).
 */
import type { AppContext } from '../../context';
import {
  countWebhooks,
  deleteWebhook as deleteHook,
  findWebhook,
  insertDeliveries,
  insertWebhook,
  listDeliveries,
  listWebhooks as listHooks,
  retargetPending,
  updateWebhook as updateHook,
  type WebhookRow,
  type WebhookScope,
} from '../../db/queries/webhooks';
import type { User, Webhook, WebhookDelivery } from '../../db/schema';
import { badRequest, notFound } from '../../errors';
import {
  MAX_WEBHOOKS_PER_SCOPE,
  WEBHOOK_NOT_FOUND,
  WEBHOOK_PRIVATE_ADDRESS,
  WEBHOOK_TOO_MANY,
  WEBHOOK_UNRESOLVED,
  WEBHOOK_URL_INVALID,
  type CreateWebhook,
  type UpdateWebhook,
  type Webhook as WebhookView,
  type WebhookDelivery as WebhookDeliveryView,
  type WebhookDeliveryList,
  type WebhookList,
} from '../../schemas/webhooks';
import { WEBHOOK_TEST_EVENT, type WebhookEvent } from '../../schemas/webhook-events';
import { idOf } from '../../lib/validation';
import { managedWorkspace, projectFor, type ProjectRef } from '../permissions';
import { assertPublicHost, PrivateAddressError } from './address-guard';
import { deliveryOf, messageBody } from './events';
import { kickWebhooks } from './dispatcher';
import { generateWebhookSecret, newMessageId } from './signing';

export { queueProjectEvent, queueWorkspaceEvent } from './events';
export { kickWebhooks, WebhookDispatcher } from './dispatcher';

/** Deliveries listed at most (the newest). */
export const MAX_LISTED_DELIVERIES = 100;

/** The webhook `idText` if `caller` manages its workspace or project; 404 otherwise. */
async function managedWebhook(ctx: AppContext, caller: User, idText: string): Promise<Webhook> {
  const id = idOf(idText);
  const hook = id === null ? null : await findWebhook(ctx.database.db, id);
  if (!hook) throw notFound(WEBHOOK_NOT_FOUND);
  try {
    if (hook.workspaceId !== null) await managedWorkspace(ctx, caller, String(hook.workspaceId));
    else await projectFor(ctx, caller, { id: hook.projectId! }, 'update');
  } catch {
    // Someone else's webhook: as if there were none.
    throw notFound(WEBHOOK_NOT_FOUND);
  }
  return hook;
}

/** A webhook address: http(s), no credentials, and (unless allowed) not a private host. */
export async function checkWebhookUrl(ctx: AppContext, text: string): Promise<string> {
  let url: URL;
  try {
    url = new URL(text.trim());
  } catch {
    throw badRequest(WEBHOOK_URL_INVALID);
  }
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || url.username || url.password) {
    throw badRequest(WEBHOOK_URL_INVALID);
  }
  if (!ctx.config.webhookAllowPrivate) {
    try {
      await assertPublicHost(url.hostname);
    } catch (error) {
      if (error instanceof PrivateAddressError) throw badRequest(WEBHOOK_PRIVATE_ADDRESS);
      throw badRequest(WEBHOOK_UNRESOLVED);
    }
  }
  return url.toString();
}

function hookView(row: WebhookRow): WebhookView {
  return {
    id: row.id,
    scope: row.workspaceId !== null ? 'workspace' : 'project',
    url: row.url,
    description: row.description,
    secret: row.secret,
    events: row.events as WebhookEvent[],
    active: row.active,
    created_at: row.createdAt.toISOString(),
    created_by: row.creator,
    last_status: row.lastStatus,
  };
}

function deliveryView(row: WebhookDelivery): WebhookDeliveryView {
  return {
    id: row.messageId,
    event: row.eventType,
    status: row.status as WebhookDeliveryView['status'],
    attempts: row.attempts,
    created_at: row.createdAt.toISOString(),
    last_attempt_at: row.lastAttemptAt?.toISOString() ?? null,
    next_attempt_at: row.status === 'pending' ? row.nextAttemptAt.toISOString() : null,
    response_code: row.responseCode,
    error: row.lastError,
  };
}

async function viewOf(ctx: AppContext, hook: Webhook): Promise<WebhookView> {
  const scope: WebhookScope =
    hook.workspaceId !== null ? { workspaceId: hook.workspaceId } : { projectId: hook.projectId! };
  const rows = await listHooks(ctx.database.db, scope);
  return hookView(rows.find((row) => row.id === hook.id)!);
}

async function create(
  ctx: AppContext,
  caller: User,
  scope: WebhookScope,
  body: CreateWebhook,
): Promise<WebhookView> {
  const url = await checkWebhookUrl(ctx, body.url);
  if ((await countWebhooks(ctx.database.db, scope)) >= MAX_WEBHOOKS_PER_SCOPE) {
    throw badRequest(WEBHOOK_TOO_MANY);
  }
  const hook = await insertWebhook(ctx.database.db, {
    scope,
    url,
    secret: body.secret ?? generateWebhookSecret(),
    events: [...new Set(body.events)],
    description: body.description?.trim() ?? '',
    createdBy: caller.id,
    createdAt: ctx.now(),
  });
  return viewOf(ctx, hook);
}

export async function listWorkspaceWebhooks(
  ctx: AppContext,
  caller: User,
  workspaceId: string,
): Promise<WebhookList> {
  const { workspace } = await managedWorkspace(ctx, caller, workspaceId);
  const rows = await listHooks(ctx.database.db, { workspaceId: workspace.id });
  return { webhooks: rows.map(hookView) };
}

export async function createWorkspaceWebhook(
  ctx: AppContext,
  caller: User,
  workspaceId: string,
  body: CreateWebhook,
): Promise<WebhookView> {
  const { workspace } = await managedWorkspace(ctx, caller, workspaceId);
  return create(ctx, caller, { workspaceId: workspace.id }, body);
}

export async function listProjectWebhooks(
  ctx: AppContext,
  caller: User,
  ref: ProjectRef,
): Promise<WebhookList> {
  const access = await projectFor(ctx, caller, ref, 'update');
  const rows = await listHooks(ctx.database.db, { projectId: access.project.id });
  return { webhooks: rows.map(hookView) };
}

export async function createProjectWebhook(
  ctx: AppContext,
  caller: User,
  ref: ProjectRef,
  body: CreateWebhook,
): Promise<WebhookView> {
  const access = await projectFor(ctx, caller, ref, 'update');
  return create(ctx, caller, { projectId: access.project.id }, body);
}

export async function updateWebhook(
  ctx: AppContext,
  caller: User,
  idText: string,
  body: UpdateWebhook,
): Promise<WebhookView> {
  const hook = await managedWebhook(ctx, caller, idText);
  const url = body.url === undefined ? undefined : await checkWebhookUrl(ctx, body.url);
  const updated = await ctx.database.db.transaction(async (tx) => {
    const row = await updateHook(tx, hook.id, {
      url,
      events: body.events ? [...new Set(body.events)] : undefined,
      description: body.description?.trim(),
      active: body.active,
      secret: body.rotate_secret ? generateWebhookSecret() : undefined,
    });
    if (!row) throw notFound(WEBHOOK_NOT_FOUND);
    if (row.url !== hook.url || row.secret !== hook.secret) {
      await retargetPending(tx, row.id, { url: row.url, secret: row.secret });
    }
    return row;
  });
  return viewOf(ctx, updated);
}

export async function deleteWebhook(ctx: AppContext, caller: User, idText: string): Promise<void> {
  const hook = await managedWebhook(ctx, caller, idText);
  await ctx.database.db.transaction((tx) => deleteHook(tx, hook.id));
}

/** 'Send test event': one `webhook.test` message to this webhook only. */
export async function sendTestEvent(
  ctx: AppContext,
  caller: User,
  idText: string,
): Promise<WebhookDeliveryView> {
  const hook = await managedWebhook(ctx, caller, idText);
  const at = ctx.now();
  const payload = messageBody(WEBHOOK_TEST_EVENT, at, {
    webhook: { id: hook.id },
    sent_by: caller.username,
  });
  const [row] = await insertDeliveries(ctx.database.db, [
    deliveryOf(hook, newMessageId(), WEBHOOK_TEST_EVENT, payload, at),
  ]);
  kickWebhooks(ctx);
  return deliveryView(row!);
}

export async function webhookDeliveries(
  ctx: AppContext,
  caller: User,
  idText: string,
): Promise<WebhookDeliveryList> {
  const hook = await managedWebhook(ctx, caller, idText);
  const rows = await listDeliveries(ctx.database.db, hook.id, MAX_LISTED_DELIVERIES);
  return { deliveries: rows.map(deliveryView) };
}
