/** The signed-in user: profile and closing the account (api-reference A.3). */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { sessionCookieName } from '../auth/sessions';
import { sendCsrfToken } from '../plugins/csrf';
import { closeAccount } from '../services/account';
import { getLegacyUserInfo, getOwnProfile } from '../services/users';
import { EmptySchema, ProblemSchema } from '../schemas/common';
import { LegacyUserInfoSchema, ProfileSchema, UsernameParamsSchema } from '../schemas/users';

/** Registered in a signed-in scope (app.ts). */
const userRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get('/v1/user/profile', { schema: { response: { 200: ProfileSchema } } }, async (request) =>
    getOwnProfile(app.ctx, request.auth.user),
  );

  // Legacy (old servers; the path's username is ignored): the python client's user info.
  app.get(
    '/v1/user/:username',
    { schema: { params: UsernameParamsSchema, response: { 200: LegacyUserInfoSchema } } },
    async (request) => getLegacyUserInfo(app.ctx, request.auth.user),
  );

  app.delete(
    '/v1/user',
    {
      // Closing the account takes the password's holder, not a token.
      config: { personalToken: 'never' },
      schema: { response: { 204: EmptySchema, 400: ProblemSchema } },
    },
    async (request, reply) => {
      await closeAccount(app.ctx, request.auth.user);
      reply.clearCookie(sessionCookieName(app.ctx.config), {
        path: '/',
        secure: app.ctx.config.secureCookies,
      });
      // A browser's next mutation needs a token of no session; bearer clients use none.
      if (request.auth.sessionIdHash) sendCsrfToken(request, reply, null);
      return reply.code(204).send();
    },
  );
};

export default userRoutes;
