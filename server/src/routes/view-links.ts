/**
 * Read-only view links (issue 32; contract schemas/view-links.ts, service
 * services/view-links.ts):
 *
 *   GET    /app/project/view-links/:namespace/:name           owners: the links
 *   POST   /app/project/view-links/:namespace/:name           owners: a new link
 *   DELETE /app/project/view-links/:namespace/:name/:id       owners: revoke
 *   GET    /app/project/view-links/:namespace/:name/:id/uses  owners: who opened it, when
 *   GET    /app/view/:token                                   anyone with the link
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { clientMeta, currentUser } from '../plugins/auth';
import { EmptySchema, NamespaceNameParamsSchema, problems } from '../schemas/common';
import {
  CreateViewLinkSchema,
  ViewLinkListSchema,
  ViewLinkOpenParamsSchema,
  ViewLinkOpenSchema,
  ViewLinkParamsSchema,
  ViewLinkSchema,
  ViewLinkUsesSchema,
} from '../schemas/view-links';
import {
  createViewLink,
  listViewLinks,
  openViewLink,
  revokeViewLink,
  viewLinkUses,
} from '../services/view-links';

const ref = (params: { namespace: string; name: string }) => ({
  namespace: params.namespace,
  name: params.name,
});

/** Registered in a signed-in scope (app.ts). */
export const viewLinkRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const ctx = app.ctx;

  app.get(
    '/app/project/view-links/:namespace/:name',
    {
      schema: {
        params: NamespaceNameParamsSchema,
        response: { 200: ViewLinkListSchema, ...problems(403, 404) },
      },
    },
    async (request, reply) => {
      reply.header('cache-control', 'private, no-store');
      return listViewLinks(ctx, currentUser(request), ref(request.params));
    },
  );

  app.post(
    '/app/project/view-links/:namespace/:name',
    {
      schema: {
        params: NamespaceNameParamsSchema,
        body: CreateViewLinkSchema,
        response: { 201: ViewLinkSchema, ...problems(400, 403, 404, 415) },
      },
    },
    async (request, reply) => {
      const link = await createViewLink(
        ctx,
        currentUser(request),
        ref(request.params),
        request.body,
      );
      return reply.code(201).send(link);
    },
  );

  app.delete(
    '/app/project/view-links/:namespace/:name/:id',
    {
      schema: {
        params: ViewLinkParamsSchema,
        response: { 204: EmptySchema, ...problems(403, 404) },
      },
    },
    async (request, reply) => {
      await revokeViewLink(
        ctx,
        currentUser(request),
        ref(request.params),
        Number(request.params.id),
      );
      return reply.code(204).send();
    },
  );

  app.get(
    '/app/project/view-links/:namespace/:name/:id/uses',
    {
      schema: {
        params: ViewLinkParamsSchema,
        response: { 200: ViewLinkUsesSchema, ...problems(403, 404) },
      },
    },
    async (request, reply) => {
      reply.header('cache-control', 'private, no-store');
      return viewLinkUses(
        ctx,
        currentUser(request),
        ref(request.params),
        Number(request.params.id),
      );
    },
  );
};

/** Public: whoever holds a link (app.ts). */
export const publicViewLinkRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const ctx = app.ctx;
  app.get(
    '/app/view/:token',
    {
      schema: {
        params: ViewLinkOpenParamsSchema,
        response: { 200: ViewLinkOpenSchema, ...problems(400, 404) },
      },
    },
    async (request, reply) => {
      const meta = clientMeta(request);
      reply.header('cache-control', 'no-store');
      return openViewLink(ctx, request.params.token, { user: request.auth.user, ...meta });
    },
  );
};
