/**
 * Browser session auth and the account calls under /app/auth (api-reference A.2), and the
 * token login of desktop and mobile clients, POST /v1/auth/login (A.3).
 */
import type { FastifyPluginAsync } from 'fastify';
import { createSession, sessionCookieName, sessionCookieOptions } from '../auth/sessions';
import { limitSignIn } from '../auth/sign-in-limits';
import { deleteSession } from '../db/queries/sessions';
import { isMaintenance } from '../maintenance';
import { clientMeta, deviceIdOf, requireLogin } from '../plugins/auth';
import { issueCsrfToken } from '../plugins/csrf';
import {
  changePassword,
  confirmEmail,
  requestPasswordReset,
  resendConfirmation,
  resetPassword,
  updateProfile,
} from '../services/account';
import { authenticate, signIn, signOut, type LoginInput } from '../services/auth';
import { tokenLogin } from '../services/token-auth';
import {
  authErrorSchema,
  emptySchema,
  formErrorSchema,
  formOrProblemSchema,
  problemSchema,
} from './schemas';

const loginBody = {
  type: 'object',
  properties: {
    login: { type: ['string', 'null'] },
    password: { type: ['string', 'null'] },
  },
} as const;

const nullableString = { type: ['string', 'null'] } as const;

const resetRequestBody = {
  type: 'object',
  properties: { email: nullableString },
} as const;

const newPasswordBody = {
  type: 'object',
  properties: { password: nullableString, confirm: nullableString },
} as const;

const changePasswordBody = {
  type: 'object',
  properties: { old_password: nullableString, password: nullableString, confirm: nullableString },
} as const;

const profileBody = {
  type: 'object',
  properties: {
    email: nullableString,
    first_name: nullableString,
    last_name: nullableString,
    receive_notifications: { type: 'boolean' },
  },
} as const;

const tokenParams = {
  type: 'object',
  required: ['token'],
  properties: { token: { type: 'string' } },
} as const;

type Fields = Record<string, unknown>;

const tokenLoginResponse = {
  type: 'object',
  properties: {
    id: { type: 'integer' },
    username: { type: 'string' },
    email: nullableString,
    first_name: nullableString,
    last_name: nullableString,
    name: { type: 'string' },
    receive_notifications: { type: 'boolean' },
    verified_email: { type: 'boolean' },
    tier: { type: 'string' },
    registration_date: { type: 'string' },
    storage: { type: 'null' },
    storage_limit: { type: 'null' },
    disk_usage: { type: 'null' },
    has_project: { type: 'boolean' },
    session: {
      type: 'object',
      required: ['token', 'expire'],
      properties: { token: { type: 'string' }, expire: { type: 'string' } },
    },
  },
} as const;

