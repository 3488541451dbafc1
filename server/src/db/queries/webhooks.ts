/** Queries of webhooks and their delivery queue (schema.ts webhooks, webhookDeliveries). */
import { and, arrayContains, desc, eq, inArray, isNull, or, sql, type SQL } from 'drizzle-orm';
import type { Executor } from '../database';
import {
  projects,
  users,
  webhookDeliveries,
  webhooks,
  workspaces,
  type Webhook,
  type WebhookDelivery,
} from '../schema';

export interface WebhookRow extends Webhook {
  creator: string | null;
  lastStatus: string | null;
}

export type WebhookScope = { workspaceId: number } | { projectId: string };

export async function insertWebhook(
  db: Executor,
  values: {
    scope: WebhookScope;
    url: string;
    secret: string;
    events: string[];
    description: string;
    createdBy: number;
    createdAt: Date;
  },
): Promise<Webhook> {
  const { scope, ...rest } = values;
  const [row] = await db
    .insert(webhooks)
    .values({
      ...rest,
      workspaceId: 'workspaceId' in scope ? scope.workspaceId : null,
      projectId: 'projectId' in scope ? scope.projectId : null,
    })
    .returning();
  return row!;
}

export async function findWebhook(db: Executor, id: number): Promise<Webhook | null> {
  const [row] = await db.select().from(webhooks).where(eq(webhooks.id, id));
  return row ?? null;
}

export async function countWebhooks(db: Executor, scope: WebhookScope): Promise<number> {
  const [row] = await db
    .select({ count: sql<number>`count(*)`.mapWith(Number) })
    .from(webhooks)
    .where(
      'workspaceId' in scope
        ? eq(webhooks.workspaceId, scope.workspaceId)
        : eq(webhooks.projectId, scope.projectId),
    );
  return row?.count ?? 0;
}

/** The webhooks of a workspace or project, oldest first, with the latest delivery's status. */
export async function listWebhooks(db: Executor, scope: WebhookScope): Promise<WebhookRow[]> {
  const last = sql<string | null>`(
    SELECT d.status FROM ${webhookDeliveries} d WHERE d.webhook_id = ${webhooks.id}
    ORDER BY d.created_at DESC, d.id DESC LIMIT 1)`;
  const rows = await db
    .select({ hook: webhooks, creator: users.username, lastStatus: last })
    .from(webhooks)
    .leftJoin(users, eq(users.id, webhooks.createdBy))
    .where(
      'workspaceId' in scope
        ? eq(webhooks.workspaceId, scope.workspaceId)
        : eq(webhooks.projectId, scope.projectId),
    )
    .orderBy(webhooks.id);
  return rows.map((row) => ({ ...row.hook, creator: row.creator, lastStatus: row.lastStatus }));
}

export async function updateWebhook(
  db: Executor,
  id: number,
  values: Partial<Pick<Webhook, 'url' | 'events' | 'description' | 'active' | 'secret'>>,
): Promise<Webhook | null> {
  const [row] = await db.update(webhooks).set(values).where(eq(webhooks.id, id)).returning();
  return row ?? null;
}

/** Deletes a webhook and its messages not yet delivered. */
export async function deleteWebhook(db: Executor, id: number): Promise<void> {
  await db
    .delete(webhookDeliveries)
    .where(and(eq(webhookDeliveries.webhookId, id), eq(webhookDeliveries.status, 'pending')));
  await db.delete(webhooks).where(eq(webhooks.id, id));
}

/**
 * The active webhooks an event of the project (or, with no project, of the workspace)
 * goes to: the workspace's and the project's own, subscribed to `event`.
 */
export async function webhooksFor(
  db: Executor,
  target: { workspaceId: number; projectId: string | null },
  event: string,
): Promise<Webhook[]> {
  const scope =
    target.projectId === null
      ? eq(webhooks.workspaceId, target.workspaceId)
      : or(eq(webhooks.workspaceId, target.workspaceId), eq(webhooks.projectId, target.projectId));
  return db
    .select()
    .from(webhooks)
    .where(and(eq(webhooks.active, true), scope, arrayContains(webhooks.events, [event])));
}

/** A webhook as a commit reads it with its project row (projectWebhooksJson). */
export type EventWebhook = Pick<Webhook, 'id' | 'url' | 'secret' | 'events'>;

/**
 * A subquery (inside a statement on the project row `project`, its workspace id
 * `workspaceId`): the active webhooks of the project and its workspace subscribed to any of
 * `events`, as a JSON array of EventWebhook (read them with eventWebhooksOf), in id order.
 */
export function projectWebhooksJson(project: SQL, workspaceId: SQL, events: string[]): SQL {
  return sql`(SELECT coalesce(jsonb_agg(jsonb_build_object('id', h.id, 'url', h.url,
      'secret', h.secret, 'events', h.events) ORDER BY h.id), '[]'::jsonb)
    FROM ${webhooks} h
    WHERE h.active AND (h.workspace_id = ${workspaceId} OR h.project_id = ${project})
      AND h.events && ARRAY(SELECT jsonb_array_elements_text(${JSON.stringify(events)}::jsonb)))`;
}

