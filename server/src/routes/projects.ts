/** Project list and creation (api-reference A.5, §6.1). */
import type { FastifyPluginAsync } from 'fastify';
import { clientMeta, requireLogin } from '../plugins/auth';
import { createProject, listProjects, type CreateProjectInput } from '../services/projects';
import {
  authErrorSchema,
  emptySchema,
  pageQueryProperties,
  problemSchema,
  stringList,
} from './schemas';

const idList = { type: 'array', items: { type: 'integer' } } as const;

export const projectListItemSchema = {
  type: 'object',
  properties: {
    id: { type: 'string' },
    name: { type: 'string' },
    namespace: { type: 'string' },
    version: { type: 'string' },
    created: { type: 'string' },
    updated: { type: 'string' },
    creator: { type: ['integer', 'null'] },
    disk_usage: { type: 'integer' },
    tags: stringList,
    has_conflict: { type: 'boolean' },
    permissions: {
      type: 'object',
      properties: {
        upload: { type: 'boolean' },
        update: { type: 'boolean' },
        delete: { type: 'boolean' },
      },
    },
    access: {
      type: 'object',
      properties: {
        owners: idList,
        ownersnames: stringList,
        writers: idList,
        writersnames: stringList,
        editors: idList,
        editorsnames: stringList,
        readers: idList,
        readersnames: stringList,
        public: { type: 'boolean' },
      },
    },
  },
} as const;

const listQuery = {
  type: 'object',
  required: ['page', 'per_page'],
  properties: {
    ...pageQueryProperties,
    order_params: { type: 'string' },
    order_by: { type: 'string' },
    descending: { type: 'boolean' },
    namespace: { type: 'string' },
    only_namespace: { type: 'string' },
    name: { type: 'string' },
    user: { type: 'string' },
    last_updated_in: { type: 'integer' },
    flag: { type: 'string', enum: ['created', 'shared'] },
    as_admin: { type: 'boolean' },
    public: { type: 'boolean' },
    only_public: { type: 'boolean' },
  },
} as const;

interface ListQuery {
  page: number;
  per_page: number;
  order_params?: string;
  order_by?: string;
  descending?: boolean;
  namespace?: string;
  only_namespace?: string;
  name?: string;
  user?: string;
  last_updated_in?: number;
  flag?: 'created' | 'shared';
  as_admin?: boolean;
  public?: boolean;
  only_public?: boolean;
}

const createBody = {
  type: 'object',
  required: ['name'],
  properties: {
    name: { type: 'string' },
    public: { type: 'boolean' },
    template: { type: ['string', 'null'] },
  },
} as const;

const projectRoutes: FastifyPluginAsync = async (app) => {
  const ctx = app.ctx;

  app.get<{ Querystring: ListQuery }>(
    '/v1/project/paginated',
    {
      schema: {
        querystring: listQuery,
        response: {
          200: {
            type: 'object',
            required: ['projects', 'count'],
            properties: {
              projects: { type: 'array', items: projectListItemSchema },
              count: { type: 'integer' },
            },
          },
          400: problemSchema,
          404: problemSchema,
        },
      },
    },
    async (request) => {
      const q = request.query;
      return listProjects(ctx, request.auth.user, {
        page: q.page,
        perPage: q.per_page,
        orderParams: q.order_params,
        orderBy: q.order_by,
        descending: q.descending,
        namespace: q.namespace,
        onlyNamespace: q.only_namespace,
        name: q.name,
        user: q.user,
        lastUpdatedIn: q.last_updated_in,
        flag: q.flag,
        asAdmin: q.as_admin,
        public: q.public,
        onlyPublic: q.only_public,
      });
    },
  );

  app.post<{ Params: { namespace: string }; Body: CreateProjectInput }>(
    '/v1/project/:namespace',
    {
      preHandler: requireLogin,
      schema: {
        params: {
          type: 'object',
          required: ['namespace'],
          properties: { namespace: { type: 'string' } },
        },
        body: createBody,
        response: {
          200: emptySchema,
          400: problemSchema,
          401: authErrorSchema,
          403: problemSchema,
          404: problemSchema,
          409: problemSchema,
          415: problemSchema,
        },
      },
    },
    async (request, reply) => {
      const deviceHeader = request.headers['x-device-id'];
      await createProject(ctx, request.auth.user, request.params.namespace, request.body, {
        ...clientMeta(request),
        deviceId: (Array.isArray(deviceHeader) ? deviceHeader[0] : deviceHeader) ?? null,
      });
      return reply.code(200).send();
    },
  );
};

export default projectRoutes;