const authRoutes: FastifyPluginAsync = async (app) => {
  const ctx = app.ctx;
  const cookieName = sessionCookieName(ctx.config);

  app.post<{ Body: LoginInput | undefined }>(
    '/app/auth/login',
    {
      schema: {
        body: loginBody,
        response: {
          200: { type: 'null' },
          400: problemSchema,
          401: { anyOf: [formErrorSchema, problemSchema] },
          415: problemSchema,
          429: problemSchema,
        },
      },
    },
    async (request, reply) => {
      const body = request.body ?? {};
      const user = await limitSignIn(ctx, { login: body.login, address: request.ip }, () =>
        authenticate(ctx, body),
      );
      const deviceHeader = request.headers['x-device-id'];
      const session = await signIn(ctx, user, {
        meta: clientMeta(request),
        deviceId: (Array.isArray(deviceHeader) ? deviceHeader[0] : deviceHeader) ?? null,
        previousSessionHash: request.auth.sessionIdHash,
        maintenance: await isMaintenance(ctx.config.dataDir),
      });
      reply.setCookie(
        cookieName,
        session.id,
        sessionCookieOptions(ctx.config, session.expiresAt, ctx.now()),
      );
      return reply.code(200).send();
    },
  );

  app.post<{ Body: LoginInput }>(
    '/v1/auth/login',
    {
      schema: {
        body: { ...loginBody, required: ['login', 'password'] },
        response: {
          200: tokenLoginResponse,
          400: problemSchema,
          401: problemSchema,
          415: problemSchema,
          429: problemSchema,
        },
      },
    },
    async (request) =>
      tokenLogin(ctx, request.body, {
        meta: clientMeta(request),
        deviceId: deviceIdOf(request),
        maintenance: await isMaintenance(ctx.config.dataDir),
      }),
  );

  app.get(
    '/app/auth/logout',
    {
      preHandler: requireLogin,
      schema: { response: { 200: { type: 'null' }, 401: authErrorSchema } },
    },
    async (request, reply) => {
      await signOut(ctx, request.auth.sessionIdHash);
      reply.clearCookie(cookieName, { path: '/', secure: ctx.config.secureCookies });
      return reply.code(200).send();
    },
  );

  app.get(
    '/app/auth/refresh/csrf',
    {
      preHandler: requireLogin,
      schema: {
        response: {
          200: { type: 'object', required: ['csrf'], properties: { csrf: { type: 'string' } } },
          401: authErrorSchema,
        },
      },
    },
    async (request, reply) => ({ csrf: issueCsrfToken(request, reply) }),
  );

  app.post<{ Body: Fields | undefined }>(
    '/app/auth/reset-password',
    {
      schema: {
        body: resetRequestBody,
        response: {
          200: emptySchema,
          400: formOrProblemSchema,
          403: problemSchema,
          404: formErrorSchema,
          415: problemSchema,
          429: problemSchema,
        },
      },
    },
    async (request, reply) => {
      await requestPasswordReset(ctx, request.body ?? {}, request.ip);
      return reply.code(200).send();
    },
  );

  app.post<{ Params: { token: string }; Body: Fields | undefined }>(
    '/app/auth/reset-password/:token',
    {
      schema: {
        params: tokenParams,
        body: newPasswordBody,
        response: {
          200: emptySchema,
          400: formOrProblemSchema,
          403: problemSchema,
          404: problemSchema,
          415: problemSchema,
        },
      },
    },
    async (request, reply) => {
      await resetPassword(ctx, request.params.token, request.body ?? {});
      return reply.code(200).send();
    },
  );

  app.post<{ Body: Fields | undefined }>(
    '/app/auth/change-password',
    {
      preHandler: requireLogin,
      schema: {
        body: changePasswordBody,
        response: {
          200: emptySchema,
          400: formOrProblemSchema,
          401: authErrorSchema,
          403: authErrorSchema,
          415: problemSchema,
        },
      },
    },
    async (request, reply) => {
      await changePassword(ctx, request.auth.user, request.auth.sessionIdHash, request.body ?? {});
      // The session that changed the password goes on under a new id: a copy of the old
      // cookie is refused from now on, like every other session of the user.
      const { user, sessionIdHash } = request.auth;
      if (user && sessionIdHash) {
        const now = ctx.now();
        const session = await ctx.database.db.transaction(async (tx) => {
          await deleteSession(tx, sessionIdHash);
          return createSession(tx, user.id, clientMeta(request), now);
        });
        reply.setCookie(
          cookieName,
          session.id,
          sessionCookieOptions(ctx.config, session.expiresAt, now),
        );
      }
      return reply.code(200).send();
    },
  );

  app.post<{ Params: { token: string } }>(
    '/app/auth/confirm-email/:token',
    {
      schema: {
        params: tokenParams,
        response: { 200: emptySchema, 400: problemSchema, 403: problemSchema, 404: problemSchema },
      },
    },
    async (request, reply) => {
      await confirmEmail(ctx, request.params.token);
      return reply.code(200).send();
    },
  );

  app.get(
    '/app/auth/resend-confirm-email',
    {
      preHandler: requireLogin,
      schema: { response: { 200: emptySchema, 401: authErrorSchema, 403: authErrorSchema } },
    },
    async (request, reply) => {
      await resendConfirmation(ctx, request.auth.user);
      return reply.code(200).send();
    },
  );

  app.post<{ Body: Fields | undefined }>(
    '/app/auth/user/profile',
    {
      preHandler: requireLogin,
      schema: {
        body: profileBody,
        response: {
          200: emptySchema,
          400: formOrProblemSchema,
          401: authErrorSchema,
          403: authErrorSchema,
          415: problemSchema,
        },
      },
    },
    async (request, reply) => {
      await updateProfile(ctx, request.auth.user, request.body ?? {});
      return reply.code(200).send();
    },
  );
};

export default authRoutes;
