/** POST /v2/diagnostic-logs?app=&username= (client-compat §8): services/diagnostic-logs.ts. */
import type { FastifyPluginAsync } from 'fastify';
import { saveDiagnosticLog, type LogQuery } from '../services/diagnostic-logs';
import { problemSchema } from './schemas';
import { acceptRawBodies, rawBody } from './raw-body';

const diagnosticLogRoutes: FastifyPluginAsync = async (app) => {
  acceptRawBodies(app);

  app.post<{ Querystring: LogQuery }>(
    '/v2/diagnostic-logs',
    {
      schema: {
        querystring: {
          type: 'object',
          properties: { app: { type: 'string' }, username: { type: 'string' } },
        },
        response: {
          200: { type: 'object', properties: { file: { type: 'string' } } },
          413: problemSchema,
        },
      },
    },
    async (request) =>
      saveDiagnosticLog(app.ctx, request.auth.user, request.query, rawBody(request)),
  );
};

export default diagnosticLogRoutes;
