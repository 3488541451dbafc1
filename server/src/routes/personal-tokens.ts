/**
 * Personal access tokens of the signed-in user (issue 33; contract
 * schemas/personal-tokens.ts, service services/personal-tokens.ts):
 *
 *   GET    /app/auth/tokens       the user's tokens
 *   POST   /app/auth/tokens       a new token (its value answered once)
 *   DELETE /app/auth/tokens/:id   revoke
 *
 * A browser session only: no personal token manages tokens (config personalToken 'never').
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { currentUser } from '../plugins/auth';
import { EmptySchema, FormOrProblemSchema, problems } from '../schemas/common';
import {
  CreatedPersonalTokenSchema,
  CreatePersonalTokenSchema,
  PersonalTokenListSchema,
  PersonalTokenParamsSchema,
} from '../schemas/personal-tokens';
import { createToken, listTokens, revokeToken } from '../services/personal-tokens';

/** Registered in a signed-in scope (app.ts). */
const personalTokenRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const ctx = app.ctx;
  const config = { personalToken: 'never' as const };

  app.get(
    '/app/auth/tokens',
    { config, schema: { response: { 200: PersonalTokenListSchema, ...problems(403) } } },
    async (request, reply) => {
      reply.header('cache-control', 'private, no-store');
      return listTokens(ctx, currentUser(request));
    },
  );

  app.post(
    '/app/auth/tokens',
    {
      config,
      schema: {
        body: CreatePersonalTokenSchema,
        response: {
          201: CreatedPersonalTokenSchema,
          400: FormOrProblemSchema,
          ...problems(403, 415),
        },
      },
    },
    async (request, reply) => {
      reply.header('cache-control', 'private, no-store');
      return reply.code(201).send(await createToken(ctx, currentUser(request), request.body));
    },
  );

  app.delete(
    '/app/auth/tokens/:id',
    {
      config,
      schema: {
        params: PersonalTokenParamsSchema,
        response: { 204: EmptySchema, ...problems(403, 404) },
      },
    },
    async (request, reply) => {
      await revokeToken(ctx, currentUser(request), Number(request.params.id));
      return reply.code(204).send();
    },
  );
};

export default personalTokenRoutes;
