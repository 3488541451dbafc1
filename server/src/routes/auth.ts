/**
 * Browser session auth and the account calls under /app/auth (api-reference A.2), and the
 * token login of desktop and mobile clients, POST /v1/auth/login (A.3).
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../context';
import { hashSessionId, sessionCookieName, sessionCookieOptions } from '../auth/sessions';
import { limitSignIn } from '../auth/sign-in-limits';
import { isMaintenance } from '../maintenance';
import { clientMeta, deviceIdOf } from '../plugins/auth';
import { issueCsrfToken, sendCsrfToken } from '../plugins/csrf';
import {
  cancelEmailChange,
  changePassword,
  confirmEmail,
  requestPasswordReset,
  resendConfirmation,
  resetPassword,
  updateProfile,
} from '../services/account';
import { authenticate, rotateSession, signIn, signOut } from '../services/auth';
import type { User } from '../services/users';
import { tokenLogin } from '../services/token-auth';
import {
  AuthErrorSchema,
  EmptySchema,
  FormErrorSchema,
  FormOrProblemSchema,
  ProblemSchema,
  problems,
} from '../schemas/common';
import {
  ChangePasswordBodySchema,
  CsrfSchema,
  LoginBodySchema,
  NewPasswordBodySchema,
  ProfileBodySchema,
  ResetRequestBodySchema,
  TokenLoginBodySchema,
  TokenLoginSchema,
  TokenParamsSchema,
} from '../schemas/auth';

/**
 * Opens a browser session for `user` (replacing the request's own) and sets its cookie, with
 * the CSRF token bound to it: after sign-in, and after registering from an invitation link.
 */
export async function startBrowserSession(
  ctx: AppContext,
  request: FastifyRequest,
  reply: FastifyReply,
  user: User,
): Promise<void> {
  const session = await signIn(ctx, user, {
    meta: clientMeta(request),
    deviceId: deviceIdOf(request),
    previousSessionHash: request.auth.sessionIdHash,
    maintenance: await isMaintenance(ctx.config.dataDir),
  });
  reply.setCookie(
    sessionCookieName(ctx.config),
    session.id,
    sessionCookieOptions(ctx.config, session.expiresAt, ctx.now()),
  );
  sendCsrfToken(request, reply, hashSessionId(session.id));
}

/** Sign-in, the token login, password reset and email confirmation: anyone may call them. */
export const publicAuthRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const ctx = app.ctx;

  app.post(
    '/app/auth/login',
    {
      schema: {
        body: LoginBodySchema,
        response: {
          200: EmptySchema,
          400: ProblemSchema,
          401: FormOrProblemSchema,
          ...problems(415, 429),
        },
      },
    },
    async (request, reply) => {
      const body = request.body ?? {};
      const user = await limitSignIn(ctx, { login: body.login, address: request.ip }, () =>
        authenticate(ctx, body),
      );
      await startBrowserSession(ctx, request, reply, user);
      return reply.code(200).send();
    },
  );

  app.post(
    '/v1/auth/login',
    {
      schema: {
        body: TokenLoginBodySchema,
        response: {
          200: TokenLoginSchema,
          ...problems(400, 401, 415, 429),
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

  app.post(
    '/app/auth/reset-password',
    {
      schema: {
        body: ResetRequestBodySchema,
        response: {
          200: EmptySchema,
          400: FormOrProblemSchema,
          403: ProblemSchema,
          404: FormErrorSchema,
          415: ProblemSchema,
          429: ProblemSchema,
        },
      },
    },
    async (request, reply) => {
      await requestPasswordReset(ctx, request.body ?? {}, request.ip);
      return reply.code(200).send();
    },
  );

  app.post(
    '/app/auth/reset-password/:token',
    {
      schema: {
        params: TokenParamsSchema,
        body: NewPasswordBodySchema,
        response: {
          200: EmptySchema,
          400: FormOrProblemSchema,
          ...problems(403, 404, 415),
        },
      },
    },
    async (request, reply) => {
      await resetPassword(ctx, request.params.token, request.body ?? {});
      return reply.code(200).send();
    },
  );

  app.post(
    '/app/auth/confirm-email/:token',
    {
      schema: {
        params: TokenParamsSchema,
        response: { 200: EmptySchema, ...problems(400, 403, 404) },
      },
    },
    async (request, reply) => {
      await confirmEmail(ctx, request.params.token);
      return reply.code(200).send();
    },
  );
};

/** The signed-in user's session and account (registered in a signed-in scope, app.ts). */
export const authRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const ctx = app.ctx;
  const cookieName = sessionCookieName(ctx.config);

  // A POST with the CSRF token (the reference's GET would let any page sign a user out with
  // an image); a GET is the generic 405 of a known path (app.ts).
  app.post(
    '/app/auth/logout',
    {
      schema: { response: { 200: EmptySchema } },
    },
    async (request, reply) => {
      await signOut(ctx, request.auth.user, request.auth.sessionIdHash);
      reply.clearCookie(cookieName, { path: '/', secure: ctx.config.secureCookies });
      sendCsrfToken(request, reply, null);
      return reply.code(200).send();
    },
  );

  app.get(
    '/app/auth/refresh/csrf',
    {
      schema: {
        response: {
          200: CsrfSchema,
        },
      },
    },
    async (request, reply) => ({ csrf: issueCsrfToken(request, reply) }),
  );

  app.post(
    '/app/auth/change-password',
    {
      config: { personalToken: 'never' },
      schema: {
        body: ChangePasswordBodySchema,
        response: {
          200: EmptySchema,
          400: FormOrProblemSchema,
          403: AuthErrorSchema,
          415: ProblemSchema,
        },
      },
    },
    async (request, reply) => {
      await changePassword(ctx, request.auth.user, request.auth.sessionIdHash, request.body ?? {});
      // The session that changed the password goes on under a new id: a copy of the old
      // cookie is refused from now on, like every other session of the user.
      const { user, sessionIdHash } = request.auth;
      if (user && sessionIdHash) {
        const session = await rotateSession(ctx, user, sessionIdHash, clientMeta(request));
        reply.setCookie(
          cookieName,
          session.id,
          sessionCookieOptions(ctx.config, session.expiresAt, ctx.now()),
        );
        sendCsrfToken(request, reply, session.idHash);
      }
      return reply.code(200).send();
    },
  );

  app.get(
    '/app/auth/resend-confirm-email',
    {
      config: { personalToken: 'never' },
      schema: { response: { 200: EmptySchema, 403: AuthErrorSchema, 429: ProblemSchema } },
    },
    async (request, reply) => {
      await resendConfirmation(ctx, request.auth.user);
      return reply.code(200).send();
    },
  );

  app.post(
    '/app/auth/user/profile',
    {
      config: { personalToken: 'never' },
      schema: {
        body: ProfileBodySchema,
        response: {
          200: EmptySchema,
          400: FormOrProblemSchema,
          403: AuthErrorSchema,
          415: ProblemSchema,
          429: ProblemSchema,
        },
      },
    },
    async (request, reply) => {
      await updateProfile(ctx, request.auth.user, request.body ?? {});
      return reply.code(200).send();
    },
  );

  // The pending address of the profile is dropped (an addition to the reference).
  app.delete(
    '/app/auth/user/pending-email',
    {
      config: { personalToken: 'never' },
      schema: { response: { 204: EmptySchema, 403: AuthErrorSchema } },
    },
    async (request, reply) => {
      await cancelEmailChange(ctx, request.auth.user);
      return reply.code(204).send();
    },
  );
};
