/**
 * Webhooks (issue 33; contract schemas/webhooks.ts, service services/webhooks/):
 *
 *   GET    /app/workspaces/:id/webhooks               workspace admins: the webhooks
 *   POST   /app/workspaces/:id/webhooks               workspace admins: a new webhook
 *   GET    /app/project/webhooks/:namespace/:name     project owners: the webhooks
 *   POST   /app/project/webhooks/:namespace/:name     project owners: a new webhook
 *   PATCH  /app/webhooks/:id                          change (address, events, on/off, secret)
 *   DELETE /app/webhooks/:id                          delete
 *   POST   /app/webhooks/:id/test                     'Send test event'
 *   GET    /app/webhooks/:id/deliveries               the delivery log
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { currentUser } from '../plugins/auth';
import { EmptySchema, NamespaceNameParamsSchema, problems } from '../schemas/common';
import {
  CreateWebhookSchema,
  UpdateWebhookSchema,
  WebhookDeliveryListSchema,
  WebhookDeliverySchema,
  WebhookListSchema,
  WebhookParamsSchema,
  WebhookSchema,
  WorkspaceWebhooksParamsSchema,
} from '../schemas/webhooks';
import {
  createProjectWebhook,
  createWorkspaceWebhook,
  deleteWebhook,
  listProjectWebhooks,
  listWorkspaceWebhooks,
  sendTestEvent,
  updateWebhook,
  webhookDeliveries,
} from '../services/webhooks';

const ref = (params: { namespace: string; name: string }) => ({
  namespace: params.namespace,
  name: params.name,
});

/** Registered in a signed-in scope (app.ts). */
const webhookRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const ctx = app.ctx;

  app.get(
    '/app/workspaces/:id/webhooks',
    {
      schema: {
        params: WorkspaceWebhooksParamsSchema,
        response: { 200: WebhookListSchema, ...problems(403, 404) },
      },
    },
    async (request, reply) => {
      reply.header('cache-control', 'private, no-store');
      return listWorkspaceWebhooks(ctx, currentUser(request), request.params.id);
    },
  );

  app.post(
    '/app/workspaces/:id/webhooks',
    {
      schema: {
        params: WorkspaceWebhooksParamsSchema,
        body: CreateWebhookSchema,
        response: { 201: WebhookSchema, ...problems(400, 403, 404, 415) },
      },
    },
    async (request, reply) => {
      const hook = await createWorkspaceWebhook(
        ctx,
        currentUser(request),
        request.params.id,
        request.body,
      );
      return reply.code(201).send(hook);
    },
  );

  app.get(
    '/app/project/webhooks/:namespace/:name',
    {
      schema: {
        params: NamespaceNameParamsSchema,
        response: { 200: WebhookListSchema, ...problems(403, 404) },
      },
    },
    async (request, reply) => {
      reply.header('cache-control', 'private, no-store');
      return listProjectWebhooks(ctx, currentUser(request), ref(request.params));
    },
  );

  app.post(
    '/app/project/webhooks/:namespace/:name',
    {
      schema: {
        params: NamespaceNameParamsSchema,
        body: CreateWebhookSchema,
        response: { 201: WebhookSchema, ...problems(400, 403, 404, 415) },
      },
    },
    async (request, reply) => {
      const hook = await createProjectWebhook(
        ctx,
        currentUser(request),
        ref(request.params),
        request.body,
      );
      return reply.code(201).send(hook);
    },
  );

  app.patch(
    '/app/webhooks/:id',
    {
      schema: {
        params: WebhookParamsSchema,
        body: UpdateWebhookSchema,
        response: { 200: WebhookSchema, ...problems(400, 404, 415) },
      },
    },
    async (request) => updateWebhook(ctx, currentUser(request), request.params.id, request.body),
  );

  app.delete(
    '/app/webhooks/:id',
    {
      schema: {
        params: WebhookParamsSchema,
        response: { 204: EmptySchema, ...problems(404) },
      },
    },
    async (request, reply) => {
      await deleteWebhook(ctx, currentUser(request), request.params.id);
      return reply.code(204).send();
    },
  );

  app.post(
    '/app/webhooks/:id/test',
    {
      schema: {
        params: WebhookParamsSchema,
        response: { 202: WebhookDeliverySchema, ...problems(404) },
      },
    },
    async (request, reply) => {
      const delivery = await sendTestEvent(ctx, currentUser(request), request.params.id);
      return reply.code(202).send(delivery);
    },
  );

  app.get(
    '/app/webhooks/:id/deliveries',
    {
      schema: {
        params: WebhookParamsSchema,
        response: { 200: WebhookDeliveryListSchema, ...problems(404) },
      },
    },
    async (request, reply) => {
      reply.header('cache-control', 'private, no-store');
      return webhookDeliveries(ctx, currentUser(request), request.params.id);
    },
  );
};

export default webhookRoutes;
