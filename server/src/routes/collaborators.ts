/**
 * Project access one user at a time (GET/PATCH /app/project/{id}/access) and the share
 * dialog's user search (GET /app/auth/user/search).
 */
import type { FastifyPluginAsync } from 'fastify';
import { requireLogin } from '../plugins/auth';
import {
  changeProjectAccess,
  listProjectAccess,
  searchUsers,
  type AccessChange,
  type UserSearchQuery,
} from '../services/collaborators';
import { authErrorSchema, problemSchema, workspaceRoleSchema } from './schemas';

const nullableString = { type: ['string', 'null'] } as const;
const projectRoleSchema = { type: 'string', enum: ['reader', 'writer', 'owner'] } as const;

const memberListSchema = {
  type: 'array',
  items: {
    type: 'object',
    properties: {
      id: { type: 'integer' },
      type: { type: 'string' },
      email: nullableString,
      username: { type: 'string' },
      name: { type: 'string' },
      workspace_role: workspaceRoleSchema,
      project_role: { anyOf: [projectRoleSchema, { type: 'null' }] },
      role: projectRoleSchema,
      project_permission: projectRoleSchema,
      roles: { type: 'array', items: projectRoleSchema },
    },
  },
} as const;

const searchResultSchema = {
  type: 'array',
  items: {
    type: 'object',
    properties: {
      id: { type: 'integer' },
      username: { type: 'string' },
      email: nullableString,
      name: { type: 'string' },
      profile: {
        type: 'object',
        properties: { first_name: nullableString, last_name: nullableString },
      },
    },
  },
} as const;

const idParams = {
  type: 'object',
  required: ['id'],
  properties: { id: { type: 'string' } },
} as const;

const collaboratorRoutes: FastifyPluginAsync = async (app) => {
  const ctx = app.ctx;

  app.get<{ Querystring: UserSearchQuery }>(
    '/app/auth/user/search',
    {
      preHandler: requireLogin,
      schema: {
        querystring: {
          type: 'object',
          required: ['namespace'],
          properties: {
            namespace: { type: 'string' },
            id: { type: 'string' },
            names: { type: 'string' },
            like: { type: 'string', maxLength: 256 },
          },
        },
        response: {
          200: searchResultSchema,
          400: problemSchema,
          401: authErrorSchema,
          403: problemSchema,
          404: problemSchema,
        },
      },
    },
    async (request) => searchUsers(ctx, request.auth.user, request.query),
  );

  app.get<{ Params: { id: string } }>(
    '/app/project/:id/access',
    {
      preHandler: requireLogin,
      schema: {
        params: idParams,
        response: {
          200: memberListSchema,
          401: authErrorSchema,
          403: problemSchema,
          404: problemSchema,
        },
      },
    },
    async (request) => listProjectAccess(ctx, request.auth.user, request.params.id),
  );

  app.patch<{ Params: { id: string }; Body: AccessChange }>(
    '/app/project/:id/access',
    {
      preHandler: requireLogin,
      schema: {
        params: idParams,
        body: {
          type: 'object',
          properties: {
            user_id: { type: 'integer' },
            role: { type: 'string', enum: ['owner', 'writer', 'reader', 'none'] },
            public: { type: 'boolean' },
          },
        },
        response: {
          200: memberListSchema,
          400: problemSchema,
          401: authErrorSchema,
          403: problemSchema,
          404: problemSchema,
          415: problemSchema,
        },
      },
    },
    async (request) => changeProjectAccess(ctx, request.auth.user, request.params.id, request.body),
  );
};

export default collaboratorRoutes;
