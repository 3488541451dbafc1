/**
 * Project access one user at a time (GET/PATCH /app/project/{id}/access, and the
 * reference's v2 collaborators) and the share dialog's user search (GET /app/auth/user/search).
 */
import type { FastifyPluginAsync } from 'fastify';
import { rowIdSchema } from '../lib/limits';
import { requireLogin } from '../plugins/auth';
import {
  addCollaborator,
  changeProjectAccess,
  listCollaborators,
  listProjectAccess,
  removeCollaborator,
  searchUsers,
  updateCollaborator,
  type AccessChange,
  type CollaboratorRole,
  type UserSearchQuery,
} from '../services/collaborators';
import {
  authErrorSchema,
  emptySchema,
  idParams,
  problemSchema,
  workspaceRoleSchema,
} from './schemas';

const nullableString = { type: ['string', 'null'] } as const;
const projectRoleSchema = { type: 'string', enum: ['reader', 'writer', 'owner'] } as const;

const memberSchema = {
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
} as const;

const memberListSchema = { type: 'array', items: memberSchema } as const;

const collaboratorRoleSchema = {
  type: 'string',
  enum: ['owner', 'writer', 'editor', 'reader'],
} as const;

const collaboratorParams = {
  type: 'object',
  required: ['id', 'user_id'],
  properties: { id: { type: 'string' }, user_id: { type: 'string' } },
} as const;

/** The answers every v2 collaborator call may give besides its success. */
const collaboratorErrors = {
  400: problemSchema,
  401: authErrorSchema,
  403: problemSchema,
  404: problemSchema,
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
            user_id: rowIdSchema,
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

  app.get<{ Params: { id: string } }>(
    '/v2/projects/:id/collaborators',
    {
      preHandler: requireLogin,
      schema: { params: idParams, response: { 200: memberListSchema, ...collaboratorErrors } },
    },
    async (request) => listCollaborators(ctx, request.auth.user, request.params.id),
  );

  app.post<{ Params: { id: string }; Body: { user: string; role: CollaboratorRole } }>(
    '/v2/projects/:id/collaborators',
    {
      preHandler: requireLogin,
      schema: {
        params: idParams,
        body: {
          type: 'object',
          required: ['user', 'role'],
          properties: {
            user: { type: 'string', minLength: 1, maxLength: 256 },
            role: collaboratorRoleSchema,
          },
        },
        response: {
          201: memberSchema,
          ...collaboratorErrors,
          409: problemSchema,
          415: problemSchema,
        },
      },
    },
    async (request, reply) => {
      const entry = await addCollaborator(ctx, request.auth.user, request.params.id, request.body);
      return reply.code(201).send(entry);
    },
  );

  app.patch<{ Params: { id: string; user_id: string }; Body: { role: CollaboratorRole } }>(
    '/v2/projects/:id/collaborators/:user_id',
    {
      preHandler: requireLogin,
      schema: {
        params: collaboratorParams,
        body: {
          type: 'object',
          required: ['role'],
          properties: { role: collaboratorRoleSchema },
        },
        response: { 200: memberSchema, ...collaboratorErrors, 415: problemSchema },
      },
    },
    async (request) =>
      updateCollaborator(
        ctx,
        request.auth.user,
        request.params.id,
        request.params.user_id,
        request.body.role,
      ),
  );

  app.delete<{ Params: { id: string; user_id: string } }>(
    '/v2/projects/:id/collaborators/:user_id',
    {
      preHandler: requireLogin,
      schema: { params: collaboratorParams, response: { 204: emptySchema, ...collaboratorErrors } },
    },
    async (request, reply) => {
      await removeCollaborator(ctx, request.auth.user, request.params.id, request.params.user_id);
      return reply.code(204).send();
    },
  );
};

export default collaboratorRoutes;
