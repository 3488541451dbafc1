/**
 * The audit log (issue 33; contract schemas/audit.ts, service services/audit.ts): read
 * only. Workspace admins see their workspaces' entries, the superuser all.
 *
 *   GET /app/audit      a page of entries, newest first
 *   GET /app/audit.csv  every matching entry as CSV (a download)
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { currentUser } from '../plugins/auth';
import { problems } from '../schemas/common';
import { AuditPageSchema, AuditQuerySchema } from '../schemas/audit';
import { auditCsv, listAudit } from '../services/audit';

/** Registered in a signed-in scope (app.ts). */
const auditRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const ctx = app.ctx;

  app.get(
    '/app/audit',
    {
      schema: {
        querystring: AuditQuerySchema,
        response: { 200: AuditPageSchema, ...problems(400, 403) },
      },
    },
    async (request, reply) => {
      reply.header('cache-control', 'private, no-store');
      return listAudit(ctx, currentUser(request), request.query);
    },
  );

  app.get(
    '/app/audit.csv',
    {
      schema: {
        querystring: AuditQuerySchema,
        response: { 200: Type.String(), ...problems(400, 403) },
      },
    },
    async (request, reply) => {
      const csv = await auditCsv(ctx, currentUser(request), request.query);
      const day = ctx.now().toISOString().slice(0, 10);
      return reply
        .header('cache-control', 'private, no-store')
        .header('content-type', 'text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="waymark-audit-${day}.csv"`)
        .send(csv);
    },
  );
};

export default auditRoutes;
