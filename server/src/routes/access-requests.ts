/** Project access requests (api-reference A.7): the lists, creating, accepting, removing. */
import type { FastifyPluginAsync } from 'fastify';
import { requireLogin } from '../plugins/auth';
import {
  acceptAccessRequest,
  createAccessRequest,
  removeAccessRequest,
  listOwnAccessRequests,
  listWorkspaceAccessRequests,
  type AccessRequestListQuery,
} from '../services/access-requests';
import {
  idParams,
  authErrorSchema,
  emptySchema,
  formOrProblemSchema,
  pageQueryProperties,
  problemSchema,
} from './schemas';

const listQuery = {
  type: 'object',
  required: ['page', 'per_page'],
  properties: {
    ...pageQueryProperties,
    order_params: { type: 'string' },
    project_name: { type: 'string' },
  },
} as const;

interface ListQuery {
  page: number;
  per_page: number;
  order_params?: string;
  project_name?: string;
}

const listResponse = {
  type: 'object',
  required: ['items', 'count'],
  properties: {
    items: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          id: { type: 'integer' },
          requested_by: { type: 'string' },
          project_name: { type: 'string' },
          namespace: { type: 'string' },
          expire: { type: 'string' },
          status: { type: 'string', enum: ['pending', 'expired'] },
        },
      },
    },
    count: { type: 'integer' },
  },
} as const;

function toQuery(q: ListQuery): AccessRequestListQuery {
  return {
    page: q.page,
    perPage: q.per_page,
    orderParams: q.order_params,
    projectName: q.project_name,
  };
}

const accessRequestRoutes: FastifyPluginAsync = async (app) => {
  const ctx = app.ctx;

  app.get<{ Querystring: ListQuery }>(
    '/app/project/access-requests',
    {
      preHandler: requireLogin,
      schema: {
        querystring: listQuery,
        response: {
          200: listResponse,
          400: problemSchema,
          401: authErrorSchema,
          404: problemSchema,
        },
      },
    },
    async (request) => listOwnAccessRequests(ctx, request.auth.user, toQuery(request.query)),
  );

  app.get<{ Params: { namespace: string }; Querystring: ListQuery }>(
    '/app/project/access-request/:namespace',
    {
      preHandler: requireLogin,
      schema: {
        params: {
          type: 'object',
          required: ['namespace'],
          properties: { namespace: { type: 'string' } },
        },
        querystring: listQuery,
        response: {
          200: listResponse,
          400: problemSchema,
          401: authErrorSchema,
          403: problemSchema,
          404: problemSchema,
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

  app.post<{ Params: { namespace: string; project: string } }>(
    '/app/project/access-request/:namespace/:project',
    {
      preHandler: requireLogin,
      schema: {
        params: {
          type: 'object',
          required: ['namespace', 'project'],
          properties: { namespace: { type: 'string' }, project: { type: 'string' } },
        },
        response: {
          200: emptySchema,
          401: authErrorSchema,
          404: problemSchema,
          409: problemSchema,
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

  app.post<{ Params: { id: string }; Body: { permissions?: unknown } }>(
    '/app/project/access-request/accept/:id',
    {
      preHandler: requireLogin,
      schema: {
        params: idParams,
        body: { type: 'object' },
        response: {
          200: emptySchema,
          400: formOrProblemSchema,
          401: authErrorSchema,
          403: problemSchema,
          404: problemSchema,
          409: problemSchema,
          415: problemSchema,
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

  app.delete<{ Params: { id: string } }>(
    '/app/project/access-request/:id',
    {
      preHandler: requireLogin,
      schema: {
        params: idParams,
        response: {
          200: emptySchema,
          401: authErrorSchema,
          403: problemSchema,
          404: problemSchema,
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
