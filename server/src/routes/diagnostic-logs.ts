/** POST /v2/diagnostic-logs?app=&username= (client-compat §8): services/diagnostic-logs.ts. */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { saveDiagnosticLog } from '../services/diagnostic-logs';
import { ProblemSchema } from '../schemas/common';
import { LogQuerySchema, SavedLogSchema } from '../schemas/diagnostic-logs';
import { acceptRawBodies, rawBody } from './raw-body';

const diagnosticLogRoutes: FastifyPluginAsyncTypebox = async (app) => {
  acceptRawBodies(app);

  app.post(
    '/v2/diagnostic-logs',
    {
      schema: {
        querystring: LogQuerySchema,
        response: {
          200: SavedLogSchema,
          413: ProblemSchema,
        },
      },
    },
    async (request) =>
      saveDiagnosticLog(app.ctx, request.auth.user, request.query, rawBody(request)),
  );
};

export default diagnosticLogRoutes;
