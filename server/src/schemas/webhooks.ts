/**
 * Webhooks (issue 33; service services/webhooks/, routes routes/webhooks.ts): a workspace's
 * admins and a project's owners register addresses that are sent signed event messages
 * (Standard Webhooks: `webhook-id`, `webhook-timestamp`, `webhook-signature`).
 *
 * Workspace admins:
 * - GET  /app/workspaces/{id}/webhooks                       → WebhookList
 * - POST /app/workspaces/{id}/webhooks                       CreateWebhook → 201 Webhook
 * Project owners:
 * - GET  /app/project/webhooks/{namespace}/{name}            → WebhookList
 * - POST /app/project/webhooks/{namespace}/{name}            CreateWebhook → 201 Webhook
 * Whoever manages the webhook's workspace or project:
 * - PATCH  /app/webhooks/{id}                                UpdateWebhook → Webhook
 * - DELETE /app/webhooks/{id}                                → 204 (its pending messages dropped)
 * - POST   /app/webhooks/{id}/test                           → 202 WebhookDelivery ('webhook.test')
 * - GET    /app/webhooks/{id}/deliveries                     → WebhookDeliveryList (newest first)
 *
 * An address must be http(s) and, unless WEBHOOK_ALLOW_PRIVATE is set, must not be or resolve
 * to a loopback, private, link-local or otherwise non-public address: 400 WEBHOOK_PRIVATE_ADDRESS
 * (checked again at each delivery, after resolving the name).
 */
import { Type, type Static } from '@sinclair/typebox';
import { NullableInteger, NullableString, StringEnum } from './common';
import { WEBHOOK_EVENTS } from './webhook-events';

export const MAX_WEBHOOK_URL_LENGTH = 2000;
/** Webhooks one workspace or project may have. */
export const MAX_WEBHOOKS_PER_SCOPE = 20;

export const WEBHOOK_URL_INVALID = 'The address must be an http:// or https:// URL';
export const WEBHOOK_PRIVATE_ADDRESS =
  'The address is in a loopback, private or link-local network; webhooks are not sent there';
export const WEBHOOK_UNRESOLVED = 'The address could not be resolved';
export const WEBHOOK_NOT_FOUND = 'Webhook not found';
export const WEBHOOK_TOO_MANY = `At most ${MAX_WEBHOOKS_PER_SCOPE} webhooks each`;
export const WEBHOOK_SECRET_INVALID =
  'The secret must be whsec_ followed by 24 to 64 bytes in base64';

/** `whsec_` and 24-64 bytes in base64. */
export const WEBHOOK_SECRET_PATTERN = '^whsec_[A-Za-z0-9+/]{32,88}={0,2}$';

export const WebhookEventSchema = StringEnum(WEBHOOK_EVENTS);

export const WebhookSchema = Type.Object({
  id: Type.Integer(),
  /** 'workspace' or 'project': where its events come from. */
  scope: StringEnum(['workspace', 'project']),
  url: Type.String(),
  description: Type.String(),
  /** The signing secret (`whsec_…`), for the receiver's configuration. */
  secret: Type.String(),
  events: Type.Array(WebhookEventSchema),
  active: Type.Boolean(),
  created_at: Type.String({ format: 'date-time' }),
  created_by: NullableString(),
  /** The latest delivery's status, or null before the first. */
  last_status: NullableString(),
});
export type Webhook = Static<typeof WebhookSchema>;

export const WebhookListSchema = Type.Object({ webhooks: Type.Array(WebhookSchema) });
export type WebhookList = Static<typeof WebhookListSchema>;

export const CreateWebhookSchema = Type.Object({
  url: Type.String({ minLength: 1, maxLength: MAX_WEBHOOK_URL_LENGTH }),
  events: Type.Array(WebhookEventSchema, { minItems: 1, maxItems: WEBHOOK_EVENTS.length }),
  description: Type.Optional(Type.String({ maxLength: 200 })),
  /** A secret of one's own; by default one is generated. */
  secret: Type.Optional(Type.String({ pattern: WEBHOOK_SECRET_PATTERN })),
});
export type CreateWebhook = Static<typeof CreateWebhookSchema>;

export const UpdateWebhookSchema = Type.Object({
  url: Type.Optional(Type.String({ minLength: 1, maxLength: MAX_WEBHOOK_URL_LENGTH })),
  events: Type.Optional(
    Type.Array(WebhookEventSchema, { minItems: 1, maxItems: WEBHOOK_EVENTS.length }),
  ),
  description: Type.Optional(Type.String({ maxLength: 200 })),
  active: Type.Optional(Type.Boolean()),
  /** true: a new secret is generated (the old one stops signing at once). */
  rotate_secret: Type.Optional(Type.Boolean()),
});
export type UpdateWebhook = Static<typeof UpdateWebhookSchema>;

export const WebhookParamsSchema = Type.Object({ id: Type.String({ pattern: '^\\d{1,9}$' }) });
export type WebhookParams = Static<typeof WebhookParamsSchema>;

export const WorkspaceWebhooksParamsSchema = Type.Object({
  id: Type.String({ pattern: '^\\d{1,9}$' }),
});

export const WebhookDeliveryStatusSchema = StringEnum(['pending', 'delivered', 'failed']);

export const WebhookDeliverySchema = Type.Object({
  /** The message id (`webhook-id`). */
  id: Type.String(),
  event: Type.String(),
  status: WebhookDeliveryStatusSchema,
  attempts: Type.Integer(),
  created_at: Type.String({ format: 'date-time' }),
  last_attempt_at: NullableString(),
  next_attempt_at: NullableString(),
  /** The HTTP status of the latest answer, null when none came. */
  response_code: NullableInteger(),
  /** Why the latest attempt failed (no answer, refused address, ...). */
  error: NullableString(),
});
export type WebhookDelivery = Static<typeof WebhookDeliverySchema>;

export const WebhookDeliveryListSchema = Type.Object({
  deliveries: Type.Array(WebhookDeliverySchema),
});
export type WebhookDeliveryList = Static<typeof WebhookDeliveryListSchema>;
