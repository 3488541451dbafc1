/** Browser session sign-in/out and CSRF refresh (api-reference A.2). */
import type { FastifyPluginAsync } from 'fastify';
import { sessionCookieName, sessionCookieOptions } from '../auth/sessions';
import { isMaintenance } from '../maintenance';
import { clientMeta, requireLogin } from '../plugins/auth';
import { issueCsrfToken } from '../plugins/csrf';
import { authenticate, signIn, signOut, type LoginInput } from '../services/auth';
import { authErrorSchema, formErrorSchema, problemSchema } from './schemas';

const loginBody = {
  type: 'object',
  properties: {
    login: { type: ['string', 'null'] },
    password: { type: ['string', 'null'] },
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
        },
      },
    },
    async (request, reply) => {
      const user = await authenticate(ctx, request.body ?? {});
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
};

export default authRoutes;
