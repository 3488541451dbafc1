/** The signed-in user: profile and closing the account (api-reference A.3). */
import type { FastifyPluginAsync } from 'fastify';
import { sessionCookieName } from '../auth/sessions';
import { requireLogin } from '../plugins/auth';
import { closeAccount } from '../services/account';
import { getLegacyUserInfo, getOwnProfile } from '../services/users';
import { authErrorSchema, emptySchema, problemSchema, workspaceRoleSchema } from './schemas';

const nullableString = { type: ['string', 'null'] } as const;

const profileResponse = {
  type: 'object',
  properties: {
    id: { type: 'integer' },
    username: { type: 'string' },
    email: nullableString,
    verified_email: { type: 'boolean' },
    first_name: nullableString,
    last_name: nullableString,
    name: { type: 'string' },
    receive_notifications: { type: 'boolean' },
    registration_date: { type: 'string' },
    last_signed_in: nullableString,
    can_edit_profile: { type: 'boolean' },
    workspaces: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          id: { type: 'integer' },
          name: { type: 'string' },
          role: workspaceRoleSchema,
        },
      },
    },
    preferred_workspace: { type: ['integer', 'null'] },
    invitations: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          uuid: { type: 'string' },
          workspace: { type: 'string' },
          role: workspaceRoleSchema,
        },
      },
    },
  },
} as const;

const legacyUserInfoResponse = {
  type: 'object',
  properties: {
    username: { type: 'string' },
    email: nullableString,
    disk_usage: { type: 'integer' },
    storage: { type: 'integer' },
    storage_limit: { type: 'integer' },
    organisations: { type: 'object', additionalProperties: workspaceRoleSchema },
  },
} as const;

const userRoutes: FastifyPluginAsync = async (app) => {
  app.get(
    '/v1/user/profile',
    {
      preHandler: requireLogin,
      schema: { response: { 200: profileResponse, 401: authErrorSchema } },
    },
    async (request) => getOwnProfile(app.ctx, request.auth.user),
  );

  // Legacy (old servers; the path's username is ignored): the python client's user info.
  app.get(
    '/v1/user/:username',
    {
      preHandler: requireLogin,
      schema: {
        params: {
          type: 'object',
          properties: { username: { type: 'string', maxLength: 255 } },
          required: ['username'],
        },
        response: { 200: legacyUserInfoResponse, 401: authErrorSchema },
      },
    },
    async (request) => getLegacyUserInfo(app.ctx, request.auth.user),
  );

  app.delete(
    '/v1/user',
    {
      preHandler: requireLogin,
      schema: { response: { 204: emptySchema, 400: problemSchema, 401: authErrorSchema } },
    },
    async (request, reply) => {
      await closeAccount(app.ctx, request.auth.user);
      reply.clearCookie(sessionCookieName(app.ctx.config), {
        path: '/',
        secure: app.ctx.config.secureCookies,
      });
      return reply.code(204).send();
    },
  );
};

export default userRoutes;
