/** Project access requests (api-reference A.7): the lists, creating, accepting, removing. */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  acceptAccessRequest,
  createAccessRequest,
  removeAccessRequest,
  listOwnAccessRequests,
  listWorkspaceAccessRequests,
  type AccessRequestListQuery,
} from '../services/access-requests';
import {
  EmptySchema,
  FormOrProblemSchema,
  IdParamsSchema,
  NamespaceParamsSchema,
  NamespaceProjectParamsSchema,
  problems,
} from '../schemas/common';
import {
  AcceptBodySchema,
  AccessRequestListQuerySchema,
  AccessRequestListSchema,
  type AccessRequestListQuery as ListQuery,
} from '../schemas/access-requests';

function toQuery(q: ListQuery): AccessRequestListQuery {
  return {
    page: q.page,
    perPage: q.per_page,
    orderParams: q.order_params,
    projectName: q.project_name,
  };
}

/** Registered in a signed-in scope (app.ts). */
const accessRequestRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const ctx = app.ctx;

  app.get(
    '/app/project/access-requests',
    {
      schema: {
        querystring: AccessRequestListQuerySchema,
        response: {
          200: AccessRequestListSchema,
          ...problems(400, 404),
        },
      },
    },
    async (request) => listOwnAccessRequests(ctx, request.auth.user, toQuery(request.query)),
  );

  app.get(
    '/app/project/access-request/:namespace',
    {
      schema: {
        params: NamespaceParamsSchema,
        querystring: AccessRequestListQuerySchema,
        response: {
          200: AccessRequestListSchema,
          ...problems(400, 403, 404),
        },
      },
    },
    async (request) =>
      listWorkspaceAccessRequests(
        ctx,
        request.auth.user,
        request.params.namespace,
        toQuery(request.query),
      ),
  );

  app.post(
    '/app/project/access-request/:namespace/:project',
    {
      schema: {
        params: NamespaceProjectParamsSchema,
        response: {
          200: EmptySchema,
          ...problems(404, 409),
        },
      },
    },
    async (request, reply) => {
      await createAccessRequest(
        ctx,
        request.auth.user,
        request.params.namespace,
        request.params.project,
      );
      return reply.code(200).send();
    },
  );

  app.post(
    '/app/project/access-request/accept/:id',
    {
      schema: {
        params: IdParamsSchema,
        body: AcceptBodySchema,
        response: {
          200: EmptySchema,
          400: FormOrProblemSchema,
          ...problems(403, 404, 409, 415),
        },
      },
    },
    async (request, reply) => {
      await acceptAccessRequest(
        ctx,
        request.auth.user,
        request.params.id,
        request.body.permissions,
      );
      return reply.code(200).send();
    },
  );

  app.delete(
    '/app/project/access-request/:id',
    {
      schema: {
        params: IdParamsSchema,
        response: {
          200: EmptySchema,
          ...problems(403, 404),
        },
      },
    },
    async (request, reply) => {
      await removeAccessRequest(ctx, request.auth.user, request.params.id);
      return reply.code(200).send();
    },
  );
};

export default accessRequestRoutes;
