/**
 * A project's history (api-reference A.6; shapes in docs/decisions/0039-history-api.md):
 * versions list, version detail (by project id or by namespace and name), a file's history
 * and a file's row-level changeset in a version. Version downloads are in routes/downloads.ts.
 */
import type { FastifyPluginAsync } from 'fastify';
import { sendJson } from '../plugins/errors';
import {
  CHANGES_PENDING,
  getChangeset,
  getFileHistory,
  getVersion,
  listVersions,
} from '../services/history';
import { problemSchema } from './schemas';

/** Version names in paths: `vN` (anything else is a 400, as in the reference). */
const versionInPath = { type: 'string', pattern: '^v\\d+$' } as const;

const nullableString = { type: ['string', 'null'] } as const;

const changesetSchema = {
  type: 'object',
  properties: {
    status: { type: 'string', enum: ['pending', 'done', 'error'] },
    size: { type: 'integer' },
    summary: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          table: { type: 'string' },
          insert: { type: 'integer' },
          update: { type: 'integer' },
          delete: { type: 'integer' },
        },
      },
    },
    error: { type: 'string' },
  },
} as const;

const versionCommon = {
  id: { type: 'string' },
  name: { type: 'string' },
  author: { type: 'string' },
  created: { type: 'string' },
  project_name: { type: 'string' },
  namespace: { type: 'string' },
  project_size: { type: 'integer' },
  user_agent: nullableString,
  changesets: { type: 'object', additionalProperties: changesetSchema },
} as const;

const diffSchema = {
  type: 'object',
  properties: { path: { type: 'string' }, size: { type: 'integer' }, checksum: { type: 'string' } },
} as const;

const fileChangeSchema = {
  type: 'object',
  properties: {
    path: { type: 'string' },
    size: { type: 'integer' },
    checksum: nullableString,
    mtime: nullableString,
    change: { type: 'string', enum: ['added', 'updated', 'removed'] },
    expiration: { type: 'null' },
    diff: diffSchema,
  },
} as const;

const versionListItemSchema = {
  type: 'object',
  properties: {
    ...versionCommon,
    changes: {
      type: 'object',
      properties: {
        added: { type: 'integer' },
        updated: { type: 'integer' },
        updated_diff: { type: 'integer' },
        removed: { type: 'integer' },
      },
    },
  },
} as const;

const fileChangeList = { type: 'array', items: fileChangeSchema } as const;

const versionDetailSchema = {
  type: 'object',
  properties: {
    ...versionCommon,
    changes: {
      type: 'object',
      properties: { added: fileChangeList, updated: fileChangeList, removed: fileChangeList },
    },
  },
} as const;

const fileHistorySchema = {
  type: 'object',
  properties: {
    path: { type: 'string' },
    size: { type: 'integer' },
    checksum: nullableString,
    mtime: nullableString,
    diff: diffSchema,
    history: { type: 'object', additionalProperties: fileChangeSchema },
  },
} as const;

const nsName = {
  namespace: { type: 'string' },
  name: { type: 'string' },
} as const;

const pathQuery = {
  type: 'object',
  required: ['path'],
  properties: { path: { type: 'string' } },
} as const;

const errors = { 400: problemSchema, 403: problemSchema, 404: problemSchema } as const;

const historyRoutes: FastifyPluginAsync = async (app) => {
  const ctx = app.ctx;

  app.get<{
    Params: { namespace: string; name: string };
    Querystring: { page: number; per_page: number; descending?: boolean };
  }>(
    '/v1/project/versions/paginated/:namespace/:name',
    {
      schema: {
        params: { type: 'object', required: ['namespace', 'name'], properties: nsName },
        querystring: {
          type: 'object',
          required: ['page', 'per_page'],
          properties: {
            page: { type: 'integer' },
            per_page: { type: 'integer' },
            descending: { type: 'boolean' },
          },
        },
        response: {
          200: {
            type: 'object',
            required: ['count', 'versions'],
            properties: {
              count: { type: 'integer' },
              versions: { type: 'array', items: versionListItemSchema },
            },
          },
          ...errors,
        },
      },
    },
    async (request) =>
      listVersions(
        ctx,
        request.auth.user,
        { namespace: request.params.namespace, name: request.params.name },
        {
          page: request.query.page,
          perPage: request.query.per_page,
          descending: request.query.descending,
        },
      ),
  );

  app.get<{ Params: { id: string; version: string } }>(
    '/v1/project/version/:id/:version',
    {
      schema: {
        params: {
          type: 'object',
          required: ['id', 'version'],
          properties: { id: { type: 'string' }, version: versionInPath },
        },
        response: { 200: versionDetailSchema, ...errors },
      },
    },
    async (request) =>
      getVersion(ctx, request.auth.user, { id: request.params.id }, request.params.version),
  );

  app.get<{ Params: { namespace: string; name: string; version: string } }>(
    '/v1/project/version/:namespace/:name/:version',
    {
      schema: {
        params: {
          type: 'object',
          required: ['namespace', 'name', 'version'],
          properties: { ...nsName, version: versionInPath },
        },
        response: { 200: versionDetailSchema, ...errors },
      },
    },
    async (request) =>
      getVersion(
        ctx,
        request.auth.user,
        { namespace: request.params.namespace, name: request.params.name },
        request.params.version,
      ),
  );

  app.get<{ Params: { namespace: string; name: string }; Querystring: { path: string } }>(
    '/v1/resource/history/:namespace/:name',
    {
      schema: {
        params: { type: 'object', required: ['namespace', 'name'], properties: nsName },
        querystring: pathQuery,
        response: { 200: fileHistorySchema, ...errors },
      },
    },
    async (request) =>
      getFileHistory(
        ctx,
        request.auth.user,
        { namespace: request.params.namespace, name: request.params.name },
        request.query.path,
      ),
  );

  app.get<{
    Params: { namespace: string; name: string; version: string };
    Querystring: { path: string };
  }>(
    '/v1/resource/changesets/:namespace/:name/:version',
    {
      schema: {
        params: {
          type: 'object',
          required: ['namespace', 'name', 'version'],
          properties: { ...nsName, version: versionInPath },
        },
        querystring: pathQuery,
        response: {
          202: {
            type: 'object',
            properties: { status: { type: 'string' }, detail: { type: 'string' } },
          },
          ...errors,
          422: problemSchema,
        },
      },
    },
    async (request, reply) => {
      const answer = await getChangeset(
        ctx,
        request.auth.user,
        { namespace: request.params.namespace, name: request.params.name },
        request.params.version,
        request.query.path,
      );
      if (answer.status === 'pending') {
        return sendJson(reply, 202, 'application/json', {
          status: 'pending',
          detail: CHANGES_PENDING,
        });
      }
      // Stored as JSON already: sent as it is.
      return reply.code(200).header('content-type', 'application/json').send(answer.json);
    },
  );
};

export default historyRoutes;
