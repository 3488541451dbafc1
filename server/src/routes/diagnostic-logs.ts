/** POST /v2/diagnostic-logs?app=&username= (client-compat §8): services/diagnostic-logs.ts. */
import type { IncomingMessage } from 'node:http';
import type { FastifyPluginAsync } from 'fastify';
import { saveDiagnosticLog, type LogQuery } from '../services/diagnostic-logs';
import { problemSchema } from './schemas';

async function* noBody(): AsyncGenerator<Uint8Array> {}

const diagnosticLogRoutes: FastifyPluginAsync = async (app) => {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', (_request, payload, done) => done(null, payload));

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
      saveDiagnosticLog(
        app.ctx,
        request.auth.user,
        request.query,
        (request.body as IncomingMessage | undefined) ?? noBody(),
      ),
  );
};

export default diagnosticLogRoutes;
