/** Workspaces (api-reference A.4). */
import type { FastifyPluginAsync } from 'fastify';
import { notFound } from '../errors';
import { currentUser, requireLogin } from '../plugins/auth';
import { getUserWorkspace, listUserWorkspaces } from '../services/workspaces';
import { authErrorSchema, problemSchema, workspaceRoleSchema } from './schemas';

const workspaceSchema = {
  type: 'object',
  properties: {
    id: { type: 'integer' },
    name: { type: 'string' },
    storage: { type: 'integer' },
    disk_usage: { type: 'integer' },
    project_count: { type: 'integer' },
    role: workspaceRoleSchema,
  },
} as const;

const workspaceRoutes: FastifyPluginAsync = async (app) => {
  app.get(
    '/v1/workspaces',
    {
      preHandler: requireLogin,
      schema: {
        response: { 200: { type: 'array', items: workspaceSchema }, 401: authErrorSchema },
      },
    },
    async (request) => listUserWorkspaces(app.ctx, currentUser(request)),
  );

  app.get<{ Params: { id: string } }>(
    '/v1/workspace/:id',
    {
      preHandler: requireLogin,
      schema: {
        params: { type: 'object', properties: { id: { type: 'string' } }, required: ['id'] },
        response: {
          200: workspaceSchema,
          401: authErrorSchema,
          403: problemSchema,
          404: problemSchema,
        },
      },
    },
    async (request) => {
      // Non-integer ids are "no such route" in the reference: generic 404.
      const { id } = request.params;
      if (!/^\d{1,9}$/.test(id)) throw notFound();
      return getUserWorkspace(app.ctx, currentUser(request), Number(id));
    },
  );
};

export default workspaceRoutes;