/** The webhooks of projectWebhooksJson's answer (text on node-postgres' older types). */
export function eventWebhooksOf(value: unknown): EventWebhook[] {
  const list = (typeof value === 'string' ? JSON.parse(value) : (value ?? [])) as EventWebhook[];
  return list.map((h) => ({ id: Number(h.id), url: h.url, secret: h.secret, events: h.events }));
}

/** Those of `hooks` subscribed to `event`. */
export function subscribedTo<T extends Pick<Webhook, 'events'>>(hooks: T[], event: string): T[] {
  return hooks.filter((hook) => hook.events.includes(event));
}

/** A project's id, name and workspace (removed projects too), or null. */
export async function projectOfEvent(
  db: Executor,
  projectId: string,
): Promise<{ id: string; name: string; workspaceId: number; workspace: string } | null> {
  const [row] = await db
    .select({
      id: projects.id,
      name: projects.name,
      workspaceId: projects.workspaceId,
      workspace: workspaces.name,
    })
    .from(projects)
    .innerJoin(workspaces, eq(workspaces.id, projects.workspaceId))
    .where(eq(projects.id, projectId));
  return row ?? null;
}

/** Moves a webhook's undelivered messages to its new address or secret. */
export async function retargetPending(
  db: Executor,
  webhookId: number,
  values: { url: string; secret: string },
): Promise<void> {
  await db
    .update(webhookDeliveries)
    .set(values)
    .where(
      and(eq(webhookDeliveries.webhookId, webhookId), eq(webhookDeliveries.status, 'pending')),
    );
}

export type NewDelivery = Pick<
  WebhookDelivery,
  'messageId' | 'webhookId' | 'url' | 'secret' | 'eventType' | 'payload' | 'createdAt'
>;

export async function insertDeliveries(
  db: Executor,
  rows: NewDelivery[],
): Promise<WebhookDelivery[]> {
  if (rows.length === 0) return [];
  return db
    .insert(webhookDeliveries)
    .values(rows.map((row) => ({ ...row, nextAttemptAt: row.createdAt })))
    .returning();
}

/**
 * Claims up to `limit` due messages for `leaseMs`: each is taken by one caller at a time
 * (FOR UPDATE SKIP LOCKED passes over rows another instance is claiming; the lease keeps
 * them while they are being sent), and counts an attempt.
 */
export async function claimDueDeliveries(
  db: Executor,
  now: Date,
  leaseUntil: Date,
  limit: number,
): Promise<WebhookDelivery[]> {
  const at = now.toISOString();
  const result = await db.execute(sql`
    UPDATE webhook_deliveries
    SET leased_until = ${leaseUntil.toISOString()}::timestamptz, attempts = attempts + 1
    WHERE id IN (
      SELECT id FROM webhook_deliveries
      WHERE status = 'pending' AND next_attempt_at <= ${at}::timestamptz
        AND (leased_until IS NULL OR leased_until <= ${at}::timestamptz)
      ORDER BY next_attempt_at, id
      LIMIT ${limit}
      FOR UPDATE SKIP LOCKED)
    RETURNING id`);
  const ids = (result as unknown as { rows: { id: string | number }[] }).rows.map((row) =>
    Number(row.id),
  );
  if (ids.length === 0) return [];
  return db
    .select()
    .from(webhookDeliveries)
    .where(inArray(webhookDeliveries.id, ids))
    .orderBy(webhookDeliveries.nextAttemptAt, webhookDeliveries.id);
}

/** Records an attempt's outcome, if the lease is still ours; false when it was taken over. */
export async function finishAttempt(
  db: Executor,
  delivery: Pick<WebhookDelivery, 'id' | 'leasedUntil'>,
  outcome: {
    status: 'pending' | 'delivered' | 'failed';
    at: Date;
    responseCode: number | null;
    error: string | null;
    nextAttemptAt: Date;
  },
): Promise<boolean> {
  const rows = await db
    .update(webhookDeliveries)
    .set({
      status: outcome.status,
      lastAttemptAt: outcome.at,
      responseCode: outcome.responseCode,
      lastError: outcome.error,
      nextAttemptAt: outcome.nextAttemptAt,
      deliveredAt: outcome.status === 'delivered' ? outcome.at : null,
      leasedUntil: null,
    })
    .where(
      and(
        eq(webhookDeliveries.id, delivery.id),
        delivery.leasedUntil
          ? eq(webhookDeliveries.leasedUntil, delivery.leasedUntil)
          : isNull(webhookDeliveries.leasedUntil),
      ),
    )
    .returning({ id: webhookDeliveries.id });
  return rows.length > 0;
}

/** A webhook's latest messages, newest first. */
export async function listDeliveries(
  db: Executor,
  webhookId: number,
  limit: number,
): Promise<WebhookDelivery[]> {
  return db
    .select()
    .from(webhookDeliveries)
    .where(eq(webhookDeliveries.webhookId, webhookId))
    .orderBy(desc(webhookDeliveries.createdAt), desc(webhookDeliveries.id))
    .limit(limit);
}

/** Delivered and failed messages older than `before` (the log's retention). */
export async function deleteOldDeliveries(db: Executor, before: Date): Promise<void> {
  await db
    .delete(webhookDeliveries)
    .where(
      and(
        sql`${webhookDeliveries.status} <> 'pending'`,
        sql`${webhookDeliveries.createdAt} < ${before}`,
      ),
    );
}
